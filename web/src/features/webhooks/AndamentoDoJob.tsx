import { webhooks } from '@plac/shared/contracts';
import { Message } from 'primereact/message';
import { useEffect, useRef } from 'react';
import { useApiQuery } from '../../lib/api';

/** How often a running job is asked for its progress. */
const POLL_MS = 1_000;

/**
 * A resume or replay-all job (docs/webhooks.md "Resume and replay-all jobs"): the request only starts
 * it (202), so the screen follows it here: polled while it runs, with how many deliveries were queued
 * so far, then its result; `onConcluido` once it ends (the lists change then).
 */
export function AndamentoDoJob({ jobId, titulo, onConcluido }: { jobId: string; titulo: string; onConcluido: () => void }) {
  const job = useApiQuery(webhooks.jobWebhook, { params: { jobId } }, {
    notify: false,
    refetchInterval: (q) => (q.state.data?.situacao === 'CONCLUIDO' ? false : POLL_MS),
  });
  const concluido = job.data?.situacao === 'CONCLUIDO';
  // Once per job, whatever the parent passes on each render (its callback may be a new function).
  const avisado = useRef(false);
  const aviso = useRef(onConcluido);
  useEffect(() => {
    aviso.current = onConcluido;
  });
  useEffect(() => {
    if (concluido && !avisado.current) {
      avisado.current = true;
      aviso.current();
    }
  }, [concluido]);
  if (!job.data) return null;
  return (
    <div role="status" aria-label={titulo}>
      <Message
        severity={concluido ? 'success' : 'info'}
        style={{ width: '100%', justifyContent: 'flex-start' }}
        text={concluido ? job.data.message : `${titulo} em andamento: ${job.data.message}`}
      />
    </div>
  );
}
