import { webhooks } from '@plac/shared/contracts';
import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import { useApiMutation, useApiQuery } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { toast } from '../../lib/toast';

/**
 * The client's paused webhook endpoints (docs/webhooks.md "Pausing a failing endpoint"): each with
 * its operation, URL and since when, and 'Retomar envio', which sends the held messages again.
 * Shown only while something is paused.
 */
export function EnderecosPausados({ idCliente, onRetomado }: { idCliente: string | undefined; onRetomado: () => void }) {
  const pausas = useApiQuery(webhooks.pausasWebhook, { query: idCliente ? { idCliente } : {} });
  const retomar = useApiMutation(webhooks.retomarWebhook, {
    onSuccess: (r) => {
      toast.success(r.message);
      void pausas.refetch();
      onRetomado();
    },
  });
  if (!pausas.data?.length) return null;
  return (
    <section className="page-panel" aria-label="Envios de webhook pausados">
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
                disabled={retomar.isPending}
                onClick={() => retomar.mutate({ params: { idCliente: p.clienteId, operacao: p.operacao as never } })}
              />
            </div>
          }
        />
      ))}
    </section>
  );
}
