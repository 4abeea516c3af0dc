import '../../components/page-layout.css';
import { combineQueries, ListPage, moneyColumn } from '../../components/ListPage';
import { keepPreviousData } from '@tanstack/react-query';
import { prepago } from '@plac/shared/contracts';
import { asMilesimos, formatDate, formatMilesimos } from '@plac/shared/domain';
import { Calendar } from 'primereact/calendar';
import { Column } from 'primereact/column';
import { useState } from 'react';
import { useApiQuery } from '../../lib/api';
import { mesAtualMais, mesIso } from '../../lib/calendar';
import { formatMoney, formatQuantidade } from '../../lib/format';
import { EscrituradorSelect, useEscrituradores } from './escriturador';

/**
 * conta-corrente-requisicoes (sefaz_admin, cliente_imf; spec 3 sections 2.10, 3.12): the bookkeeper's
 * request account — contracted value, consumption deadline and current balance — and the statement of
 * the month the user picks (the original was fixed on 11/2024; ours defaults to the current month and
 * goes back as far as wanted): client, requests, service, band value and consumed value, 25 a page.
 */

type Linha = (typeof prepago.extratoRequisicoes)['response']['_zod']['output']['items'][number];

const SITUACAO: Record<string, string> = {
  SEM_RESERVA: 'Sem reserva',
  AGUARDANDO_PAGAMENTO: 'Aguardando pagamento do DAE',
  VIGENTE: 'Vigente',
  ENCERRADA: 'Encerrada (prazo de consumo vencido)',
};

/** The contracted value; while the reservation's DAE awaits payment, the reservation's value and that state. */
function valorContratado(c: { situacao: string; valorContratado: number; valorReserva?: number | null }): string {
  if (c.situacao === 'AGUARDANDO_PAGAMENTO' && c.valorReserva != null) return `${formatMoney(c.valorReserva)} (aguardando pagamento)`;
  return formatMoney(c.valorContratado);
}

export default function ContaCorrenteRequisicoesPage() {
  const { admin, escrituradores, carregando, consulta: escrituradoresConsulta } = useEscrituradores();
  const [escolhido, setEscolhido] = useState('');
  const [mes, setMes] = useState<Date | null>(() => mesAtualMais(0));
  const [pagina, setPagina] = useState({ first: 0, rows: 25 });
  const cnpj = admin ? escolhido : (escrituradores[0]?.cnpj ?? '');
  const pronto = cnpj !== '';

  const conta = useApiQuery(prepago.contaRequisicoes, { query: { cnpj } }, { enabled: pronto });
  const extrato = useApiQuery(
    prepago.extratoRequisicoes,
    { query: { cnpj, mes: mes ? mesIso(mes) : '', page: pagina.first / pagina.rows + 1, size: pagina.rows } },
    { enabled: pronto && mes !== null, placeholderData: keepPreviousData },
  );
  const c = pronto ? conta.data : undefined;

  // The bookkeeper and the month are the statement's query (no Pesquisar); the balance shows above it.
  const filters = (
    <div className="page-panel">
      <div className="page-grid">
        <div className="page-field">
          <label htmlFor="cc-escriturador">Escriturador</label>
          <EscrituradorSelect
            id="cc-escriturador"
            value={cnpj}
            onChange={(v) => {
              setEscolhido(v);
              setPagina((p) => ({ ...p, first: 0 }));
            }}
            admin={admin}
            escrituradores={escrituradores}
            carregando={carregando}
          />
        </div>
        <div className="page-field">
          <label htmlFor="cc-mes">Mês do Extrato</label>
          <Calendar
            inputId="cc-mes"
            value={mes}
            onChange={(e) => {
              setMes(e.value instanceof Date ? e.value : null);
              setPagina((p) => ({ ...p, first: 0 }));
            }}
            view="month"
            dateFormat="mm/yy"
            maxDate={mesAtualMais(0)}
            showIcon
          />
        </div>
      </div>
    </div>
  );

  const saldo = (
    <section className="page-panel" aria-label="Saldo da conta">
      <dl className="page-grid">
        <div>
          <dt>Valor Contratado</dt>
          <dd data-testid="cc-valor-contratado">{c ? valorContratado(c) : '-'}</dd>
        </div>
        <div>
          <dt>Prazo de Consumo</dt>
          <dd data-testid="cc-prazo">{c?.prazoConsumo ? formatDate(c.prazoConsumo) : '-'}</dd>
        </div>
        <div>
          <dt>Saldo Atual</dt>
          <dd data-testid="cc-saldo">{c ? formatMoney(c.saldoAtual) : '-'}</dd>
        </div>
        <div>
          <dt>Situação</dt>
          <dd data-testid="cc-situacao">{c ? SITUACAO[c.situacao] : '-'}</dd>
        </div>
      </dl>
    </section>
  );

  return (
    <ListPage
      title="Conta Corrente de Requisições"
      filters={filters}
      before={saldo}
      label="Extrato de requisições"
      rows={pronto ? extrato.data?.items : []}
      dataKey="idModuloServico"
      // A client's statement waits for its own company (the bookkeepers' answer): that failure is the list's.
      query={combineQueries(!admin && escrituradoresConsulta, pronto && mes !== null && extrato)}
      paging={{ kind: 'pages', page: pagina.first / pagina.rows + 1, size: pagina.rows, total: extrato.data?.total ?? 0, onPage: (e) => setPagina({ first: e.first, rows: e.rows }) }}
      table={{ footer: pronto && extrato.data ? `Total consumido no mês: ${formatMoney(extrato.data.totalConsumido)}` : undefined }}
    >
      <Column header="Cliente" field="cliente" />
      <Column header="Requisições" body={(l: Linha) => formatQuantidade(l.requisicoes)} />
      <Column header="Serviço" field="servico" />
      <Column header="Valor da Faixa" body={(l: Linha) => formatMilesimos(asMilesimos(l.valorFaixa))} align="right" bodyClassName="list-money" />
      <Column header="Valor Consumido" {...moneyColumn((l: Linha) => l.valorConsumido)} />
    </ListPage>
  );
}
