import '../../components/page-layout.css';
import { IDLE_QUERY, ListPage } from '../../components/ListPage';
import './faturas.css';
import { routePath } from '@plac/shared/access';
import { faturamento } from '@plac/shared/contracts';
import { formatMonth } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { Calendar } from 'primereact/calendar';
import { Column } from 'primereact/column';
import { ProgressBar } from 'primereact/progressbar';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ConfirmSimNao } from '../../components/ConfirmSimNao';
import { useApiMutation, useApiQuery } from '../../lib/api';
import { mesAtualMais, mesIso } from '../../lib/calendar';
import { formatDateTime } from '../../lib/format';
import { toast } from '../../lib/toast';

/**
 * faturamento-mensal (sefaz_admin; issue 14 item 1, docs/faturamento.md): the billing runs of a closed
 * month (at most the previous month, the default) with their progress, refreshed every 2 seconds while
 * one is going, and the start of a run after a confirmation that it may take a few minutes. Re-running
 * a month issues only the invoices still missing.
 */

type Execucao = faturamento.ExecucaoFaturamento;

const SITUACAO: Record<Execucao['situacao'], string> = {
  EM_ANDAMENTO: 'Em andamento',
  CONCLUIDA: 'Concluída',
  FALHA: 'Falha',
  INTERROMPIDA: 'Interrompida',
};
const ORIGEM: Record<Execucao['origem'], string> = { agendamento: 'Agendamento', admin: 'Administrador' };
/** ours: the spec words long-running confirmations as "may take a few minutes". */
const CONFIRMACAO = (mes: string) => `O faturamento do mês ${formatMonth(mes)} pode levar alguns minutos. Deseja continuar?`;
/** ours: a month with a concluded run is billed; running it again issues only the invoices still missing. */
const CONFIRMACAO_FATURADO = (mes: string) =>
  `O mês ${formatMonth(mes)} já foi faturado. Uma nova execução emitirá apenas as faturas que ainda faltam e pode levar alguns minutos. Deseja continuar?`;
const POLL_MS = 2_000;

function Progresso({ e }: { e: Execucao }) {
  if (e.totalClientes === null) return <span>Listando clientes…</span>;
  const pct = e.totalClientes === 0 ? 100 : Math.round((e.feitos / e.totalClientes) * 100);
  const texto = `${e.feitos} de ${e.totalClientes} clientes`;
  return (
    <div className="faturamento-progresso">
      <ProgressBar value={pct} showValue={false} style={{ height: '0.6rem' }} aria-label={`Progresso: ${texto}`} />
      <span>{texto}</span>
    </div>
  );
}

function Falhas({ e }: { e: Execucao }) {
  if (e.falhas.length === 0) return <>0</>;
  return (
    <details>
      <summary>{e.falhas.length}</summary>
      <ul>
        {e.falhas.map((f) => (
          <li key={f.clienteId}>
            {f.clienteId}: {f.erro}
          </li>
        ))}
      </ul>
    </details>
  );
}

export default function FaturamentoMensalPage() {
  const [mes, setMes] = useState<Date | null>(() => mesAtualMais(-1));
  const [confirmar, setConfirmar] = useState<string | null>(null);
  const mesEscolhido = mes ? mesIso(mes) : null;
  const execucoes = useApiQuery(
    faturamento.execucoesFaturamento,
    { query: { mes: mesEscolhido ?? '' } },
    {
      enabled: mesEscolhido !== null,
      // Live progress: poll while a run of the month is going.
      refetchInterval: (q) => (q.state.data?.some((e) => e.situacao === 'EM_ANDAMENTO') ? POLL_MS : false),
    },
  );
  const iniciar = useApiMutation(faturamento.iniciarFaturamento, {
    onSuccess: (e) => {
      toast.success(message('faturamentoIniciado', { mes: formatMonth(e.mes) }));
      void execucoes.refetch();
    },
  });
  const emAndamento = execucoes.data?.some((e) => e.situacao === 'EM_ANDAMENTO') ?? false;
  const faturado = execucoes.data?.some((e) => e.situacao === 'CONCLUIDA') ?? false;

  // The month picked is the list's query (no Pesquisar); the panel also starts the month's run.
  const filters = (
    <div className="page-panel">
      <div className="page-grid">
        <div className="page-field">
          <label htmlFor="faturamento-mes">Mês de Referência</label>
          <Calendar inputId="faturamento-mes" value={mes} onChange={(e) => setMes(e.value instanceof Date ? e.value : null)} view="month" dateFormat="mm/yy" maxDate={mesAtualMais(-1)} showIcon />
        </div>
      </div>
      <div className="page-actions">
        <Button
          type="button"
          label="Iniciar Faturamento"
          icon="pi pi-play"
          disabled={!mesEscolhido || emAndamento || iniciar.isPending}
          onClick={() => {
            if (!mesEscolhido) toast.warn(message('campoObrigatorio', { field: 'Mês de Referência' }));
            else setConfirmar(mesEscolhido);
          }}
        />
      </div>
    </div>
  );

  return (
    <>
      <ListPage
        title="Faturamento Mensal"
        filters={filters}
        label="Execuções do faturamento"
        rows={mesEscolhido !== null ? execucoes.data : []}
        dataKey="execucaoId"
        // Polled while a run is going: the spinner only until the first answer, not on every poll.
        query={mesEscolhido !== null ? { ...execucoes, isFetching: execucoes.isPending && execucoes.isFetching } : IDLE_QUERY}
        paging={{ kind: 'none' }}
      >
        <Column header="Início" body={(e: Execucao) => formatDateTime(e.iniciadaEm)} />
        <Column header="Origem" body={(e: Execucao) => `${ORIGEM[e.origem]} (${e.iniciadaPor})`} />
        <Column header="Situação" body={(e: Execucao) => (e.erro ? `${SITUACAO[e.situacao]}: ${e.erro}` : SITUACAO[e.situacao])} />
        <Column header="Progresso" body={(e: Execucao) => <Progresso e={e} />} style={{ minWidth: '8rem' }} />
        <Column header="Emitidas" field="emitidas" />
        <Column header="Já emitidas" field="jaEmitidas" />
        <Column header="Sem fatura" field="semFatura" />
        <Column header="Em avaliação" field="emAvaliacao" />
        <Column header="Falhas" body={(e: Execucao) => <Falhas e={e} />} />
        <Column header="Conclusão" body={(e: Execucao) => formatDateTime(e.concluidaEm)} />
        <Column
          header="Faturas"
          body={(e: Execucao) =>
            // A finished run links to the month's invoices (the Faturas list filtered by that month).
            e.situacao === 'EM_ANDAMENTO' ? null : (
              <Link to={`${routePath('consultar-fatura')}?mes=${e.mes}`} aria-label={`Ver faturas de ${formatMonth(e.mes)}`}>
                Ver faturas
              </Link>
            )
          }
        />
      </ListPage>

      <ConfirmSimNao
        target={confirmar}
        message={confirmar ? (faturado ? CONFIRMACAO_FATURADO(confirmar) : CONFIRMACAO(confirmar)) : ''}
        onConfirm={(m) => {
          setConfirmar(null);
          iniciar.mutate({ body: { mes: m } });
        }}
        onClose={() => setConfirmar(null)}
      />
    </>
  );
}
