import { auth } from '@plac/shared/contracts';
import { MESSAGES } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { CharCounter } from '../../components/CharCounter';
import { AccountField } from '../../components/LoginFields';
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

interface CountedFieldProps {
  id: string;
  label: string;
  /** The API's name of the field. */
  field: string;
  type: 'email' | 'password';
  autoComplete: string;
  /** The most characters it takes, counted under it ('n/max'). */
  max: number;
  value: string;
  onChange: (value: string) => void;
  /** The page's own messages, by field. */
  local: LocalErrors;
  /** The refusal's field messages, which go when their field changes. */
  server: { error: ApiError | null; clear: (field: string) => void };
}

/** A field of the reset form: its counter, the page's and the server's messages, marked while it has any. */
function CountedField({ id, label, field, type, autoComplete, max, value, onChange, local, server }: CountedFieldProps) {
  return (
    <AccountField
      id={id}
      label={label}
      field={field}
      hint={<CharCounter value={value} max={max} id={`${id}-counter`} />}
      help={`${id}-counter`}
      type={type}
      autoComplete={autoComplete}
      value={value}
      maxLength={max}
      onValue={onChange}
      local={local}
      server={server}
    />
  );
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
  const fieldProps = { local, server };

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
          <CountedField id="reset-email" label="E-mail" field="email" type="email" autoComplete="username" max={EMAIL_MAX} value={email} onChange={setEmail} {...fieldProps} />
          <CountedField id="reset-senha" label="Senha" field="password" type="password" autoComplete="new-password" max={PASSWORD_MAX} value={password} onChange={setPassword} {...fieldProps} />
          <CountedField
            id="reset-confirmacao"
            label="Confirmação de senha"
            field="password_confirmation"
            type="password"
            autoComplete="new-password"
            max={PASSWORD_MAX}
            value={confirmation}
            onChange={setConfirmation}
            {...fieldProps}
          />
          <Button type="submit" label="Enviar" icon="pi pi-check" loading={redefinir.isPending} />
        </form>
        <p>
          <Link to="/">Voltar ao início</Link>
        </p>
      </section>
    </main>
  );
}
