/**
 * The tariffs' front door: the price table in force in a month (billing prices the month with it; the
 * prepaid reservation quotes with it). Other contexts import only this module
 * (functions/platform/dependencies.test.ts).
 */
export { tabelaPrecoDoMes } from './service';
