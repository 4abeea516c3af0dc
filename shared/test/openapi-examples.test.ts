import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { contracts } from '../src/contracts';
import { openApiDocument } from '../src/contracts/openapi';
import { isValidChaveAcesso } from '../src/domain/chave-acesso';
import { openApiValidator } from './openapi-validator';

/**
 * Issue 29 item 2: every example the description shows is one the API takes. Each `example` in the
 * document is checked against the schema it sits in (its type, pattern, lengths), and each example of
 * a path, query or body field against the contract's own zod schema (its refinements too: a check
 * digit, a real day), which is what the API runs on the request.
 */

const document = openApiDocument('test');

/** Every schema object of the document holding an `example`, with where it is. */
function schemasWithExamples(node: unknown, where: string, found: { where: string; schema: Record<string, unknown> }[] = []) {
  if (Array.isArray(node)) node.forEach((child, i) => schemasWithExamples(child, `${where}/${i}`, found));
  else if (node !== null && typeof node === 'object') {
    const object = node as Record<string, unknown>;
    if ('example' in object && ('type' in object || 'anyOf' in object || 'pattern' in object)) found.push({ where, schema: object });
    for (const [key, child] of Object.entries(object)) schemasWithExamples(child, `${where}/${key}`, found);
  }
  return found;
}

describe('the OpenAPI examples', () => {
  const found = schemasWithExamples(document.paths, '#/paths');

  it('are many (the walk finds them)', () => {
    expect(found.length).toBeGreaterThan(20);
  });

  it('each matches the schema it is in', () => {
    const validator = openApiValidator(document);
    const wrong = found.map(({ where, schema }) => ({ where, errors: validator.check(schema, schema.example) })).filter((r) => r.errors);
    expect(wrong).toEqual([]);
  });

  it('each path, query and body field example is taken by the contract (the API checks the same schema)', () => {
    const wrong: string[] = [];
    let seen = 0;
    for (const contract of contracts) {
      for (const part of [contract.params, contract.query, contract.body]) {
        if (!(part instanceof z.ZodObject)) continue;
        for (const [name, field] of Object.entries(part.shape as Record<string, z.ZodType>)) {
          const example = (field.meta() as { example?: unknown } | undefined)?.example;
          if (example === undefined) continue;
          seen++;
          if (!field.safeParse(example).success) wrong.push(`${contract.id} ${name}: ${JSON.stringify(example)}`);
        }
      }
    }
    expect(seen).toBeGreaterThan(5);
    expect(wrong).toEqual([]);
  });

  it('lists at the top every tag the operations use, each with its own description', () => {
    const tags = document.tags as { name: string; description: string }[];
    expect(tags.map((t) => t.name).sort()).toEqual([...new Set(contracts.map((c) => c.context))].sort());
    for (const tag of tags) expect(tag.description).not.toBe(tag.name);
  });

  it('the access key of /fate/{chave} has a real check digit', () => {
    const chave = (document.paths as Record<string, Record<string, { parameters: { name: string; schema: { example?: string } }[] }>>)['/api/v1/fate/{chave}']!.get!.parameters.find((p) => p.name === 'chave')!;
    expect(isValidChaveAcesso(chave.schema.example!)).toBe(true);
  });
});
