import '../../components/page-layout.css';
import { SearchPanel } from '../../components/listing';
import './faturas.css';
import { keepPreviousData } from '@tanstack/react-query';
import { routePath } from '@plac/shared/access';
import { faturamento } from '@plac/shared/contracts';
import { formatCnpj } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { Dropdown } from 'primereact/dropdown';
import { useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { ListPage, moneyColumn } from '../../components/ListPage';
import { callApi, useApiQuery } from '../../lib/api';
import { EXPORTACAO_POR_PAGINA, exportarCsv, todasAsPaginas, type ColunaCsv } from '../../lib/csv-export';
import { useListSearch } from '../../components/list-search';
import { mesAtualMais, mesesEntre, mesIso } from '../../lib/calendar';
import { useCurrentUser } from '../../lib/session';
import { toast } from '../../lib/toast';
import { ImprimirDae } from './ImprimirDae';
import { periodo, SITUACAO_FATURA_OPTIONS, situacaoExibida, type FaturaResumo } from './model';
import { NotaFiscalAcoes } from './NotaFiscal';
import { RelatoriosFaturaAcoes } from './RelatoriosFatura';
import { SituacaoFatura } from './SituacaoFatura';
import { useOpcoesDeClientes } from '../../lib/opcoes-clientes';
import { PeriodoFilter } from '../../components/PeriodoFilter';
import { ClienteFilter } from '../../components/ClienteFilter';

/**
 * consultar-fatura (sefaz_admin, cliente; spec 2 section 2.9): the invoices of a period (month pickers
 * MM/YYYY, at most the current month, both defaulting to the previous month), of one client or all
 * (administrator; a client user's own client is fixed) and a status. The filter is kept in the session.
 * Row actions: the detail (detalhe-fatura), Imprimir DAE for an open invoice (ImprimirDae.tsx), the tax note
 * (NotaFiscal.tsx) and the reports (RelatoriosFatura.tsx). The administrator's picker leaves out clients in evaluation
 * (spec 2 section 6: their invoices are not shown).
 */

const TODOS = '*';

/** The export's columns: the list's, without the actions; a short payment's amounts after the status. */
const COLUNAS_CSV: ColunaCsv<FaturaResumo>[] = [
  { titulo: 'Mês/Ano', texto: periodo },
  { titulo: 'Razão Social', texto: (f) => f.cliente.razaoSocial },
  { titulo: 'CNPJ', texto: (f) => formatCnpj(f.cliente.cnpj) },
  { titulo: 'Valor Total', centavos: (f) => f.valorTotal },
  {
    titulo: 'Situação',
    texto: (f) => {
      const { rotulo, parciais } = situacaoExibida(f);
      return parciais.length > 0 ? `${rotulo} (${parciais.join(', ')})` : rotulo;
    },
  },
];
/** The list's page size by default (the lists' sizes, 10 to 100). */
const POR_PAGINA = 25;

interface Filtro {
  cliente: string;
  mesInicio: Date | null;
  mesFim: Date | null;
  situacao: FaturaResumo['situacao'] | null;
}

interface Busca {
  cnpj: string | undefined;
  dataInicio: string;
  dataFim: string;
  situacao: FaturaResumo['situacao'] | undefined;
}

const mesDe = (iso: unknown): Date | null => {
  if (typeof iso !== 'string' || !/^\d{4}-\d{2}$/.test(iso)) return null;
  const [ano, mes] = iso.split('-').map(Number) as [number, number];
  const data = new Date(ano, mes - 1, 1);
  return data > mesAtualMais(0) ? null : data;
};

/**
 * The session's saved filter, field by field; anything malformed falls back to the default. A month in
 * the address (`?mes=YYYY-MM`, the billing run's link to its invoices) gives every invoice of that month.
 */
function filtroSalvo(admin: boolean, mesDoEndereco: string | null, saved: Record<string, unknown>): Filtro {
  const doMes = mesDe(mesDoEndereco);
  if (doMes) return { cliente: TODOS, mesInicio: doMes, mesFim: doMes, situacao: null };
  const anterior = mesAtualMais(-1);
  return {
    cliente: admin && typeof saved.cliente === 'string' && saved.cliente !== '' ? saved.cliente : TODOS,
    mesInicio: mesDe(saved.mesInicio) ?? anterior,
    mesFim: mesDe(saved.mesFim) ?? anterior,
    situacao: SITUACAO_FATURA_OPTIONS.find((o) => o.value === saved.situacao)?.value ?? null,
  };
}

function buscaDe(f: Filtro): Busca | null {
  if (!f.mesInicio || !f.mesFim || f.mesInicio > f.mesFim || mesesEntre(f.mesInicio, f.mesFim) >= 12) return null;
  return {
    cnpj: f.cliente === TODOS ? undefined : f.cliente,
    dataInicio: mesIso(f.mesInicio),
    dataFim: mesIso(f.mesFim),
    situacao: f.situacao ?? undefined,
  };
}


/** Billing's screens leave the clients in evaluation out (spec 2). */
const emAvaliacao = (c: { situacao: string }) => c.situacao === 'E';
export default function ConsultarFaturaPage() {
  const navigate = useNavigate();
  const user = useCurrentUser();
  const admin = user.roles.includes('sefaz_admin');
  const [parametros] = useSearchParams();
  const { draft: filtro, set, search: busca, pages, page, onSubmit } = useListSearch<Filtro, Busca>({
    empty: () => filtroSalvo(admin, null, {}),
    toSearch: validar,
    // The saved filter's invoices on arrival (none when it is not a valid period).
    first: buscaDe,
    perPage: POR_PAGINA,
    saved: {
      name: 'fatura',
      read: (saved) => filtroSalvo(admin, parametros.get('mes'), saved),
      write: (f) => ({
        cliente: admin ? f.cliente : TODOS,
        mesInicio: f.mesInicio ? mesIso(f.mesInicio) : null,
        mesFim: f.mesFim ? mesIso(f.mesFim) : null,
        situacao: f.situacao,
      }),
    },
  });

  const { opcoes: opcoesDeClientes } = useOpcoesDeClientes(admin, 'cnpj', emAvaliacao);
  const consulta = busca ? { ...busca, ...page } : { dataInicio: '', dataFim: '' };
  const lista = useApiQuery(faturamento.listarFaturas, { query: consulta }, { enabled: busca !== null, placeholderData: keepPreviousData });
  const linhas = useMemo(() => lista.data?.items ?? [], [lista.data]);

  // A client user's own client is named from its invoices; the administrator's options do not change
  // with the list's answers.
  const nomeProprio = admin ? undefined : (linhas[0]?.cliente.razaoSocial ?? user.name);
  const clienteOptions = useMemo(() => {
    if (nomeProprio !== undefined) return [{ value: TODOS, label: user.cnpj ? `${nomeProprio} - ${formatCnpj(user.cnpj)}` : nomeProprio }];
    return [{ value: TODOS, label: 'Todos' }, ...opcoesDeClientes];
  }, [nomeProprio, opcoesDeClientes, user.cnpj]);

  const [exportando, setExportando] = useState(false);

  /** Exportar CSV: every invoice of the search on screen, not only its page. */
  async function exportar() {
    if (!busca) return;
    setExportando(true);
    try {
      const todas = await todasAsPaginas((cursor) => callApi(faturamento.listarFaturas, { query: { ...busca, perPage: EXPORTACAO_POR_PAGINA, ...(cursor ? { cursor } : {}) } }));
      if (todas) await exportarCsv(`faturas_${busca.dataInicio}_${busca.dataFim}.csv`, COLUNAS_CSV, todas);
    } catch {
      // callApi has said what failed.
    } finally {
      setExportando(false);
    }
  }

  /** Pesquisar's checks: both months, the first not after the last, at most 12 months. */
  function validar(filtro: Filtro): Busca | null {
    if (!filtro.mesInicio || !filtro.mesFim) {
      toast.warn(message('campoObrigatorio', { field: filtro.mesInicio ? 'Mês Final' : 'Mês Inicial' }));
      return null;
    }
    if (filtro.mesInicio > filtro.mesFim) {
      toast.warn(message('dataInicioMaiorDataFim'));
      return null;
    }
    if (mesesEntre(filtro.mesInicio, filtro.mesFim) >= 12) {
      toast.warn(message('periodoMaximoDozeMeses'));
      return null;
    }
    return buscaDe(filtro);
  }

  const acoes = (f: FaturaResumo) => (
    <div className="page-row-actions">
      <Button
        type="button"
        icon="pi pi-search"
        rounded
        text
        aria-label={`Detalhar fatura ${periodo(f)} de ${f.cliente.razaoSocial}`}
        tooltip="Detalhar"
        tooltipOptions={{ position: 'top' }}
        onClick={() => navigate(`${routePath('detalhe-fatura')}?id=${encodeURIComponent(f.id)}`)}
      />
      <ImprimirDae fatura={f} onEmitido={() => void lista.refetch()} />
      <RelatoriosFaturaAcoes fatura={f} />
      <NotaFiscalAcoes fatura={f} admin={admin} onEnviada={() => void lista.refetch()} />
    </div>
  );

  // The panel is the same element until its own values change: the list's answers do not render its
  // calendars and dropdowns again (issue 39, a phone's blocked time).
  const pesquisar = onSubmit(lista);
  const filtros = useMemo(() => (
    <SearchPanel label="Filtros de faturas" onSubmit={pesquisar}>
      <ClienteFilter id="filtro-cliente" options={clienteOptions} value={admin ? filtro.cliente : TODOS} onChange={(v) => set('cliente', v ?? TODOS)} admin={admin} />
      <PeriodoFilter id="filtro-mes" inicio={filtro.mesInicio} fim={filtro.mesFim} onInicio={(m) => set('mesInicio', m)} onFim={(m) => set('mesFim', m)} ate={mesAtualMais(0)} />
      <div className="page-field">
        <label htmlFor="filtro-situacao">Situação</label>
        <Dropdown
          inputId="filtro-situacao"
          options={SITUACAO_FATURA_OPTIONS}
          value={filtro.situacao}
          onChange={(e) => set('situacao', (e.value as FaturaResumo['situacao'] | undefined) ?? null)}
          placeholder="Todas"
          showClear
        />
      </div>
    </SearchPanel>
  ), [pesquisar, clienteOptions, admin, filtro, set]);

  return (
    <ListPage
      title="Consultar Fatura"
      filters={filtros}
      listActions={<Button type="button" label="Exportar CSV" icon="pi pi-file-export" outlined onClick={() => void exportar()} disabled={!busca || linhas.length === 0} loading={exportando} />}
      label="Faturas"
      rows={busca ? linhas : []}
      dataKey="id"
      query={lista}
      paging={{ kind: 'cursor', pages, nextCursor: busca ? lista.data?.nextCursor : undefined, label: 'Paginação de faturas' }}
    >
      <Column header="Mês/Ano" body={(f: FaturaResumo) => periodo(f)} bodyClassName="list-nowrap" />
      <Column header="Razão Social" body={(f: FaturaResumo) => f.cliente.razaoSocial} />
      <Column header="CNPJ" body={(f: FaturaResumo) => formatCnpj(f.cliente.cnpj)} bodyClassName="list-nowrap" />
      <Column header="Valor Total" {...moneyColumn((f: FaturaResumo) => f.valorTotal)} />
      <Column header="Situação" body={(f: FaturaResumo) => <SituacaoFatura fatura={f} />} />
      <Column header="Ações" body={acoes} style={{ width: '15rem' }} />
    </ListPage>
  );
}
