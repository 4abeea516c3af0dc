/**
 * Orders two texts by their UTF-16 code units, as `<` compares them: for keys, ids, ISO dates and
 * months, UF codes and folded names, whose order is their characters' (and, for ASCII, the order
 * DynamoDB gives a sort key). Names shown to people are ordered by pt-BR collation instead
 * (`localeCompare(b, 'pt-BR')`). A first `localeCompare` also starts ICU's collator: 6–10 ms of a
 * Lambda's cold start (issue 39).
 */
export function porCodigo(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
