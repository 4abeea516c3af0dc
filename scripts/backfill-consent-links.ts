/**
 * One-off backfill for the consent lists (docs/data-model.md, "Consent"): the links (`vinculo`) of a
 * consent saved before the cursor lists carry no list row and are not in the name index the client
 * lists read, so they are missing there until the consent is saved again. This walks every consent a
 * page at a time and rewrites the links of the institutions it names (idempotent puts).
 *
 *   AWS_ENDPOINT_URL=… TABLE_NAME=… npx tsx scripts/backfill-consent-links.ts
 *
 * (the environment of the functions: functions/platform/env.ts; in the twin, the values `npm start` prints).
 */
import { consentimentosAPartirDe, reescreverVinculos } from '../functions/consentimento/store';

let cursor: string | null = null;
let total = 0;
do {
  const page = await consentimentosAPartirDe(cursor);
  for (const c of page.data) await reescreverVinculos(c);
  total += page.data.length;
  cursor = page.cursor;
} while (cursor);
console.log(`consent links rewritten for ${total} consent(s)`);
