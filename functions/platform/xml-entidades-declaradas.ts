/**
 * Stands in for is-unsafe in the Lambda bundles (bundle-options.ts alias). fast-xml-parser asks it one
 * question: may an entity that a document's own DOCTYPE declares be expanded? No document the platform
 * parses has a DOCTYPE (the NF-e, CT-e and event schemas allow none, the Sefaz's SOAP answers carry
 * none, a tax note's XML with one is refused before parsing: faturamento/conteudo-nota.ts), so the
 * answer is always no: stricter than is-unsafe's look at the value, and 17 KiB less in every bundle
 * that parses XML (issue 39). The five predefined entities (&amp; …) are not declared, and still decode.
 */
export const HTML = 'html';
export const XML = 'xml';

/** Every declared entity is unsafe: fast-xml-parser leaves it unexpanded. */
export function isUnsafe(): boolean {
  return true;
}
