import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { matchPath } from '@plac/shared/contracts/define';
import { inject } from 'vitest';
import { openApiValidator } from '../../shared/test/openapi-validator';

/**
 * Issue 29 item 2: every answer the API tests receive (tests/api/http.ts, tests/api/mtls.ts) is
 * recorded here and, after each test file, checked against the served OpenAPI description — its
 * status must be one the operation lists, its body must match that status's schema. An answer the
 * description does not tell of is what an integrator's generated client would choke on.
 */
export interface Answer {
  method: string;
  path: string;
  status: number;
  contentType: string;
  body: unknown;
}

const answers: Answer[] = [];

export function recordAnswer(method: string, url: string, status: number, contentType: string, body: unknown) {
  const path = new URL(url, 'http://x').pathname;
  answers.push({ method: method.toUpperCase(), path, status, contentType, body });
}

interface Operation {
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}

/** The mismatches of this file's answers (and empties the record); the totals go to the run's file. */
export async function checkAnswers(file: string): Promise<string[]> {
  const taken = answers.splice(0);
  if (!taken.length) return [];
  const twin = inject('twin');
  const document = (await (await fetch(twin.url + '/api/v1/openapi.json')).json()) as Record<string, unknown>;
  const { checked, mismatches } = mismatchesOf(document, taken);
  appendFileSync(join(twin.dataDir, 'openapi-answers.jsonl'), JSON.stringify({ file, checked, mismatches }) + '\n');
  // To measure another description against the same answers (tests/openapi/measure.ts): keep them all.
  if (process.env.PLAC_OPENAPI_ANSWERS) appendFileSync(process.env.PLAC_OPENAPI_ANSWERS, taken.map((a) => JSON.stringify({ file, ...a }) + '\n').join(''));
  return mismatches;
}

/** How many answers an operation of the document serves, and those that the document does not describe. */
export function mismatchesOf(document: Record<string, unknown>, taken: readonly Answer[]): { checked: number; mismatches: string[] } {
  const paths = document.paths as Record<string, Record<string, Operation>>;
  const validator = openApiValidator(document);
  const mismatches: string[] = [];
  let checked = 0;
  for (const answer of taken) {
    const method = answer.method.toLowerCase();
    // As the routers do: a literal segment wins over a parameter (`/cliente/filtro` before `/cliente/{id}`).
    const template = Object.keys(paths)
      .filter((p) => paths[p]![method] && matchPath(p, answer.path))
      .sort((a, b) => a.split('{').length - b.split('{').length)[0];
    // A path no operation serves (an unknown route, the description itself): nothing to check it against.
    if (!template) continue;
    checked++;
    const operation = paths[template]![method]!;
    const where = `${answer.method} ${template} ${answer.status}`;
    const response = operation.responses[String(answer.status)];
    if (!response) {
      mismatches.push(`${where}: status not described (${JSON.stringify(answer.body).slice(0, 160)})`);
      continue;
    }
    const mediaType = answer.contentType.split(';')[0]!.trim();
    const content = Object.entries(response.content ?? {}).find(([type]) => type.split(';')[0]!.trim() === mediaType)?.[1];
    if (!content) {
      if (response.content || answer.body !== '') mismatches.push(`${where}: content type ${mediaType || '(none)'} not described`);
      continue;
    }
    const errors = validator.check(content.schema, answer.body);
    if (errors) mismatches.push(`${where}: ${errors} (${JSON.stringify(answer.body).slice(0, 160)})`);
  }
  return { checked, mismatches };
}
