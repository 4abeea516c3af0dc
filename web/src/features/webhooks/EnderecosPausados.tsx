import { webhooks } from '@plac/shared/contracts';
import { Button } from 'primereact/button';
import { message } from '@plac/shared/messages';
import { Message } from 'primereact/message';
import { useCallback, useState } from 'react';
import { useApiMutation, useApiQuery } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { toast } from '../../lib/toast';
import { AndamentoDoJob } from './AndamentoDoJob';

/**
 * The client's paused webhook endpoints (docs/webhooks.md "Pausing a failing endpoint"): each with
 * its operation, URL and since when, and 'Retomar envio', which starts the job that sends the held
 * messages again (the pause stays until the job has queued them all) and follows it to its result.
 * Shown while something is paused or a resume started here is shown.
 */
export function EnderecosPausados({ idCliente, onRetomado }: { idCliente: string | undefined; onRetomado: () => void }) {
  const pausas = useApiQuery(webhooks.pausasWebhook, { query: idCliente ? { idCliente } : {} });
  const [job, setJob] = useState<string | null>(null);
  const retomar = useApiMutation(webhooks.retomarWebhook, {
    onSuccess: (r) => {
      setJob(r.jobId);
      toast.success(message('webhookRetomadaIniciada'));
    },
  });
  const refetchPausas = pausas.refetch;
  const aoConcluir = useCallback(() => {
    void refetchPausas();
    onRetomado();
  }, [refetchPausas, onRetomado]);
  const andamento = job ? <AndamentoDoJob key={job} jobId={job} titulo="Retomada do envio" onConcluido={aoConcluir} /> : null;
  if (!pausas.data?.length) return andamento;
  return (
    <section className="page-panel" aria-label="Envios de webhook pausados">
      {andamento}
      {pausas.data.map((p) => (
        <Message
          key={`${p.clienteId}-${p.operacao}`}
          severity="warn"
          style={{ width: '100%', justifyContent: 'space-between' }}
          content={
            <div style={{ display: 'flex', gap: '1rem', alignItems: 'center', justifyContent: 'space-between', width: '100%', flexWrap: 'wrap' }}>
              <span>
                Envio pausado desde {formatDateTime(p.pausadoEm)}: {p.razaoSocial || p.clienteId}, operação {p.operacao}, {p.url}. As mensagens novas ficam
                retidas até a retomada.
              </span>
              <Button
                type="button"
                label="Retomar envio"
                icon="pi pi-play"
                size="small"
                disabled={retomar.isPending || p.retomando}
                onClick={() => retomar.mutate({ params: { idCliente: p.clienteId, operacao: p.operacao as never } })}
              />
            </div>
          }
        />
      ))}
    </section>
  );
}
