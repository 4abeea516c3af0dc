import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

/**
 * Validates values against the schemas of an OpenAPI 3.1 document (JSON Schema 2020-12). A schema
 * is compiled on its own, with the document's `#/components/...` references inlined: zod's own
 * `#/$defs/...` references stay relative to the schema they are in.
 */
export function openApiValidator(document: Record<string, unknown>) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  // OpenAPI's own annotation on a schema; not a JSON Schema keyword.
  ajv.addKeyword('example');
  const cache = new Map<unknown, ValidateFunction>();
  const inline = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(inline);
    if (value === null || typeof value !== 'object') return value;
    const ref = (value as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/')) return inline(resolve(document, ref));
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inline(v)]));
  };
  return {
    /** The errors of `value` against `schema` ('' when valid). */
    check(schema: unknown, value: unknown): string {
      let validate = cache.get(schema);
      if (!validate) {
        validate = ajv.compile(inline(schema) as object);
        cache.set(schema, validate);
      }
      return validate(value) ? '' : ajv.errorsText(validate.errors, { separator: '; ' });
    },
  };
}

/** The value at a JSON pointer (`#/a/b~1c`) of the document. */
export function resolve(document: unknown, pointer: string): unknown {
  return pointer
    .replace(/^#\//, '')
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], document);
}
