import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { SHELL_MESSAGES } from '@plac/shared/shell-messages';

/**
 * Last resort for a page that throws, or a chunk that no longer exists after a deploy: a pt-BR message
 * and a full reload of the start page (which fetches the new chunks), instead of React Router's English
 * developer screen.
 */
export function RouteError() {
  const error = useRouteError();
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <main className="boot" role="alert" style={{ flexDirection: 'column', gap: '1rem' }}>
      <p>{SHELL_MESSAGES.erroInterno}</p>
      <a href="/">Voltar ao início</a>
    </main>
  );
}
