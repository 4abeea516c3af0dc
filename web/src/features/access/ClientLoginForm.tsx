import { auth } from '@plac/shared/contracts';
import { useMutation } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { useState, type FormEvent } from 'react';
import { AppDialog } from '../../components/AppDialog';
import { LoginEmailField, LoginPasswordField } from '../../components/LoginFields';
import { callApi, callApiWithStatus, useApiMutation, type ApiError } from '../../lib/api';
import { LoginFailure } from './LoginFailure';
import { certificateLogin, hasErrors, requiredErrors, useFinishLogin, type LocalErrors } from './loginFlow';
import { SecondFactorStep, usePasswordLoginAnswer } from './SecondFactorStep';

/** How the type check ended: the password dialog opened, the certificate login signed in, or a silent 410. */
type Outcome = 'senha' | 'entrou' | 'cancelado';

/**
 * Tab 'Cliente PLAC': the e-mail goes to the type check; 209 signs in with the
 * company's certificate on the mTLS domain, 210 opens the password dialog (allowed only within the
 * period without certificate, which the server enforces).
 */
export function ClientLoginForm() {
  const [email, setEmail] = useState('');
  const [local, setLocal] = useState<LocalErrors>({});
  const [passwordOpen, setPasswordOpen] = useState(false);
  const finish = useFinishLogin();

  const entrar = useMutation<Outcome, ApiError, string>({
    mutationFn: async (value) => {
      const { status, data } = await callApiWithStatus(auth.clientLoginType, { body: { email: value } });
      const tipo = status === 210 ? 'senha' : status === 209 ? 'certificado' : data.tipo;
      if (tipo === 'senha') return 'senha';
      const result = await certificateLogin(() =>
        callApi(auth.loginCertificadoCliente, { body: { email: value }, notify: false }),
      );
      if (!result) return 'cancelado';
      finish(result);
      return 'entrou';
    },
    onSuccess: (outcome) => {
      if (outcome === 'senha') setPasswordOpen(true);
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const errors = requiredErrors({ email: { label: 'E-mail', value: email } });
    setLocal(errors);
    if (hasErrors(errors)) return;
    entrar.mutate(email.trim());
  }

  return (
    <>
      <form className="login-form" onSubmit={submit} noValidate aria-label="Login de cliente">
        <p className="login-hint">
          Informe o seu e-mail. Se o acesso da sua empresa for por certificado digital, o navegador pedirá
          que você escolha o certificado.
        </p>
        <LoginEmailField id="cliente-email" value={email} onValue={setEmail} local={local} error={entrar.error} />
        <Button type="submit" label="Entrar" icon="pi pi-sign-in" loading={entrar.isPending} />
        <LoginFailure errors={[entrar.error]} />
      </form>
      <ClientPasswordDialog email={email.trim()} visible={passwordOpen} onHide={() => setPasswordOpen(false)} />
    </>
  );
}

interface ClientPasswordDialogProps {
  email: string;
  visible: boolean;
  onHide: () => void;
}

/** The password dialog of a client user inside the period without certificate, who may also choose the certificate. */
function ClientPasswordDialog({ email, visible, onHide }: ClientPasswordDialogProps) {
  const [password, setPassword] = useState('');
  const [local, setLocal] = useState<LocalErrors>({});
  const [desafio, setDesafio] = useState<string | null>(null);
  const finish = useFinishLogin();
  const entrar = useApiMutation(auth.loginCliente, { onSuccess: usePasswordLoginAnswer(setDesafio) });
  // Past the period without certificate the server refuses the password (the type check already
  // sends such clients to the certificate; this covers a period that ends while the dialog is open).
  const periodOver = entrar.error?.error === 'prazoSemCertificadoEncerrado';
  const certificado = useMutation<void, ApiError>({
    mutationFn: async () => {
      const result = await certificateLogin(() => callApi(auth.loginCertificadoCliente, { body: { email }, notify: false }));
      if (result) finish(result);
    },
  });

  function close() {
    setPassword('');
    setLocal({});
    setDesafio(null);
    entrar.reset();
    onHide();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const errors = requiredErrors({ password: { label: 'Senha', value: password } });
    setLocal(errors);
    if (hasErrors(errors)) return;
    entrar.mutate({ body: { email, password } });
  }

  return (
    <AppDialog header={desafio ? 'Verificação em duas etapas' : 'Informe sua senha'} visible={visible} onHide={close} style={{ width: 'min(28rem, 95vw)' }}>
      {desafio ? (
        <SecondFactorStep
          desafio={desafio}
          onBack={() => {
            setDesafio(null);
            setPassword('');
          }}
        />
      ) : (
      <form className="login-form" onSubmit={submit} noValidate aria-label="Senha do cliente">
        <p className="login-hint">{email}</p>
        <LoginPasswordField id="cliente-senha" autoFocus value={password} onValue={setPassword} local={local} error={entrar.error} />
        <Button type="submit" label="Entrar" icon="pi pi-sign-in" loading={entrar.isPending} />
        <LoginFailure errors={[entrar.error, certificado.error]} />
        {periodOver && (
          <p className="login-hint" role="alert">
            {entrar.error?.message}
          </p>
        )}
        {/* The certificate is always an option: inside the period too, and the only one past it. */}
        <Button
          type="button"
          label="Entrar com certificado digital"
          icon="pi pi-id-card"
          severity="secondary"
          loading={certificado.isPending}
          onClick={() => certificado.mutate()}
        />
      </form>
      )}
    </AppDialog>
  );
}
