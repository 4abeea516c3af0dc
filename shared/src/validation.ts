/**
 * zod speaks Brazilian Portuguese here, on the server and in the browser alike, with the catalogue's
 * texts (messages.ts) and nothing else: `ptBrErrorMap` has one rule per zod issue code, and it is
 * installed as zod's locale, so a message that a schema sets itself (`{ error }`, `refine(..., { message })`)
 * still wins over it. A field is named as the screen labels it: its schema's `meta({ title })` when
 * given, else the screens' label of its key (field-labels.ts), else its key made readable.
 */
import * as z from 'zod';
import { FIELD_LABELS } from './field-labels';
import { message, type MessageKey } from './messages';

type RawIssue = z.core.$ZodRawIssue;

/** The issue as the error map receives it: zod stamps the schema that owns a failed check. */
type MappedIssue = RawIssue & { schema?: z.core.$ZodType; inst?: unknown };

/** 'razao_social' / 'nomeArquivo' / 'cliente-id' → 'razao social' / 'nome arquivo' / 'cliente id'. */
export function humanizeKey(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
}

/** The last named segment of a path ('roles.0' → 'roles'); '' at the root. */
function lastKey(path: readonly PropertyKey[] | undefined): string {
  for (let i = (path?.length ?? 0) - 1; i >= 0; i--) {
    const segment = path![i];
    if (typeof segment === 'string') return segment;
  }
  return '';
}

function titleOf(schema: unknown): string | undefined {
  if (!schema || typeof schema !== 'object' || !('_zod' in schema)) return undefined;
  const title = z.globalRegistry.get(schema as z.core.$ZodType)?.title;
  return typeof title === 'string' && title.trim() ? title : undefined;
}

/** The name of the field an issue is about, as the screen labels it. */
export function fieldName(issue: { path?: readonly PropertyKey[] | undefined; schema?: unknown; inst?: unknown }): string {
  const key = lastKey(issue.path);
  return titleOf(issue.schema) ?? titleOf(issue.inst) ?? (Object.hasOwn(FIELD_LABELS, key) ? FIELD_LABELS[key]! : humanizeKey(key) || 'valor');
}

/** 100000 → '100.000' (pt-BR grouping, no Intl needed). */
function formatNumber(value: number | bigint): string {
  const text = String(value);
  const [int, frac] = text.split('.');
  if (!int || !/^-?\d+$/.test(int)) return text;
  const sign = int.startsWith('-') ? '-' : '';
  const digits = int.replace('-', '');
  const grouped = digits.length > 4 ? digits.replace(/\B(?=(\d{3})+(?!\d))/g, '.') : digits;
  return `${sign}${grouped}${frac ? `,${frac}` : ''}`;
}

function formatDate(value: unknown): string {
  const date = value instanceof Date ? value : new Date(Number(value));
  if (Number.isNaN(date.getTime())) return String(value);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getUTCDate())}/${pad(date.getUTCMonth() + 1)}/${date.getUTCFullYear()}`;
}

const items = (n: number | bigint) => `${formatNumber(n)} ${Number(n) === 1 ? 'item' : 'itens'}`;

function sizeText(issue: RawIssue & { code: 'too_big' | 'too_small' }, field: string): string {
  const big = issue.code === 'too_big';
  const limit = big ? (issue as { maximum: number | bigint }).maximum : (issue as { minimum: number | bigint }).minimum;
  const inclusive = issue.inclusive !== false;
  switch (issue.origin) {
    case 'string':
      if (issue.exact) return message('campoTextoTamanho', { field, length: formatNumber(limit) });
      if (!big && Number(limit) <= 1) return message('campoObrigatorio', { field });
      return big
        ? message('campoTextoMaximo', { field, max: formatNumber(inclusive ? limit : Number(limit) - 1) })
        : message('campoTextoMinimo', { field, min: formatNumber(inclusive ? limit : Number(limit) + 1) });
    case 'number':
    case 'int':
    case 'bigint':
      if (big) return message(inclusive ? 'campoNumeroMaximo' : 'campoNumeroMenorQue', { field, max: formatNumber(limit) });
      return message(inclusive ? 'campoNumeroMinimo' : 'campoNumeroMaiorQue', { field, min: formatNumber(limit) });
    case 'array':
    case 'set':
    case 'map':
      return big ? message('campoListaMaximo', { field, max: items(limit) }) : message('campoListaMinimo', { field, min: items(limit) });
    case 'date':
      return big ? message('campoDataMaxima', { field, max: formatDate(limit) }) : message('campoDataMinima', { field, min: formatDate(limit) });
    default:
      return message('campoInvalido', { field });
  }
}

const TYPE_KEYS: Record<string, MessageKey> = {
  string: 'campoTexto',
  number: 'campoNumero',
  int: 'campoNumeroInteiro',
  bigint: 'campoNumeroInteiro',
  boolean: 'campoBooleano',
  array: 'campoLista',
  tuple: 'campoLista',
  set: 'campoLista',
  object: 'campoObjeto',
  record: 'campoObjeto',
  map: 'campoObjeto',
  date: 'campoData',
};

const FORMAT_KEYS: Record<string, MessageKey> = {
  email: 'emailInvalido',
  url: 'campoUrl',
  datetime: 'campoData',
  date: 'campoData',
  time: 'campoData',
};

/** Values of an enum are listed only while the list stays readable. */
const MAX_LISTED_VALUES = 12;

/**
 * The pt-BR text of every zod v4 issue code, from the catalogue. Exported for the tests and for
 * callers that build issues themselves; zod uses it through `z.config` below.
 */
export function ptBrErrorMap(issue: MappedIssue): string {
  const field = fieldName(issue);
  // A missing (or null where not allowed) value is "required", whatever kind of value was expected.
  if ((issue.input === undefined || issue.input === null) && issue.code !== 'unrecognized_keys' && issue.code !== 'custom') {
    if (issue.code === 'invalid_type' || issue.code === 'invalid_value' || issue.code === 'invalid_union') {
      return message('campoObrigatorio', { field });
    }
  }
  switch (issue.code) {
    case 'invalid_type': {
      const expected = String(issue.expected);
      return message(TYPE_KEYS[expected] ?? 'campoInvalido', { field });
    }
    case 'too_big':
    case 'too_small':
      return sizeText(issue, field);
    case 'invalid_format':
      return message(FORMAT_KEYS[issue.format] ?? 'campoInvalido', { field });
    case 'not_multiple_of':
      return message('campoMultiplo', { field, divisor: formatNumber(issue.divisor as number | bigint) });
    case 'unrecognized_keys':
      return issue.keys.length === 1
        ? message('campoNaoPermitido', { field: issue.keys[0]! })
        : message('camposNaoPermitidos', { fields: issue.keys.join(', ') });
    case 'invalid_value': {
      const values = issue.values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v) ?? String(v)));
      if (values.length === 0 || values.length > MAX_LISTED_VALUES) return message('campoInvalido', { field });
      return message('campoOpcoes', { field, values: values.join(', ') });
    }
    case 'invalid_union':
    case 'invalid_key':
    case 'invalid_element':
    case 'custom':
    default:
      return message('campoInvalido', { field });
  }
}

// Installed as the locale: a schema's own message, a parse's `error` and a `customError` all outrank it.
z.config({ localeError: ptBrErrorMap as z.core.$ZodErrorMap });

export type FieldErrors = Record<string, string[]>;

/**
 * zod issues → `{ "<dotted.path>": ["<text>"] }`, the shape of the API's 400 answers. Unknown keys of
 * a strict object are reported under each key. `prefix` names the root ('_' when absent).
 */
export function toFieldErrors(error: z.ZodError, prefix?: string): FieldErrors {
  const out: FieldErrors = {};
  const add = (key: string, text: string) => {
    const list = (out[key] ??= []);
    if (!list.includes(text)) list.push(text);
  };
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.');
    const key = path || prefix || '_';
    if (issue.code === 'unrecognized_keys' && issue.message === ptBrErrorMap(issue as unknown as MappedIssue)) {
      for (const unknown of issue.keys) add(path ? `${path}.${unknown}` : unknown, message('campoNaoPermitido', { field: unknown }));
      continue;
    }
    // A custom text may still carry the placeholder ('O campo {field} é obrigatório.' without a title).
    const field = humanizeKey(lastKey(issue.path)) || humanizeKey(prefix ?? '') || 'valor';
    add(key, issue.message.replaceAll('{field}', field));
  }
  return out;
}

export { z };
