/**
 * Transfers (repasse) and Pagamento de Serviços: spec 3, 2.6, 7.3, 7.4; spec 2, 2.11, 2.12, 4;
 * docs/repasse.md. The groups and banks the routes also serve are the sharing-groups context's
 * (functions/grupos-rateio), which the handler reaches through its front door.
 */
export * as repasse from './repasse';
export * as pagamentos from './pagamentos';
