import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { useSession } from '../lib/session';
import { RelatorioConsumoBanner } from '../features/consumo/RelatorioConsumoBanner';
import { AppFrame } from './AppFrame';

/**
 * The authenticated area: the frame (AppFrame: side menu and page column) and the page (loaded on
 * its first visit, inside the Suspense). The route loader already sent signed-out visitors to '/';
 * the check here covers the moment between logout clearing the session and its navigation leaving
 * /app, when pages must not render without a user. A consumption report that is being built shows
 * its banner above whatever page the user moved to.
 */
export default function AppLayout() {
  const { user } = useSession();
  if (!user) return null;
  return (
    <AppFrame user={user}>
      <RelatorioConsumoBanner />
      {/* The page's code, on the first visit of a page (routes.tsx appRoute). */}
      <Suspense
        fallback={
          <p className="app-page-loading" role="status">
            Carregando…
          </p>
        }
      >
        <Outlet />
      </Suspense>
    </AppFrame>
  );
}
