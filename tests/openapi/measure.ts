/**
 * Measures a description against answers recorded by an integration run (issue 29 item 2):
 *   PLAC_OPENAPI_ANSWERS=/tmp/answers.jsonl npx vitest run --project integration tests/api
 *   npx tsx tests/openapi/measure.ts /tmp/answers.jsonl [module exporting openApiDocument]
 * Prints the answers checked, the mismatches and each mismatch's kind (operation and status).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { mismatchesOf, type Answer } from './answers';

const [file, module = '../../shared/src/contracts/openapi.ts'] = process.argv.slice(2);
if (!file) throw new Error('usage: tsx tests/openapi/measure.ts <answers.jsonl> [openapi module]');
const { openApiDocument } = (await import(module.startsWith('.') && !module.startsWith('../../') ? pathToFileURL(resolve(module)).href : module)) as {
  openApiDocument: (version: string) => Record<string, unknown>;
};
const answers = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Answer);
const { checked, mismatches } = mismatchesOf(openApiDocument('measure'), answers);
const kinds = new Map<string, number>();
for (const m of mismatches) kinds.set(m.split(':')[0]!, (kinds.get(m.split(':')[0]!) ?? 0) + 1);
console.log(`${answers.length} answers recorded, ${checked} of an operation, ${mismatches.length} mismatches`);
for (const [kind, count] of [...kinds].sort((a, b) => b[1] - a[1])) console.log(`  ${count}× ${kind}`);
