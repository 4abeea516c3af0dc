import { ROLE_LABELS } from '@plac/shared/access';
import { useCurrentUser } from '../../lib/session';

/** The dashboard: a welcome with the user's name. */
export default function DashboardPage() {
  const user = useCurrentUser();
  const profiles = user.roles.map((role) => ROLE_LABELS[role]).join(', ');
  return (
    <>
      <h1 className="app-page-title">Bem-vindo(a), {user.name}</h1>
      {profiles && <p>Perfil: {profiles}</p>}
      <p>Use o menu ao lado para acessar as funcionalidades disponíveis para o seu perfil.</p>
    </>
  );
}
