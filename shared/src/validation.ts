/**
 * zod speaks pt-BR here, on the server and in the browser alike: its built-in Portuguese messages for
 * the generic rules, and the spec's 'O campo {field} é obrigatório.' for a missing value. A field's
 * name in that message is its schema's `meta({ title })` when given, else the field's key.
 */
import { z } from 'zod';
import { pt } from 'zod/locales';
import { message } from './messages';

z.config({
  ...pt(),
  customError: (issue) => {
    if (issue.code === 'invalid_type' && issue.input === undefined) {
      const title = z.globalRegistry.get(issue.inst as z.ZodType)?.title;
      return message('campoObrigatorio', title ? { field: title } : {});
    }
    return undefined;
  },
});

export type FieldErrors = Record<string, string[]>;

/** zod issues → `{ "<dotted.path>": ["<text>"] }`, the shape of the API's 400 answers. */
export function toFieldErrors(error: z.ZodError, prefix?: string): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.');
    const key = path || prefix || '_';
    const field = issue.path.length ? String(issue.path[issue.path.length - 1]) : key;
    const text = issue.message.replace('{field}', field);
    (out[key] ??= []).push(text);
  }
  return out;
}

export { z };
