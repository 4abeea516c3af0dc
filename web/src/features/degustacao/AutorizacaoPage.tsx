import { degustacao } from '@plac/shared/contracts';
import { message, MESSAGES } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useApiMutation, useServerFieldErrors } from '../../lib/api';
import { toast } from '../../lib/toast';
import { describedBy, Field } from '../../components/Field';
import { CADASTRO_PATH, CONSULTA_PATH } from './model';
import { setTrialSession } from './session';

/**
 * 'autorizacao' (/degustacao/autorizacao): e-mail + the e-mailed token. Success stores the trial
 * session, says 'Usuário autorizado para testes' and goes to the trial look-up; a failure shows the
 * server's message in a toast (the client's standard error handling).
 */
export default function AutorizacaoPage() {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [token, setToken] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const autorizar = useApiMutation(degustacao.validateTokenTeste);
  const server = useServerFieldErrors(autorizar.error);

  const required = (value: string, label: string) => (submitted && value.trim() === '' ? message('campoObrigatorio', { field: label }) : null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (email.trim() === '' || token.trim() === '') {
      toast.error(MESSAGES.camposObrigatorios);
      return;
    }
    try {
      const answer = await autorizar.mutateAsync({ body: { email: email.trim(), token: token.trim() } });
      setTrialSession(answer.cliente);
      toast.success(answer.message);
      navigate(CONSULTA_PATH, { replace: true });
    } catch {
      // The toast already shows the server's message.
    }
  }

  return (
    <section aria-labelledby="autorizacao-title">
      <h1 id="autorizacao-title" className="app-page-title">
        Autorização para Testes
      </h1>
      <form className="page-panel" onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Autorização para Testes">
        <div className="page-grid">
          <Field id="email" label="E-mail" required error={server.error} messages={[required(email, 'E-mail')]}>
            <InputText
              id="email"
              type="email"
              maxLength={100}
              autoComplete="email"
              value={email}
              onChange={(e) => {
                server.clear('email');
                setEmail(e.target.value);
              }}
              {...describedBy('email', true)}
            />
          </Field>
          <Field id="token" label="Token" required error={server.error} messages={[required(token, 'Token')]}>
            <InputText
              id="token"
              maxLength={64}
              autoComplete="off"
              value={token}
              onChange={(e) => {
                server.clear('token');
                setToken(e.target.value);
              }}
              {...describedBy('token', true)}
            />
          </Field>
        </div>
        <div className="page-actions">
          <Button type="submit" label="Autorizar" icon="pi pi-sign-in" loading={autorizar.isPending} />
          <Link to={CADASTRO_PATH} className="p-button p-button-secondary p-button-outlined">
            <i className="pi pi-user-plus" aria-hidden="true" />
            &nbsp;Cadastrar-se para testes
          </Link>
        </div>
      </form>
    </section>
  );
}
