import { auth } from '@plac/shared/contracts';
import { Button } from 'primereact/button';
import { useState, type FormEvent } from 'react';
import { LoginEmailField, LoginPasswordField } from '../../components/LoginFields';
import { useApiMutation } from '../../lib/api';
import { ForgotPasswordDialog } from './ForgotPasswordDialog';
import { LoginFailure } from './LoginFailure';
import { hasErrors, requiredErrors, type LocalErrors } from './loginFlow';
import { SecondFactorStep, usePasswordLoginAnswer } from './SecondFactorStep';

/** Tab 'Sefaz': e-mail and password, plus the forgot-password dialog; then the code step for a user with the second factor. */
export function SefazLoginForm() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [local, setLocal] = useState<LocalErrors>({});
  const [forgotOpen, setForgotOpen] = useState(false);
  // A new key on every opening restarts the dialog with the e-mail typed here.
  const [forgotKey, setForgotKey] = useState(0);
  const [desafio, setDesafio] = useState<string | null>(null);
  const entrar = useApiMutation(auth.loginSefaz, { onSuccess: usePasswordLoginAnswer(setDesafio) });

  function openForgot() {
    setForgotKey((key) => key + 1);
    setForgotOpen(true);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const errors = requiredErrors({
      email: { label: 'E-mail', value: email },
      password: { label: 'Senha', value: password },
    });
    setLocal(errors);
    if (hasErrors(errors)) return;
    entrar.mutate({ body: { email: email.trim(), password } });
  }

  if (desafio) {
    return (
      <SecondFactorStep
        desafio={desafio}
        onBack={() => {
          setDesafio(null);
          setPassword('');
        }}
      />
    );
  }

  return (
    <>
      <form className="login-form" onSubmit={submit} noValidate aria-label="Login Sefaz">
        <LoginEmailField id="sefaz-email" value={email} onValue={setEmail} local={local} error={entrar.error} />
        <LoginPasswordField id="sefaz-senha" value={password} onValue={setPassword} local={local} error={entrar.error} />
        <Button type="submit" label="Entrar" icon="pi pi-sign-in" loading={entrar.isPending} />
        <LoginFailure errors={[entrar.error]} />
        <Button type="button" label="Esqueci minha senha" link className="login-forgot" onClick={openForgot} />
      </form>
      <ForgotPasswordDialog key={forgotKey} initialEmail={email.trim()} visible={forgotOpen} onHide={() => setForgotOpen(false)} />
    </>
  );
}
