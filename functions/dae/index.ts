/**
 * The DAE context's front door: issuing a DAE for any document it charges (a monthly invoice, a prepaid
 * reservation), the FEBRABAN barcode rule, and reading an issued DAE back (by its document, by its
 * barcode). Billing and the prepaid account both issue DAEs through here; neither reaches into the other
 * for it. Other contexts import only this module (functions/platform/dependencies.test.ts).
 */
export { novoDae, lerDaeDoDocumento, type DocumentoCobrado } from './emissao';
export { daePorCodigoBarras, type DaeRecord } from './store';
export { daeDoCodigoBarras } from './config';
export { codigoBarrasValido } from './febraban';
