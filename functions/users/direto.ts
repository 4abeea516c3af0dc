/**
 * The users context's direct front door (docs/architecture.md, "Contexts and their front doors"): a
 * login's user, its principal and session user, read without the table layer, for the login's cold
 * start (issue 39). index.ts publishes them too.
 */
export { findByEmail, principalOf, sessionUser } from './sessao';
export type { UserRecord } from './modelos';
