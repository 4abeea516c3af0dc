import { auth, type ResponseOf } from '@plac/shared/contracts';
import { MESSAGES } from '@plac/shared/messages';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { useState, type FormEvent } from 'react';
import { AppDialog } from '../../components/AppDialog';
import { LoginPasswordField } from '../../components/LoginFields';
import { TextField } from '../../components/TextField';
import { apiQueryKey, useApiMutation, useApiQuery } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { updateUser, useCurrentUser } from '../../lib/session';
import { toast } from '../../lib/toast';
import { hasErrors, requiredErrors, type LocalErrors } from './loginFlow';

type Enrolment = ResponseOf<typeof auth.iniciarSegundoFator>;

/**
 * The profile's 'Verificação em duas etapas' (issue 42), for users who log in with a password: whether
 * it is active, and the enrolment (a new phone included) in a dialog of three steps: the current
 * password; the QR code (or the secret to type) and the app's first code; the ten recovery codes,
 * shown this once.
 */
export function SecondFactorPanel() {
  const situacao = useApiQuery(auth.segundoFator, {}, { notify: false });
  const obrigatorio = useCurrentUser().segundoFatorObrigatorio === true;
  const [open, setOpen] = useState(false);
  const s = situacao.data;
  if (!s?.permitido) return null;
  return (
    <section className="profile-second-factor" aria-labelledby="segundo-fator-titulo">
      <h2 id="segundo-fator-titulo">Verificação em duas etapas</h2>
      {obrigatorio && (
        <p className="profile-second-factor-required" role="alert">
          {MESSAGES.segundoFatorObrigatorio}
        </p>
      )}
      {s.ativo ? (
        <p role="status">
          Ativa desde {formatDateTime(s.ativadoEm)}. Ao entrar com a senha, o código do aplicativo autenticador é pedido. Códigos de recuperação
          restantes: {s.codigosRestantes}.
        </p>
      ) : (
        <p role="status">Desativada. Com ela, além da senha, o acesso pede um código do aplicativo autenticador do seu celular.</p>
      )}
      <Button type="button" label={s.ativo ? 'Cadastrar outro aplicativo' : 'Ativar verificação em duas etapas'} icon="pi pi-shield" outlined onClick={() => setOpen(true)} />
      {open && <EnrolmentDialog onClose={() => setOpen(false)} />}
    </section>
  );
}

/** The one button that ends a step of the enrolment: it submits the step's form unless it has its own `onClick`. */
function StepAction({ label, icon, loading, onClick }: { label: string; icon: string; loading?: boolean; onClick?: () => void }) {
  return (
    <div className="form-actions">
      <Button type={onClick ? 'button' : 'submit'} label={label} icon={icon} loading={loading ?? false} onClick={onClick} />
    </div>
  );
}

function EnrolmentDialog({ onClose }: { onClose: () => void }) {
  const queryClient = useQueryClient();
  const user = useCurrentUser();
  const [senha, setSenha] = useState('');
  const [codigo, setCodigo] = useState('');
  const [local, setLocal] = useState<LocalErrors>({});
  const [cadastro, setCadastro] = useState<Enrolment | null>(null);
  const [recuperacao, setRecuperacao] = useState<string[] | null>(null);
  const iniciar = useApiMutation(auth.iniciarSegundoFator, { onSuccess: setCadastro });
  const confirmar = useApiMutation(auth.confirmarSegundoFator, {
    onSuccess: (r) => {
      toast.success(r.message);
      setRecuperacao(r.codigosRecuperacao);
      // The session reaches the whole portal now (the server rewrote it).
      if (user.segundoFatorObrigatorio) updateUser({ ...user, segundoFatorObrigatorio: false });
      void queryClient.invalidateQueries({ queryKey: apiQueryKey(auth.segundoFator) });
    },
    onError: () => setCodigo(''),
  });

  function enviarSenha(event: FormEvent) {
    event.preventDefault();
    const errors = requiredErrors({ senha: { label: 'Senha atual', value: senha } });
    setLocal(errors);
    if (!hasErrors(errors)) iniciar.mutate({ body: { senha } });
  }

  function enviarCodigo(event: FormEvent) {
    event.preventDefault();
    const errors = requiredErrors({ codigo: { label: 'Código', value: codigo } });
    setLocal(errors);
    if (!hasErrors(errors)) confirmar.mutate({ body: { codigo: codigo.trim() } });
  }

  return (
    <AppDialog header="Verificação em duas etapas" visible onHide={onClose} style={{ width: 'min(32rem, 95vw)' }}>
      {recuperacao ? (
        <div className="second-factor-step">
          <p>
            Guarde estes códigos de recuperação em lugar seguro. Cada um permite entrar uma única vez sem o celular, e eles não serão mostrados
            novamente.
          </p>
          <ol className="recovery-codes" aria-label="Códigos de recuperação">
            {recuperacao.map((c) => (
              <li key={c}>
                <code>{c}</code>
              </li>
            ))}
          </ol>
          <StepAction label="Concluir" icon="pi pi-check" onClick={onClose} />
        </div>
      ) : cadastro ? (
        <form className="second-factor-step" onSubmit={enviarCodigo} noValidate aria-label="Confirmar aplicativo">
          <p id="segundo-fator-qr-ajuda">
            Leia o QR code com o aplicativo autenticador (Google Authenticator, Microsoft Authenticator, FreeOTP…) ou digite a chave abaixo; depois
            informe o código de 6 dígitos que ele mostrar.
          </p>
          <img className="second-factor-qr" src={cadastro.qrCode} alt="QR code da verificação em duas etapas" width={200} height={200} />
          <p>
            Chave: <code data-testid="segundo-fator-segredo">{cadastro.segredo}</code>
          </p>
          <TextField
            id="segundo-fator-confirmacao"
            label="Código"
            field="codigo"
            error={confirmar.error}
            messages={local.codigo}
            help="segundo-fator-qr-ajuda"
            autoComplete="one-time-code"
            inputMode="numeric"
            value={codigo}
            maxLength={20}
            onChange={(e) => setCodigo(e.target.value)}
            invalid={Boolean(local.codigo) || Boolean(confirmar.error?.fieldErrors?.codigo)}
          />
          <StepAction label="Ativar" icon="pi pi-shield" loading={confirmar.isPending} />
        </form>
      ) : (
        <form className="second-factor-step" onSubmit={enviarSenha} noValidate aria-label="Confirmar senha">
          <p>Para cadastrar o aplicativo autenticador, confirme a sua senha.</p>
          <LoginPasswordField
            id="segundo-fator-senha"
            label="Senha atual"
            field="senha"
            autoFocus
            value={senha}
            onValue={setSenha}
            local={local}
            error={iniciar.error}
          />
          <StepAction label="Continuar" icon="pi pi-arrow-right" loading={iniciar.isPending} />
        </form>
      )}
    </AppDialog>
  );
}
