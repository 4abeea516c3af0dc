import { ROLE_LABELS } from '@plac/shared/access';
import { lazy, Suspense } from 'react';
import { useCurrentUser } from '../../lib/session';

/** The projected bill is its own chunk: only the administrator and client users load it. */
const FaturaProjetadaPainel = lazy(() => import('../faturas/FaturaProjetadaPainel'));

/**
 * The dashboard: a welcome with the user's name and, for the administrator and client users (the
 * roles that see invoices), the projected bill of the month (issue 14 item 6).
 */
export default function DashboardPage() {
  const user = useCurrentUser();
  const profiles = user.roles.map((role) => ROLE_LABELS[role]).join(', ');
  const veFatura = user.roles.includes('sefaz_admin') || user.roles.includes('cliente');
  return (
    <>
      <h1 className="app-page-title">Bem-vindo(a), {user.name}</h1>
      {profiles && <p>Perfil: {profiles}</p>}
      <p>Use o menu ao lado para acessar as funcionalidades disponíveis para o seu perfil.</p>
      {veFatura && (
        <Suspense fallback={null}>
          <FaturaProjetadaPainel />
        </Suspense>
      )}
    </>
  );
}
