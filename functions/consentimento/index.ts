/**
 * The consent context's front door: whether an issuer shares its documents with a financial institution
 * (the look-up asks), and which institutions an issuer or a carrier shares with (the assignment registry
 * and the webhook producers ask). Other contexts import only this module
 * (functions/platform/dependencies.test.ts).
 */
export { consentimentoVigente, instituicoesDoSacador, instituicoesDoTransportador } from './partilha';
