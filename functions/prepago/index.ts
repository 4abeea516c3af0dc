/**
 * The prepaid account's front door. Metering pays a use from the balance (`pagarUso`); the bank-return
 * import credits a reservation's paid DAE (`pagamentoDeReserva`, the port faturamento/retorno/service.ts
 * names); the evidence archive reads a client's month of debits and the statement they add up to.
 * Other contexts import only this module (functions/platform/dependencies.test.ts).
 */
export { pagarUso } from './uso';
export * as pagamentoDeReserva from './pagamento';
export { debitosPagosNoMes, type Debito } from './debitos';
export { paginaDeDebitosDoMes } from './store';
