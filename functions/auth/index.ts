/**
 * The auth context's front door: what another context may call. The integrator look-up identifies its
 * caller by the client certificate API Gateway forwarded (ICP-Brasil, with revocation). Other contexts
 * import only this module (functions/platform/dependencies.test.ts).
 */
export { certificadoDoChamador } from './certificado-do-chamador';
