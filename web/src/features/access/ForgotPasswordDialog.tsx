import { auth } from '@plac/shared/contracts';
import { Button } from 'primereact/button';
import { useState, type FormEvent } from 'react';
import { AppDialog } from '../../components/AppDialog';
import { LoginEmailField } from '../../components/LoginFields';
import { useApiMutation } from '../../lib/api';
import { toast } from '../../lib/toast';
import { hasErrors, requiredErrors, type LocalErrors } from './loginFlow';

/**
 * Ours: the product's text gives the success message 'with a note to retry if it has not arrived in
 * 10 minutes' without the note's wording.
 */
export const RETRY_NOTE = 'Caso não o receba em 10 minutos, tente novamente.';

/** The server's success message with the retry note (unless the server already wrote one). */
export function withRetryNote(serverMessage: string): string {
  return /10 minutos/.test(serverMessage) ? serverMessage : `${serverMessage}\n${RETRY_NOTE}`;
}

interface ForgotPasswordDialogProps {
  /** What the login form's e-mail field held when the dialog opened (remount with a new key to refill). */
  initialEmail: string;
  visible: boolean;
  onHide: () => void;
}

/** Asks for the password-reset link by e-mail. */
export function ForgotPasswordDialog({ initialEmail, visible, onHide }: ForgotPasswordDialogProps) {
  const [email, setEmail] = useState(initialEmail);
  const [local, setLocal] = useState<LocalErrors>({});
  const enviar = useApiMutation(auth.passwordEmail, {
    onSuccess: (data) => {
      toast.success(withRetryNote(data.message));
      close();
    },
  });

  function close() {
    setLocal({});
    enviar.reset();
    onHide();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const errors = requiredErrors({ email: { label: 'E-mail', value: email } });
    setLocal(errors);
    if (hasErrors(errors)) return;
    enviar.mutate({ body: { email: email.trim() } });
  }

  return (
    <AppDialog
      header="Esqueci minha senha"
      visible={visible}
      onHide={close}
      style={{ width: 'min(30rem, 95vw)' }}
    >
      <form className="login-form" onSubmit={submit} noValidate aria-label="Redefinição de senha">
        <p className="login-hint">Informe o seu e-mail para receber o link de redefinição de senha.</p>
        <LoginEmailField id="esqueci-email" autoFocus value={email} onValue={setEmail} local={local} error={enviar.error} />
        <Button type="submit" label="Enviar" icon="pi pi-send" loading={enviar.isPending} />
      </form>
    </AppDialog>
  );
}
