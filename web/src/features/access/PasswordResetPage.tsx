import { auth } from '@plac/shared/contracts';
import { MESSAGES } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { CharCounter } from '../../components/CharCounter';
import { FormField } from '../../components/FormField';
import { reportApiError, useApiMutation, useServerFieldErrors, type ApiError } from '../../lib/api';
import { toast } from '../../lib/toast';
import { hasErrors, requiredErrors, type LocalErrors } from './loginFlow';

/** The counters of the reset form: e-mail up to 100 characters, password up to 20. */
export const EMAIL_MAX = 100;
export const PASSWORD_MAX = 20;

/**
 * The password reset '/password/reset/:token', reached from the e-mailed
 * link: e-mail, new password and its confirmation. Success shows the server's message and goes to the
 * login; a refused token shows 'Não foi possível reiniciar sua senha.' (the API's senhaReinicioFalhou).
 */
/**
 * A refused reset as the user sees it: the link's token is not something they typed, so whatever the
 * server says of it (expired, unknown, or the validator's own words about a malformed one) is 'Não foi
 * possível reiniciar sua senha.'; the other fields' messages are shown beside them as usual.
 */
function reportResetError(error: ApiError): void {
  // Token failures of the session were handled by the API client.
  if (error.isTokenError) return;
  if (error.error === 'senhaReinicioFalhou' || (error.fieldErrors?.token?.length ?? 0) > 0) {
    toast.error(MESSAGES.senhaReinicioFalhou);
    return;
  }
  reportApiError(error);
}

export default function PasswordResetPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [local, setLocal] = useState<LocalErrors>({});
  const redefinir = useApiMutation(auth.passwordReset, {
    notify: false,
    onSuccess: (data) => {
      toast.success(data.message);
      void navigate('/', { replace: true });
    },
    onError: reportResetError,
  });
  // A field's server messages go when the field changes.
  const server = useServerFieldErrors(redefinir.error);
  const invalid = (field: string) => Boolean(local[field]) || Boolean(server.error?.fieldErrors?.[field]);

  function submit(event: FormEvent) {
    event.preventDefault();
    const errors = requiredErrors({
      email: { label: 'E-mail', value: email },
      password: { label: 'Senha', value: password },
      password_confirmation: { label: 'Confirmação de senha', value: confirmation },
    });
    if (!errors.password_confirmation && confirmation !== password) {
      errors.password_confirmation = [MESSAGES.senhaConfirmacao];
    }
    setLocal(errors);
    if (hasErrors(errors)) return;
    redefinir.mutate({ body: { email: email.trim(), password, password_confirmation: confirmation, token } });
  }

  return (
    <main className="public-page">
      <section className="login-card reset-card" aria-labelledby="reset-title">
        <h1 id="reset-title">Redefinir senha</h1>
        <form className="login-form" onSubmit={submit} noValidate aria-label="Redefinir senha">
          <FormField
            id="reset-email"
            label="E-mail"
            field="email"
            error={server.error}
            messages={local.email}
            hint={<CharCounter value={email} max={EMAIL_MAX} id="reset-email-counter" />}
          >
            <InputText
              id="reset-email"
              type="email"
              autoComplete="username"
              value={email}
              maxLength={EMAIL_MAX}
              onChange={(e) => {
                server.clear('email');
                setEmail(e.target.value);
              }}
              aria-describedby="reset-email-counter reset-email-error"
              invalid={invalid('email')}
            />
          </FormField>
          <FormField
            id="reset-senha"
            label="Senha"
            field="password"
            error={server.error}
            messages={local.password}
            hint={<CharCounter value={password} max={PASSWORD_MAX} id="reset-senha-counter" />}
          >
            <InputText
              id="reset-senha"
              type="password"
              autoComplete="new-password"
              value={password}
              maxLength={PASSWORD_MAX}
              onChange={(e) => {
                server.clear('password');
                setPassword(e.target.value);
              }}
              aria-describedby="reset-senha-counter reset-senha-error"
              invalid={invalid('password')}
            />
          </FormField>
          <FormField
            id="reset-confirmacao"
            label="Confirmação de senha"
            field="password_confirmation"
            error={server.error}
            messages={local.password_confirmation}
            hint={<CharCounter value={confirmation} max={PASSWORD_MAX} id="reset-confirmacao-counter" />}
          >
            <InputText
              id="reset-confirmacao"
              type="password"
              autoComplete="new-password"
              value={confirmation}
              maxLength={PASSWORD_MAX}
              onChange={(e) => {
                server.clear('password_confirmation');
                setConfirmation(e.target.value);
              }}
              aria-describedby="reset-confirmacao-counter reset-confirmacao-error"
              invalid={invalid('password_confirmation')}
            />
          </FormField>
          <Button type="submit" label="Enviar" icon="pi pi-check" loading={redefinir.isPending} />
        </form>
        <p>
          <Link to="/">Voltar ao início</Link>
        </p>
      </section>
    </main>
  );
}
