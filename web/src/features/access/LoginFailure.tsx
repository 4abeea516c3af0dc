import { loginUnavailable } from './loginFlow';

/** The login card's inline failure ('Serviço indisponível'), for the attempts given (see loginUnavailable). */
export function LoginFailure({ errors }: { errors: unknown[] }) {
  const text = errors.map(loginUnavailable).find((m) => m !== null);
  if (!text) return null;
  return (
    <p className="login-failure" role="alert">
      <i className="pi pi-exclamation-triangle" aria-hidden="true" /> {text}
    </p>
  );
}
