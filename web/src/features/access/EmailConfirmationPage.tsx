import { users } from '@plac/shared/contracts';
import { Button } from 'primereact/button';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useApiMutation } from '../../lib/api';
import { resetSession } from '../../lib/session';
import { toast } from '../../lib/toast';

/**
 * The link of the e-mail-change confirmation '/perfil/confirmar-email/:token'. The change happens on
 * the button, not on opening the page, so that a mail scanner following the link changes nothing.
 * A confirmed change ends every session of the user (the API closes them): the local one is cleared
 * and the user goes to the login, to enter with the new e-mail.
 */
export default function EmailConfirmationPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const confirmar = useApiMutation(users.confirmEmail, {
    onSuccess: (data) => {
      resetSession();
      toast.success(data.message);
      void navigate('/', { replace: true });
    },
  });

  return (
    <main className="public-page">
      <section className="login-card reset-card" aria-labelledby="email-confirmacao-title">
        <h1 id="email-confirmacao-title">Confirmar novo e-mail</h1>
        <p>Confirme para que este endereço passe a ser o seu e-mail de acesso à PLAC Fat-e. Depois, entre novamente com o novo e-mail.</p>
        <Button
          type="button"
          label="Confirmar novo e-mail"
          icon="pi pi-check"
          loading={confirmar.isPending}
          onClick={() => confirmar.mutate({ body: { token } })}
        />
        <p>
          <Link to="/">Voltar ao início</Link>
        </p>
      </section>
    </main>
  );
}
