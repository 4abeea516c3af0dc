import { useQueryClient } from '@tanstack/react-query';
import { clientes } from '@plac/shared/contracts';
import { formatDateTime } from '@plac/shared/domain';
import { Button } from 'primereact/button';
import { useState } from 'react';
import { AppDialog } from '../../components/AppDialog';
import { ConfirmSimNao } from '../../components/ConfirmSimNao';
import { apiQueryKey, useApiMutation, useApiQuery } from '../../lib/api';
import { useRegisterDialog } from '../../lib/dialogs';

/**
 * The webhook signing secret of the client (docs/webhooks.md): when it was made and by whom, and a new
 * one on demand — shown once, in a dialog, then never again; the previous one stops at once.
 */

/** ours: the product has no signing secret, so no texts for it. */
export const SEGREDO_TEXTOS = {
  titulo: 'Assinatura das entregas',
  explicacao:
    'Cada entrega traz o cabeçalho x-plac-signature: HMAC-SHA256 de "<x-plac-timestamp>.<corpo>" com o segredo do cliente. ' +
    'Verifique-o no seu sistema e recuse entregas com mais de 5 minutos.',
  nenhum: 'Nenhum segredo gerado: as entregas não são assinadas.',
  gerar: 'Gerar novo segredo',
  confirmar: 'Gerar um novo segredo? O segredo atual deixa de valer imediatamente.',
  aviso: 'Guarde este segredo agora: ele não será mostrado novamente.',
};

export function SegredoWebhook({ cnpj }: { cnpj: string }) {
  const queryClient = useQueryClient();
  const info = useApiQuery(clientes.segredoWebhook, { params: { cnpj } });
  const gerar = useApiMutation(clientes.gerarSegredoWebhook);
  const [confirmar, setConfirmar] = useState<true | null>(null);
  const [novo, setNovo] = useState<string | null>(null);
  useRegisterDialog(confirmar !== null, () => setConfirmar(null));

  async function gerarNovo() {
    setConfirmar(null);
    try {
      const answer = await gerar.mutateAsync({ params: { cnpj } });
      setNovo(answer.segredo);
      await queryClient.invalidateQueries({ queryKey: apiQueryKey(clientes.segredoWebhook) });
    } catch {
      // The standard error toast says why.
    }
  }

  const criado = info.data?.criadoEm;
  return (
    <div className="segredo-webhook">
      <h3>{SEGREDO_TEXTOS.titulo}</h3>
      <p>{SEGREDO_TEXTOS.explicacao}</p>
      <p role="status">
        {criado ? `Segredo gerado em ${formatDateTime(criado)}${info.data?.criadoPor ? ` por ${info.data.criadoPor}` : ''}.` : SEGREDO_TEXTOS.nenhum}
      </p>
      <Button type="button" label={SEGREDO_TEXTOS.gerar} icon="pi pi-key" outlined loading={gerar.isPending} onClick={() => setConfirmar(true)} />
      <ConfirmSimNao target={confirmar} message={SEGREDO_TEXTOS.confirmar} onConfirm={() => void gerarNovo()} onClose={() => setConfirmar(null)} />
      <AppDialog header="Novo segredo de assinatura" visible={novo !== null} onHide={() => setNovo(null)} style={{ maxWidth: '500px' }}>
        <p>{SEGREDO_TEXTOS.aviso}</p>
        <code aria-label="Segredo de assinatura" style={{ wordBreak: 'break-all' }}>
          {novo}
        </code>
      </AppDialog>
    </div>
  );
}
