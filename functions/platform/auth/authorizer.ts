import type { APIGatewayRequestAuthorizerEventV2, APIGatewaySimpleAuthorizerWithContextResult } from 'aws-lambda';
import { sessionPrincipal } from './sessao-lida';
import { bearer, verifyToken } from './tokens';

/**
 * HTTP API Lambda request authorizer. It only verifies: it always authorises and passes either the
 * principal or the token failure in the context, because API Gateway cannot shape a denial's body and
 * the web app needs the `token_*` keys. The route's Lambda enforces the contract's access rule.
 */
export interface AuthorizerContext {
  [key: string]: string | number;
  principal: string;
  sid: string;
  tokenError: string;
  issuedAt: number;
  expiresAt: number;
}

export async function handler(
  event: Pick<APIGatewayRequestAuthorizerEventV2, 'headers'>,
): Promise<APIGatewaySimpleAuthorizerWithContextResult<AuthorizerContext>> {
  const token = bearer(event.headers?.authorization ?? event.headers?.Authorization);
  if (!token) return deny('token_absent');
  const verified = await verifyToken(token);
  if (typeof verified === 'string') return deny(verified);
  // A signed token is not enough: its session must still be open (logout, deactivation end it),
  // and the roles are the session's, which follow every change of the user (sessions.ts).
  const principal = await sessionPrincipal(verified.sid, verified.principal.userId);
  if (!principal) return deny('token_invalid');
  return {
    isAuthorized: true,
    context: {
      principal: JSON.stringify(principal),
      sid: verified.sid,
      tokenError: '',
      issuedAt: verified.issuedAt,
      expiresAt: verified.expiresAt,
    },
  };
}

function deny(tokenError: string): APIGatewaySimpleAuthorizerWithContextResult<AuthorizerContext> {
  return { isAuthorized: true, context: { principal: '', sid: '', tokenError, issuedAt: 0, expiresAt: 0 } };
}
