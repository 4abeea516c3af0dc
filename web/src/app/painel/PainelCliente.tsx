import { routePath } from '@plac/shared/access';
import { faturamento, prepago } from '@plac/shared/contracts';
import { formatMonth, vencimentoPadraoDae } from '@plac/shared/domain';
import { Column } from 'primereact/column';
import { Link } from 'react-router-dom';
import { ListError, ListTable, moneyColumn } from '../../components/ListPage';
import { useQuery } from '@tanstack/react-query';
import { callApi, useApiQuery, type ApiError } from '../../lib/api';
import { todasAsPaginas } from '../../lib/csv-export';
import { diaIso, mesAtualMais, mesIso } from '../../lib/calendar';
import { formatDate, formatMoney } from '../../lib/format';
import { useCurrentUser } from '../../lib/session';
import { mesDaFatura, type FaturaResumo } from '../../features/faturas/model';

/**
 * The client's home (issue 28 item 6): its open invoices of the last twelve months with their due dates
 * (the DAE's, else the default: the 15th of the month after) and which are overdue, linked to Faturas;
 * and, for a prepaid (IMF) user whose account has a reservation, its balance. The month's projected bill
 * is DashboardPage's. The invoice list of the period filtered to 'Em Aberto' is read page after page to
 * its end (issue 37 item 3: never only the first page), and the amounts are what is still owed (an
 * invoice paid in part owes its balance); the account is one keyed call.
 */

type Aberta = FaturaResumo & { vencimento: string; vencida: boolean };

export function faturasAbertas(faturas: readonly FaturaResumo[], hoje: string): Aberta[] {
  return faturas
    .filter((f) => f.situacao === 'A')
    .map((f) => {
      const vencimento = vencimentoPadraoDae(mesDaFatura(f), f.dae?.dtVencimento);
      return { ...f, vencimento, vencida: vencimento < hoje };
    })
    .sort((a, b) => a.vencimento.localeCompare(b.vencimento));
}

export function PainelFaturasCliente() {
  const hoje = diaIso(new Date());
  const periodo = { dataInicio: mesIso(mesAtualMais(-12)), dataFim: mesIso(mesAtualMais(-1)), situacao: 'A' as const };
  const q = useQuery<FaturaResumo[], ApiError>({
    queryKey: ['painel-faturas-em-aberto', periodo],
    // The query's signal goes to every page's call: leaving the page cancels them (and says nothing).
    queryFn: async ({ signal }) =>
      (await todasAsPaginas((cursor) => callApi(faturamento.listarFaturas, { query: { ...periodo, perPage: 100, ...(cursor ? { cursor } : {}) }, signal }))) ?? [],
  });
  const abertas = faturasAbertas(q.data ?? [], hoje);
  const vencidas = abertas.filter((f) => f.vencida);
  return (
    <section className="page-panel" aria-labelledby="painel-faturas-titulo">
      <h2 id="painel-faturas-titulo">Faturas em aberto</h2>
      {q.isSuccess && (
        <p>
          {abertas.length === 0
            ? 'Nenhuma fatura em aberto nos últimos 12 meses.'
            : `${abertas.length} em aberto, ${vencidas.length} vencida(s), devendo ${formatMoney(abertas.reduce((s, f) => s + f.saldoDevedor, 0))}.`}{' '}
          <Link to={routePath('consultar-fatura')}>Ver todas em Faturas</Link>
        </p>
      )}
      {(q.isError || abertas.length > 0) && (
        <ListTable label="Faturas em aberto" rows={abertas} dataKey="id" query={q} paging={{ kind: 'none' }}>
          <Column header="Mês de referência" body={(f: Aberta) => formatMonth(mesDaFatura(f))} bodyClassName="list-nowrap" />
          <Column header="Valor" {...moneyColumn((f: Aberta) => f.valorTotal)} />
          <Column header="Saldo devedor" {...moneyColumn((f: Aberta) => f.saldoDevedor)} />
          <Column header="Vencimento" body={(f: Aberta) => formatDate(f.vencimento)} bodyClassName="list-nowrap" />
          <Column header="Situação" body={(f: Aberta) => (f.vencida ? 'Vencida' : 'A vencer')} />
        </ListTable>
      )}
    </section>
  );
}

/** The prepaid account's balance, where the client has one (a reservation); nothing otherwise. */
export function PainelSaldoPrepago() {
  const q = useApiQuery(prepago.contaRequisicoes, { query: {} });
  const c = q.data;
  if (q.isError) {
    return (
      <section className="page-panel" aria-labelledby="painel-saldo-titulo">
        <h2 id="painel-saldo-titulo">Pagamento antecipado</h2>
        <ListError error={q.error} onRetry={() => void q.refetch()} />
      </section>
    );
  }
  if (!c || c.situacao === 'SEM_RESERVA') return null;
  return (
    <section className="page-panel" aria-labelledby="painel-saldo-titulo">
      <h2 id="painel-saldo-titulo">Pagamento antecipado</h2>
      {c.situacao === 'AGUARDANDO_PAGAMENTO' ? (
        <p>Reserva de {formatMoney(c.valorReserva ?? 0)} aguardando o pagamento do DAE.</p>
      ) : (
        <p>
          Saldo atual: <strong>{formatMoney(c.saldoAtual)}</strong> de {formatMoney(c.valorContratado)} contratados
          {c.prazoConsumo ? `, para consumo até ${formatDate(c.prazoConsumo)}` : ''}
          {c.situacao === 'ENCERRADA' ? ' (prazo encerrado)' : ''}.
        </p>
      )}
    </section>
  );
}

export function PainelCliente() {
  const user = useCurrentUser();
  return (
    <>
      {user.roles.includes('cliente') && <PainelFaturasCliente />}
      {user.roles.includes('cliente_imf') && <PainelSaldoPrepago />}
    </>
  );
}
