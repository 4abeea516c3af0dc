/**
 * The fate context's front door: a Fat-e by key or by composite key, the trial area's keys, a key's
 * receivable evidence, the issuer and carrier figures from the counters kept at ingestion, the carrier
 * registry, and the look-ups' view of a Fat-e. Other contexts import only this module
 * (functions/platform/dependencies.test.ts).
 */
export type { FateRecord } from './store-entities';
export { fatePorChave } from './fate-por-chave';
/** Services 4 and 5: an issuer's active Fat-e of a model per month in a period of Bahia days, from its counters, not from the documents. */
export { contagemDoEmitente } from './emitentes-store';
/** The carrier registry, a page at a time (the carrier report and its list), and the carrier report's figures, from the counters. */
export { contagemDiariaDoTransportador, totaisDosTransportadores, totalDoTransportador, totalTransporte, transportadoresPagina } from './transportadores-store';
export { chavesDegustacao, evidenciaDaChave, fatesDoTransportadorPagina, fatesPorChaveComposta } from './service';
export { fateView } from './view';
