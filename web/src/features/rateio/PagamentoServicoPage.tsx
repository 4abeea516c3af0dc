import '../../components/page-layout.css';
import { SearchPanel } from '../../components/listing';
import { routePath } from '@plac/shared/access';
import { rateio, type ResponseOf } from '@plac/shared/contracts';
import { formatBRL, formatCnpj, formatMonth, UF_SIGLAS, type Centavos } from '@plac/shared/domain';
import { MESSAGES } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { Calendar } from 'primereact/calendar';
import { Column } from 'primereact/column';
import { ColumnGroup } from 'primereact/columngroup';
import { Dropdown } from 'primereact/dropdown';
import { Row } from 'primereact/row';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ListPage, moneyColumn } from '../../components/ListPage';
import { callApi, useApiQuery } from '../../lib/api';
import { mesAtualMais, mesIso } from '../../lib/calendar';
import { EXPORTACAO_POR_PAGINA, exportarCsv, todasAsPaginas, type ColunaCsv } from '../../lib/csv-export';
import { useListSearch } from '../../components/list-search';
import { formatDate } from '../../lib/format';
import { useSession } from '../../lib/session';
import { toast } from '../../lib/toast';
import { mesParaData } from './model';
import { PrevisaoRepasseDialog } from './PrevisaoRepasseDialog';

/**
 * consulta-pagamento-servico (spec 2, 2.11): filters UF (the admin also 'Todos'; a manager fixed to the
 * own UF), months (at most the previous month, default the previous month), client (none in
 * evaluation; a client user fixed to the own company) and status; rows per invoice and origin UF with
 * the repasse status in place of the status text; footers with the totals per Sefaz and, for the admin,
 * 'Total FATEC' and the grand total (a client also sees its grand total). The admin's 'Previsão de Repasse' dialog: the forecast CSV,
 * 'Gerar Simulação' (while the month's definitive report does not exist) and 'Gerar Rateio'.
 */

type Resultado = ResponseOf<typeof rateio.consultarPagamentos>;
type Linha = Resultado['linhas'][number];

const brl = (v: number) => formatBRL(v as Centavos);

/**
 * The export's columns: the list's, without Detalhe (its totals are not rows). A row without a UF has an
 * empty cell, not the screen's '-' (which the formula-safe rule would write as "'-").
 */
const COLUNAS_CSV: ColunaCsv<Linha>[] = [
  { titulo: 'UF', texto: (l) => l.uf },
  { titulo: 'Mês de referência', texto: (l) => formatMonth(l.mesReferencia) },
  { titulo: 'Cliente', texto: (l) => `${l.razaoSocial} (${l.cnpj})` },
  { titulo: 'Valor dos serviços', centavos: (l) => l.valorServicos },
  { titulo: 'Valor da assinatura', centavos: (l) => l.valorAssinatura },
  { titulo: 'Valor do acréscimo', centavos: (l) => l.valorAcrescimo },
  { titulo: 'Total', centavos: (l) => l.valorTotal },
  { titulo: 'Total de requisições', inteiro: (l) => l.totalRequisicoes },
  { titulo: 'Situação', texto: (l) => l.situacaoTexto },
  { titulo: 'Data do retorno bancário', data: (l) => l.dataRetornoBanco },
];

interface Filtro {
  uf: string;
  /** Months, YYYY-MM. */
  de: string;
  ate: string;
  idCliente: string | null;
  situacao: 'A' | 'P' | null;
}

type Busca = { de: string; ate: string; uf?: string; idCliente?: string; situacao?: 'A' | 'P' };

/** The filter as the API takes it ('TODOS' and no client or status left out). */
const buscaDe = (f: Filtro): Busca => ({ de: f.de, ate: f.ate, ...(f.uf !== 'TODOS' ? { uf: f.uf } : {}), ...(f.idCliente ? { idCliente: f.idCliente } : {}), ...(f.situacao ? { situacao: f.situacao } : {}) });

/** Pesquisar's check: the first month not after the last. */
function validar(f: Filtro): Busca | null {
  if (f.de > f.ate) {
    toast.error(MESSAGES.dataInicioMaiorDataFim);
    return null;
  }
  return buscaDe(f);
}

export default function PagamentoServicoPage() {
  const navigate = useNavigate();
  const user = useSession().user;
  const admin = user?.roles.includes('sefaz_admin') ?? false;
  const sefaz = user?.tipo === 'S';
  const anterior = mesIso(mesAtualMais(-1));
  const [repasse, setRepasse] = useState(false);
  const clientes = useApiQuery(rateio.clientesPagamento, {});
  // The payment views search on arrival (spec 2, 2.11) with the default filters (the previous month;
  // a manager's own UF, a client's own company), for every profile alike: the first search is the
  // initial filters'. Only the search on screen is asked (react-query drops an older answer).
  const { draft: filtro, set, search, pages, page, onSubmit } = useListSearch<Filtro, Busca>({
    empty: { uf: admin ? 'TODOS' : (user?.uf ?? 'TODOS'), de: anterior, ate: anterior, idCliente: sefaz ? null : (user?.clienteId ?? null), situacao: null },
    toSearch: validar,
    first: buscaDe,
    perPage: 10,
  });
  // Never idle (searched on arrival, no Limpar).
  const busca = search ?? buscaDe(filtro);
  // The rows are paged on the server (by cursor: months newest first, then UF, then client); the
  // totals in the footer are always the whole period's.
  const consulta = useApiQuery(rateio.consultarPagamentos, { query: { ...busca, ...page } });
  const [exportando, setExportando] = useState(false);
  const resultado: Resultado | null = consulta.isError ? null : (consulta.data ?? null);
  /** The months of the search on screen, for the export's file name. */
  const pesquisado = { de: busca.de, ate: busca.ate };

  /** Every row of the search, page after page (the export is not limited to the page on screen). */
  async function exportar() {
    setExportando(true);
    try {
      const todas = await todasAsPaginas(async (cursor) => {
        const r = await callApi(rateio.consultarPagamentos, { query: { ...busca, perPage: EXPORTACAO_POR_PAGINA, ...(cursor ? { cursor } : {}) } });
        return { items: r.linhas, nextCursor: r.nextCursor };
      });
      if (todas) await exportarCsv(`pagamentos-servicos_${pesquisado.de}_${pesquisado.ate}.csv`, COLUNAS_CSV, todas);
    } catch {
      // callApi has said what failed.
    } finally {
      setExportando(false);
    }
  }

  const linhas = resultado?.linhas ?? [];
  // One row per invoice and origin UF: the key is both, as an invoice has a row per UF.
  const linhasComChave = useMemo(() => (resultado?.linhas ?? []).map((l) => ({ ...l, chave: `${l.consumoId}/${l.uf}` })), [resultado]);
  // The footer (issue 28 item 3): first the gross of each UF and their sum (what the rows add up to),
  // then what each beneficiary receives, computed on the server by the repasse's own rule (the CSVs'),
  // so 'Total SEFAZ <UF>' is the Sefaz's share, not the UF's gross, and 'Total FATEC' plus the SEFAZ
  // totals is 'Total repassado'.
  const total = (chave: string, rotulo: string, valor: number) => (
    <Row key={chave}>
      <Column footer={rotulo} colSpan={6} />
      <Column footer={brl(valor)} colSpan={5} footerClassName="list-nowrap" />
    </Row>
  );
  const rodape = resultado && (
    <ColumnGroup>
      {resultado.totaisUf.map((t) => total(`bruto-${t.uf}`, `Total bruto ${t.uf || '-'}`, t.total))}
      {resultado.totalGeral !== null && total('geral', 'Total Geral', resultado.totalGeral)}
      {(resultado.totaisSefaz ?? []).map((t) => total(`sefaz-${t.uf}`, `Total SEFAZ ${t.uf}`, t.total))}
      {(resultado.beneficiados ?? []).map((b) => total(`ben-${b.nome}`, `Repasse a ${b.nome}`, b.total))}
      {admin && resultado.totalFatec !== null && total('fatec', 'Total FATEC', resultado.totalFatec)}
      {admin && resultado.totalRepassado !== null && total('repassado', 'Total repassado', resultado.totalRepassado)}
    </ColumnGroup>
  );

  // The panel is the same element until its own values change: the list's answers do not render it again.
  const pesquisar = onSubmit(consulta);
  const filtros = useMemo(() => (
    <SearchPanel label="Filtros de pagamentos" onSubmit={pesquisar}>
      <div className="page-field">
        <label htmlFor="pag-uf">UF</label>
        <Dropdown
          inputId="pag-uf"
          value={filtro.uf}
          // 'Todos' for whoever may see every UF (the admin, a client); a manager's own UF only.
          options={[...(sefaz && !admin ? [] : [{ label: 'Todos', value: 'TODOS' }]), ...UF_SIGLAS.map((u) => ({ label: u, value: u }))]}
          onChange={(e) => set('uf', e.value as string)}
          disabled={sefaz && !admin}
        />
      </div>
      <div className="page-field">
        <label htmlFor="pag-de">Mês inicial</label>
        <Calendar inputId="pag-de" value={mesParaData(filtro.de)} onChange={(e) => e.value instanceof Date && set('de', mesIso(e.value))} view="month" dateFormat="mm/yy" maxDate={mesAtualMais(-1)} showIcon />
      </div>
      <div className="page-field">
        <label htmlFor="pag-ate">Mês final</label>
        <Calendar inputId="pag-ate" value={mesParaData(filtro.ate)} onChange={(e) => e.value instanceof Date && set('ate', mesIso(e.value))} view="month" dateFormat="mm/yy" maxDate={mesAtualMais(-1)} showIcon />
      </div>
      <div className="page-field">
        <label htmlFor="pag-cliente">Cliente</label>
        <Dropdown
          inputId="pag-cliente"
          value={filtro.idCliente}
          options={(clientes.data ?? []).map((c) => ({ label: c.razaoSocial, value: c.id }))}
          onChange={(e) => set('idCliente', e.value as string | null)}
          showClear={sefaz}
          filter
          disabled={!sefaz}
          // While the clients load, a client's own company is not yet named: 'Carregando…', not 'Todos'.
          loading={clientes.isFetching}
          placeholder={clientes.isPending ? 'Carregando…' : 'Todos'}
        />
      </div>
      <div className="page-field">
        <label htmlFor="pag-situacao">Situação</label>
        <Dropdown
          inputId="pag-situacao"
          value={filtro.situacao}
          options={[
            { label: 'Em Aberto', value: 'A' },
            { label: 'Pago', value: 'P' },
          ]}
          onChange={(e) => set('situacao', e.value as 'A' | 'P' | null)}
          showClear
          placeholder="Todas"
        />
      </div>
    </SearchPanel>
  ), [pesquisar, filtro, set, sefaz, admin, clientes.data, clientes.isFetching, clientes.isPending]);

  return (
    <>
      <ListPage
        title="Pagamento de Serviços"
        headerActions={admin && <Button type="button" label="Previsão de Repasse" icon="pi pi-percentage" onClick={() => setRepasse(true)} />}
        filters={filtros}
        listActions={
          <Button
            type="button"
            label="Exportar CSV"
            icon="pi pi-file-export"
            outlined
            disabled={linhas.length === 0}
            loading={exportando}
            onClick={() => void exportar()}
          />
        }
        label="Pagamentos"
        rows={linhasComChave}
        dataKey="chave"
        query={consulta}
        paging={{ kind: 'cursor', pages, nextCursor: resultado?.nextCursor, label: 'Paginação dos pagamentos', sizes: [10, 25, 50, 100] }}
        before={
          sefaz && (
            <p className="page-note" data-testid="regra-totais">
              Total bruto: serviços, assinatura e acréscimo das linhas do período pesquisado (todas as páginas). Total SEFAZ, Total FATEC e os repasses: só as faturas pagas, repartidas pela mesma regra dos
              arquivos de previsão, simulação e definitivo — o acréscimo por atraso não é repartido.
            </p>
          )
        }
        table={{ footerColumnGroup: rodape ?? undefined }}
      >
        <Column header="UF" body={(l: Linha) => l.uf || '-'} />
        <Column header="Mês de referência" body={(l: Linha) => formatMonth(l.mesReferencia)} bodyClassName="list-nowrap" />
        <Column header="Cliente" body={(l: Linha) => `${l.razaoSocial} (${formatCnpj(l.cnpj)})`} />
        <Column header="Valor dos serviços" {...moneyColumn((l: Linha) => l.valorServicos)} />
        <Column header="Valor da assinatura" {...moneyColumn((l: Linha) => l.valorAssinatura)} />
        <Column header="Valor do acréscimo" {...moneyColumn((l: Linha) => l.valorAcrescimo)} />
        <Column header="Total" {...moneyColumn((l: Linha) => l.valorTotal)} />
        <Column header="Total de requisições" body={(l: Linha) => l.totalRequisicoes.toLocaleString('pt-BR')} align="right" />
        <Column header="Situação" body={(l: Linha) => l.situacaoTexto} />
        <Column header="Data do retorno bancário" body={(l: Linha) => (l.dataRetornoBanco ? formatDate(l.dataRetornoBanco) : '-')} bodyClassName="list-nowrap" />
        <Column
          header="Detalhe"
          body={(l: Linha) => (
            <Button
              type="button"
              icon="pi pi-search"
              text
              aria-label={`Detalhar ${l.razaoSocial} ${l.uf}`}
              onClick={() => navigate(routePath('consulta-pagamento-servico-detalhe', { idConsumo: l.consumoId, ufConsumo: l.uf || '-' }))}
            />
          )}
        />
      </ListPage>
      {admin && <PrevisaoRepasseDialog visible={repasse} onClose={() => setRepasse(false)} onDone={() => void consulta.refetch()} />}
    </>
  );
}
