import type { APIGatewayRequestAuthorizerEventV2, APIGatewaySimpleAuthorizerWithContextResult } from 'aws-lambda';
import { bearer, verifyToken } from './tokens';

/**
 * HTTP API Lambda request authorizer. It only verifies: it always authorises and passes either the
 * principal or the token failure in the context, because API Gateway cannot shape a denial's body and
 * the web app needs the `token_*` keys. The route's Lambda enforces the contract's access rule.
 */
export interface AuthorizerContext {
  [key: string]: string | number;
  principal: string;
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
  return {
    isAuthorized: true,
    context: {
      principal: JSON.stringify(verified.principal),
      tokenError: '',
      issuedAt: verified.issuedAt,
      expiresAt: verified.expiresAt,
    },
  };
}

function deny(tokenError: string): APIGatewaySimpleAuthorizerWithContextResult<AuthorizerContext> {
  return { isAuthorized: true, context: { principal: '', tokenError, issuedAt: 0, expiresAt: 0 } };
}
