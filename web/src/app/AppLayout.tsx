import { Outlet } from 'react-router-dom';
import { useSession } from '../lib/session';
import { SideMenu } from './SideMenu';

/**
 * The authenticated area: side menu and page. The route loader already sent signed-out visitors to
 * '/'; the check here covers the moment between logout clearing the session and its navigation
 * leaving /app, when pages must not render without a user.
 */
export default function AppLayout() {
  const { user } = useSession();
  if (!user) return null;
  return (
    <div className="app-body">
      <SideMenu user={user} />
      <main className="app-content" id="conteudo">
        <Outlet />
      </main>
    </div>
  );
}
