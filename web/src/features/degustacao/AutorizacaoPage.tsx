import { degustacao } from '@plac/shared/contracts';
import { message, MESSAGES } from '@plac/shared/messages';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useApiMutation, useServerFieldErrors } from '../../lib/api';
import { toast } from '../../lib/toast';
import { TextField } from '../../components/TextField';
import { FormActions, LinkAction } from '../../components/FormActions';
import { FormPage } from '../../components/FormPage';
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
    <FormPage
      title="Autorização para Testes"
      section={{ titleId: 'autorizacao-title' }}
      onSubmit={(e) => void onSubmit(e)}
      footer={
        <FormActions submit={{ label: 'Autorizar', icon: 'pi pi-sign-in' }} loading={autorizar.isPending}>
          <LinkAction to={CADASTRO_PATH} icon="pi pi-user-plus" label="Cadastrar-se para testes" />
        </FormActions>
      }
    >
      <TextField
        layout="cliente"
        id="email"
        label="E-mail"
        required
        error={server.error}
        messages={[required(email, 'E-mail')]}
        type="email"
        maxLength={100}
        autoComplete="email"
        value={email}
        onChange={(e) => {
          server.clear('email');
          setEmail(e.target.value);
        }}
      />
      <TextField
        layout="cliente"
        id="token"
        label="Token"
        required
        error={server.error}
        messages={[required(token, 'Token')]}
        maxLength={64}
        autoComplete="off"
        value={token}
        onChange={(e) => {
          server.clear('token');
          setToken(e.target.value);
        }}
      />
    </FormPage>
  );
}
