import { routePath } from '@plac/shared/access';
import { fate, faturamento, rateio } from '@plac/shared/contracts';
import { formatMonth } from '@plac/shared/domain';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ListError, type ListQuery } from '../../components/ListPage';
import { useApiQuery } from '../../lib/api';
import { mesAtualMais, mesIso } from '../../lib/calendar';
import { formatDate, formatDateTime, formatMoney } from '../../lib/format';
import { textoSituacao } from '../../features/rateio/repasse-situacao';

/**
 * The administrator's home (issue 28 item 6): for the month just closed (the one billed and shared now),
 * the billing run's status, the repasse's status; the overdue invoices of the last twelve months (count,
 * total and the oldest due date, GET /api/v1/faturamento-mensal/vencidas); and the loads in alert (the
 * monitoring API's stalled authorities, goods distribution).
 * One keyed call each, through the screens' own APIs; each card shows its own error with a retry, so one
 * failing service does not hide the others.
 */

const SITUACAO_FATURAMENTO = { EM_ANDAMENTO: 'Em andamento', CONCLUIDA: 'Concluído', FALHA: 'Falhou', INTERROMPIDA: 'Interrompido' } as const;

function Cartao({ id, titulo, query, children }: { id: string; titulo: string; query: ListQuery; children: ReactNode }) {
  return (
    <section className="page-panel" aria-labelledby={id}>
      <h2 id={id}>{titulo}</h2>
      {query.isError ? <ListError error={query.error} onRetry={() => void query.refetch()} /> : query.isSuccess ? children : <p>Carregando…</p>}
    </section>
  );
}

export function PainelAdmin() {
  const mes = mesIso(mesAtualMais(-1));
  const execucoes = useApiQuery(faturamento.execucoesFaturamento, { query: { mes } });
  const repasse = useApiQuery(rateio.situacaoRepasse, { query: { mes } });
  const vencidas = useApiQuery(faturamento.faturasVencidas, {});
  const monitor = useApiQuery(fate.monitoramento, { query: { fluxo: 'nfe' } });

  // The newest run of the month (the API lists them newest first).
  const ultima = [...(execucoes.data ?? [])].sort((a, b) => b.iniciadaEm.localeCompare(a.iniciadaEm))[0];
  const alerta = monitor.data?.interrompidas;
  const emAlerta = alerta ? [...alerta.mais24h.map((s) => `${s} (mais de 24 h)`), ...alerta.mais12h.map((s) => `${s} (mais de 12 h)`), ...alerta.mais3h.map((s) => `${s} (mais de 3 h)`)] : [];

  return (
    <div className="page-grid">
      <Cartao id="painel-faturamento" titulo={`Faturamento de ${formatMonth(mes)}`} query={execucoes}>
        <p>
          {ultima
            ? `${SITUACAO_FATURAMENTO[ultima.situacao]} — iniciado em ${formatDateTime(ultima.iniciadaEm)}${ultima.concluidaEm ? `, concluído em ${formatDateTime(ultima.concluidaEm)}` : ''}; ${ultima.emitidas + ultima.jaEmitidas} fatura(s) emitida(s), ${ultima.falhas.length} falha(s).`
            : 'Não executado.'}{' '}
          <Link to={routePath('faturamento-mensal')}>Faturamento Mensal</Link>
        </p>
      </Cartao>
      <Cartao id="painel-vencidas" titulo="Faturas vencidas" query={vencidas}>
        <p>
          {!vencidas.data || vencidas.data.quantidade === 0
            ? 'Nenhuma fatura vencida nos últimos 12 meses'
            : `${vencidas.data.quantidade} fatura(s) vencida(s), somando ${formatMoney(vencidas.data.total)}` +
              (vencidas.data.vencimentoMaisAntigo ? `; a mais antiga venceu em ${formatDate(vencidas.data.vencimentoMaisAntigo)}` : '')}
          .{' '}
          <Link to={routePath('consultar-fatura')}>Faturas</Link>
        </p>
      </Cartao>
      <Cartao id="painel-repasse" titulo={`Repasse de ${formatMonth(mes)}`} query={repasse}>
        <p>
          Simulação: {textoSituacao('SIMULACAO', repasse.data?.simulacao, null)}. Repasse definitivo: {textoSituacao('DEFINITIVO', repasse.data?.definitivo, null)}.{' '}
          <Link to={routePath('consulta-pagamento-servico')}>Pagamento de Serviços</Link>
        </p>
      </Cartao>
      <Cartao id="painel-cargas" titulo="Cargas em alerta" query={monitor}>
        <p>
          {emAlerta.length === 0 ? 'Nenhuma carga interrompida.' : `Interrompidas: ${emAlerta.join(', ')}.`} <Link to={routePath('consultar-processamento')}>Consultar Processamento</Link>
        </p>
      </Cartao>
    </div>
  );
}
