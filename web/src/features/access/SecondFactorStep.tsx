import { auth, type ResponseOf } from '@plac/shared/contracts';
import { Button } from 'primereact/button';
import { useState, type FormEvent } from 'react';
import { TextField } from '../../components/TextField';
import { useApiMutation } from '../../lib/api';
import { LoginFailure } from './LoginFailure';
import { hasErrors, requiredErrors, useFinishLogin, type LocalErrors } from './loginFlow';

/** What a password login answers: a session, or the challenge of the second factor (issue 42). */
export type PasswordLoginAnswer = ResponseOf<typeof auth.loginSefaz>;

/**
 * What a password form does with the login's answer: a session is stored (useFinishLogin), a challenge
 * opens the code step (`onChallenge` with its id).
 */
export function usePasswordLoginAnswer(onChallenge: (desafio: string) => void): (answer: PasswordLoginAnswer) => void {
  const finish = useFinishLogin();
  return (answer) => ('segundoFator' in answer ? onChallenge(answer.segundoFator.desafio) : finish(answer));
}

/**
 * The code step of a password login whose user has the second factor active: the authenticator app's
 * six digits (or a recovery code), sent with the challenge the password step answered. A wrong code
 * keeps the step open (five lock it for 15 minutes); an expired challenge sends the user back to the
 * password.
 */
export function SecondFactorStep({ desafio, onBack }: { desafio: string; onBack: () => void }) {
  const [codigo, setCodigo] = useState('');
  const [local, setLocal] = useState<LocalErrors>({});
  const finish = useFinishLogin();
  const verificar = useApiMutation(auth.loginSegundoFator, {
    onSuccess: finish,
    onError: (error) => {
      setCodigo('');
      if (error.error === 'desafioExpirado') onBack();
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const errors = requiredErrors({ codigo: { label: 'Código', value: codigo } });
    setLocal(errors);
    if (hasErrors(errors)) return;
    verificar.mutate({ body: { desafio, codigo: codigo.trim() } });
  }

  return (
    <form className="login-form" onSubmit={submit} noValidate aria-label="Verificação em duas etapas">
      <p className="login-hint" id="segundo-fator-ajuda">
        Informe o código de 6 dígitos do seu aplicativo autenticador. Sem o celular, use um dos seus códigos de recuperação.
      </p>
      <TextField
        id="segundo-fator-codigo"
        label="Código"
        field="codigo"
        error={verificar.error}
        messages={local.codigo}
        help="segundo-fator-ajuda"
        autoComplete="one-time-code"
        inputMode="text"
        autoFocus
        value={codigo}
        maxLength={20}
        onChange={(e) => setCodigo(e.target.value)}
        invalid={Boolean(local.codigo)}
      />
      <Button type="submit" label="Verificar" icon="pi pi-shield" loading={verificar.isPending} />
      <LoginFailure errors={[verificar.error]} />
      <Button type="button" label="Voltar" link className="login-forgot" onClick={onBack} />
    </form>
  );
}
