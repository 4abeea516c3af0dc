/**
 * Revenue sharing (rateio: the groups and banks, from functions/grupos-rateio) and transfers (repasse): spec 3, 2.3-2.6, 3.6-3.10, 4.2, 5.2, 7.3, 7.4;
 * spec 2, 2.11, 2.12, 4; docs/repasse.md. Other contexts call these, never the stores.
 */
export { bancos, grupos } from '../grupos-rateio';
export * as repasse from './repasse';
export * as pagamentos from './pagamentos';
