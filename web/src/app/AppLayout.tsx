import { Outlet } from 'react-router-dom';
import { useSession } from '../lib/session';
import { RelatorioConsumoBanner } from '../features/consumo/RelatorioConsumoBanner';
import { SideMenu } from './SideMenu';

/**
 * The authenticated area: side menu and page. The route loader already sent signed-out visitors to
 * '/'; the check here covers the moment between logout clearing the session and its navigation
 * leaving /app, when pages must not render without a user. A consumption report that is being built
 * shows its banner above whatever page the user moved to.
 */
export default function AppLayout() {
  const { user } = useSession();
  if (!user) return null;
  return (
    <div className="app-body">
      <SideMenu user={user} />
      <main className="app-content" id="conteudo">
        <RelatorioConsumoBanner />
        <Outlet />
      </main>
    </div>
  );
}
