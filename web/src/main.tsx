// First: zod must know it runs without eval before any schema is built.
import '@plac/shared/sem-eval';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { flushSync } from 'react-dom';
import { RouterProvider } from 'react-router-dom';
import { BootFrame } from './app/BootFrame';
import { createAppRouter } from './app/router';
import { getSession } from './lib/session';

/**
 * The entry holds only React, the router, the route table with its guards, the session store and the
 * frame (top bar, side menu). Everything else (PrimeReact and its theme, react-query, pages) arrives
 * with the lazily loaded shell.
 */
const root = document.getElementById('root');
if (!root) throw new Error('#root não encontrado em index.html');
const reactRoot = createRoot(root);

/**
 * What the HTML shows (the login page written by the build for '/', the placeholder elsewhere) stays
 * until the first route's code and loaders are in, then React draws the page over it in one commit:
 * no loading screen in between, no second paint of the same text.
 */
function startRouter(emTransicao = false) {
  const router = createAppRouter();
  const tree = (
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>
  );
  // Over the frame (a page of /app), a transition: React renders the router's tree (the shell, the
  // layout, the page) in slices of ~5 ms, not in one task, while the frame stays on screen until it
  // commits. As one task it blocked a phone's input for ~180 ms (Lighthouse's Total Blocking Time,
  // issue 39). Over the HTML's own page (the login), the first render replaces it at once, as before.
  const render = () => (emTransicao ? startTransition(() => reactRoot.render(tree)) : reactRoot.render(tree));
  if (router.state.initialized) render();
  else {
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      render();
    });
  }
}

// A page of /app with a signed-in user (issue 39): the frame (top bar and the user's side menu) is
// drawn from the session and painted first; then the router starts the shell's, the layout's and the
// page's downloads, which would otherwise share the phone's link with nothing yet on screen. The
// router's first render draws the same frame (AppLayout), so nothing moves.
const { user } = getSession();
if (user && window.location.pathname.startsWith('/app')) {
  flushSync(() =>
    reactRoot.render(
      <StrictMode>
        <BootFrame user={user} path={window.location.pathname} />
      </StrictMode>,
    ),
  );
  // The next frame's callback runs before that frame is painted; its timeout, after.
  requestAnimationFrame(() => setTimeout(() => startRouter(true), 0));
} else startRouter();
