/**
 * Revenue sharing (rateio) and transfers (repasse): spec 3, 2.3-2.6, 3.6-3.10, 4.2, 5.2, 7.3, 7.4;
 * spec 2, 2.11, 2.12, 4; docs/repasse.md. Other contexts call these, never the stores.
 */
export * as bancos from './bancos';
export * as grupos from './grupos';
export * as repasse from './repasse';
export * as pagamentos from './pagamentos';
