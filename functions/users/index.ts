/**
 * The users context's front door: finding a user and the principal and session it signs in as (the
 * auth context), password reset, the issuer check, and what client registration needs (creating the
 * responsible person, e-mailing the client's users their access). Other contexts import only this
 * module (functions/platform/dependencies.test.ts).
 */
export {
  create,
  ensureIssuer,
  requestPasswordReset,
  resetPassword,
  sendAccessEmails,
  type UserRecord,
} from './service';
export { findByEmail, principalOf, sessionUser } from './sessao';
export { findUser as findById } from './leituras';
export { renewPasswordHash } from './login-changes';
