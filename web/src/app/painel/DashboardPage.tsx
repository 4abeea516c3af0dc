import { ROLE_LABELS } from '@plac/shared/access';
import { lazy, Suspense } from 'react';
import { useCurrentUser } from '../../lib/session';
import { PainelAdmin } from './PainelAdmin';
import { PainelCliente } from './PainelCliente';

/** The projected bill is its own chunk: only the administrator and client users load it. */
const FaturaProjetadaPainel = lazy(() => import('../../features/faturas/FaturaProjetadaPainel'));

/**
 * The dashboard: a welcome with the user's name; for the administrator the month's billing run, the
 * overdue invoices, the repasse and the loads in alert (PainelAdmin); for a client its open and overdue
 * invoices and its prepaid balance where it has one (PainelCliente); for both the projected bill of the
 * month (issue 14 item 6, issue 28 item 6).
 */
export default function DashboardPage() {
  const user = useCurrentUser();
  const profiles = user.roles.map((role) => ROLE_LABELS[role]).join(', ');
  const admin = user.roles.includes('sefaz_admin');
  const veFatura = admin || user.roles.includes('cliente');
  return (
    <>
      <h1 className="app-page-title">Bem-vindo(a), {user.name}</h1>
      {profiles && <p>Perfil: {profiles}</p>}
      <p>Use o menu ao lado para acessar as funcionalidades disponíveis para o seu perfil.</p>
      {admin ? <PainelAdmin /> : <PainelCliente />}
      {veFatura && (
        <Suspense fallback={null}>
          <FaturaProjetadaPainel />
        </Suspense>
      )}
    </>
  );
}
