import { XMLBuilder } from 'fast-xml-parser';

/** What every generated document of the simulator shares: the namespace, the builder, the dates in Brasília time. */
export const NFE_NAMESPACE = 'http://www.portalfiscal.inf.br/nfe';

/** ISO date-time with the -03:00 offset of Brasília, as NF-e dates are written. */
export function brasilia(ms: number): string {
  return `${new Date(ms - 3 * 3_600_000).toISOString().slice(0, 19)}-03:00`;
}
export const brasiliaDate = (ms: number) => brasilia(ms).slice(0, 10);

export const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', suppressBooleanAttributes: false });
export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';
