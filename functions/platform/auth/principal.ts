import { allows, type Access } from '@plac/shared/contracts/define';
import type { Principal } from '@plac/shared/access';
import { forbidden, unauthorized } from '../errors';
import type { TokenFailure } from './tokens';

/** What the authorizer left in `requestContext.authorizer.lambda`. */
interface AuthorizerLambdaContext {
  principal?: string;
  sid?: string;
  tokenError?: string;
  issuedAt?: number;
  expiresAt?: number;
}

/** The caller and the session and token it came with. */
export interface Caller {
  principal: Principal;
  sid: string;
  issuedAt: number;
  expiresAt: number;
}

export function callerFrom(authorizer: unknown): Caller | TokenFailure {
  const ctx = (authorizer as { lambda?: AuthorizerLambdaContext } | undefined)?.lambda;
  if (!ctx) return 'token_absent';
  if (ctx.tokenError) return ctx.tokenError as TokenFailure;
  if (!ctx.principal || !ctx.sid) return 'token_absent';
  try {
    return {
      principal: JSON.parse(ctx.principal) as Principal,
      sid: ctx.sid,
      issuedAt: Number(ctx.issuedAt ?? 0),
      expiresAt: Number(ctx.expiresAt ?? 0),
    };
  } catch {
    return 'token_invalid';
  }
}

/**
 * The contract's access rule, enforced in the Lambda itself (the authorizer only verifies tokens):
 * public routes need nothing; others need a valid token (401 token_*), and a role the route lists (403).
 * A session that must first enrol the second factor reaches only the routes that enrol it (403
 * segundoFatorObrigatorio, issue 42).
 */
export function authorize(access: Access, authorizer: unknown, paraCadastroSegundoFator = false): Caller | null {
  const caller = callerFrom(authorizer);
  if (access === 'public') return typeof caller === 'string' ? null : caller;
  if (typeof caller === 'string') throw unauthorized(caller);
  if (!allows(access, caller.principal.roles)) throw forbidden();
  if (caller.principal.cadastroSegundoFator && !paraCadastroSegundoFator) throw forbidden('segundoFatorObrigatorio');
  return caller;
}
