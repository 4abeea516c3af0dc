import { allows, type Access } from '@plac/shared/contracts';
import type { Principal } from '@plac/shared/access';
import { forbidden, unauthorized } from '../errors';
import type { TokenFailure } from './tokens';

/** What the authorizer left in `requestContext.authorizer.lambda`. */
interface AuthorizerLambdaContext {
  principal?: string;
  tokenError?: string;
}

export function principalFrom(authorizer: unknown): Principal | TokenFailure {
  const ctx = (authorizer as { lambda?: AuthorizerLambdaContext } | undefined)?.lambda;
  if (!ctx) return 'token_absent';
  if (ctx.tokenError) return ctx.tokenError as TokenFailure;
  if (!ctx.principal) return 'token_absent';
  try {
    return JSON.parse(ctx.principal) as Principal;
  } catch {
    return 'token_invalid';
  }
}

/**
 * The contract's access rule, enforced in the Lambda itself (the authorizer only verifies tokens):
 * public routes need nothing; others need a valid token (401 token_*), and a role the route lists (403).
 */
export function authorize(access: Access, authorizer: unknown): Principal | null {
  if (access === 'public') {
    const who = principalFrom(authorizer);
    return typeof who === 'string' ? null : who;
  }
  const who = principalFrom(authorizer);
  if (typeof who === 'string') throw unauthorized(who);
  if (!allows(access, who.roles)) throw forbidden();
  return who;
}
