import { auth } from '@plac/shared/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { useState } from 'react';
import { ConfirmSimNao } from '../../components/ConfirmSimNao';
import { apiQueryKey, useApiMutation, useApiQuery } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { toast } from '../../lib/toast';

const ACOES = { CADASTRADO: 'Cadastrada', RECUPERACAO_USADA: 'Código de recuperação usado', REDEFINIDO: 'Redefinida' } as const;

/**
 * The user form's 'Verificação em duas etapas' (issue 42): the factor's state and audit, and the
 * administrator's reset for a user who lost the phone (audited; the user's sessions end).
 */
export function SecondFactorAdmin({ userId }: { userId: string }) {
  const queryClient = useQueryClient();
  const input = { params: { id: userId } };
  const situacao = useApiQuery(auth.segundoFatorDoUsuario, input, { notify: false });
  const [confirmar, setConfirmar] = useState<string | null>(null);
  const redefinir = useApiMutation(auth.redefinirSegundoFator, {
    onSuccess: (r) => {
      toast.success(r.message);
      void queryClient.invalidateQueries({ queryKey: apiQueryKey(auth.segundoFatorDoUsuario, input) });
    },
  });
  const s = situacao.data;
  if (!s?.permitido) return null;
  return (
    <section className="user-second-factor" aria-labelledby="usuario-segundo-fator">
      <h2 id="usuario-segundo-fator">Verificação em duas etapas</h2>
      <p role="status">{s.ativo ? `Ativa desde ${formatDateTime(s.ativadoEm)}; códigos de recuperação restantes: ${s.codigosRestantes}.` : 'Desativada.'}</p>
      {s.historico.length > 0 && (
        <ul className="user-second-factor-history" aria-label="Histórico da verificação em duas etapas">
          {s.historico.map((h) => (
            <li key={`${h.em}-${h.acao}`}>
              {formatDateTime(h.em)}: {ACOES[h.acao]} por {h.por}
            </li>
          ))}
        </ul>
      )}
      {s.ativo && (
        <Button type="button" label="Redefinir verificação em duas etapas" icon="pi pi-refresh" severity="danger" outlined loading={redefinir.isPending} onClick={() => setConfirmar(userId)} />
      )}
      <ConfirmSimNao
        target={confirmar}
        danger
        message="Redefinir a verificação em duas etapas deste usuário? Ele entrará só com a senha até cadastrar um novo aplicativo, e as suas sessões serão encerradas."
        onConfirm={(id) => {
          setConfirmar(null);
          redefinir.mutate({ params: { id } });
        }}
        onClose={() => setConfirmar(null)}
      />
    </section>
  );
}
