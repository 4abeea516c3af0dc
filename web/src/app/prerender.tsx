import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { LoginLayout } from '../features/access/LoginPage';
import { TopBar } from './TopBar';

/**
 * The login page as the build writes it into the HTML of '/' (prerenderPlugin.ts): the top bar of a
 * signed-out visitor and the page's frame with its text, the login card holding a placeholder until
 * the scripts have loaded. React then renders the real page over it in one commit (main.tsx waits for
 * the route's code, so no loading screen comes in between).
 */
export function loginMarkup(): string {
  return renderToStaticMarkup(
    <MemoryRouter>
      <TopBar />
      <LoginLayout>
        <p className="boot-card" role="status">
          Carregando…
        </p>
      </LoginLayout>
    </MemoryRouter>,
  );
}
