// First: zod must know it runs without eval before any schema is built.
import '@plac/shared/sem-eval';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { createAppRouter } from './app/router';

/**
 * The entry holds only React, the router, the route table with its guards and the session store.
 * Everything else (PrimeReact and its theme, react-query, pages) arrives with the lazily loaded shell.
 */
const root = document.getElementById('root');
if (!root) throw new Error('#root não encontrado em index.html');

const router = createAppRouter();
const render = () =>
  createRoot(root).render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );

// What the HTML shows (the login page written by the build for '/', the placeholder elsewhere) stays
// until the first route's code and loaders are in, then React draws the page over it in one commit:
// no loading screen in between, no second paint of the same text.
if (router.state.initialized) render();
else {
  const stop = router.subscribe((state) => {
    if (!state.initialized) return;
    stop();
    render();
  });
}
