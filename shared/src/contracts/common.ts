import * as z from 'zod';
import { ROLES } from '../access/roles';
import { isValidChaveAcesso } from '../domain/chave-acesso';
import { UF_SIGLAS } from '../domain/uf';
import { message } from '../messages';

/** Schemas that several contracts share. */

/**
 * How the description shows a month, a day or a Brazilian date (issue 29 item 2): the pattern and an
 * example of what the API takes, so an integrator's client sends the right form (the API's own check
 * is the refine or transform next to each use; the pattern only says it).
 */
export const MES_META = { description: 'AAAA-MM', pattern: '^(?!0000)\\d{4}-(0[1-9]|1[0-2])$', example: '2026-11' } as const;
export const DIA_META = { description: 'AAAA-MM-DD, um dia real', pattern: '^\\d{4}-\\d{2}-\\d{2}$', example: '2026-11-23' } as const;
export const DATA_BR_META = { description: 'DD/MM/AAAA, um dia real', pattern: '^\\d{2}/\\d{2}/\\d{4}$', example: '23/11/2026' } as const;
/**
 * The example of a month the route takes only once it has ended (to bill, distribute or list payments):
 * MES_META's example is the month the description was written in, which those routes refuse until it ends.
 */
export const MES_ENCERRADO_EXEMPLO = { example: '2026-10' } as const;
/**
 * The example of the month a new version (of the price table, of the sharing group) starts: the month
 * after MES_META's, which is the example of the current version's end (the new one must start right after it).
 */
export const MES_SEGUINTE_EXEMPLO = { example: '2026-12' } as const;

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: message('emailInvalido') }).max(100, { error: message('emailGrandeDemais') }));

/** A new password: 8 to 20 characters (the form's counter stops at 20), with letters and digits. */
export const newPasswordSchema = z
  .string()
  .min(8, { error: message('senhaFraca') })
  .max(20, { error: message('senhaFraca') })
  .regex(/[A-Za-z]/, { error: message('senhaFraca') })
  .regex(/\d/, { error: message('senhaFraca') });

/** A password as typed at login: no rule but a sane length (a hash is computed of it). */
export const loginPasswordSchema = z.string().min(1).max(128);

export const roleSchema = z.enum(ROLES);

export const ufSchema = z
  .string()
  .transform((s) => s.toUpperCase())
  .refine((s) => (UF_SIGLAS as readonly string[]).includes(s), { error: message('ufInvalida') });

export const isoDateTime = z.iso.datetime({ offset: true });

/**
 * A whole number as a path or query parameter (or a JSON value): decimal digits only, so that
 * '0x7f', '1e3', ' 5', '-1' or '1.5' are refused instead of being read by Number(). Numbers are
 * accepted as they are when integral (a JSON body, or the web client before it serialises).
 */
export function decimalInteger(title: string) {
  return z
    .union([z.string(), z.number()], {
      error: (issue) => message(issue.input === undefined ? 'campoObrigatorio' : 'campoNumeroInteiro', { field: title }),
    })
    .transform((value, ctx) => {
      const text = String(value);
      if (!/^\d{1,15}$/.test(text)) {
        ctx.addIssue({ code: 'custom', message: message('campoNumeroInteiro', { field: title }) });
        return z.NEVER;
      }
      return Number(text);
    })
    .meta({ title });
}

/** Page sizes of the lists: 10, 15, 25, 50 or 100, 25 unless asked. */
export const pageQuery = {
  page: decimalInteger('página').pipe(z.number().int().min(1).max(100_000).meta({ title: 'página' })).default(1),
  size: decimalInteger('tamanho da página')
    .pipe(z.number().refine((n) => [10, 15, 25, 50, 100].includes(n), { error: message('tamanhoPaginaInvalido') }))
    .default(25),
};

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), size: z.number().int() });
}

export const messageResponse = z.object({ message: z.string() });

/** A client's id as the clients context writes them (a UUID, or a demo's fixed id). */
export const idClienteSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: message('campoInvalido', { field: 'cliente' }) })
  .meta({ title: 'cliente' });

/** An optional filter: an empty select ('Todos') sends '', the same as leaving it out. */
export const opcionalVazio = <T extends z.ZodType>(schema: T) => z.union([z.literal('').transform(() => undefined), schema]).optional();

/**
 * The 44 characters of an access key (NF-e, NFC-e, CT-e): spaces (keys are printed in groups of 4) are
 * dropped and letters upper-cased; the UF, month, CNPJ, model and check digit are checked.
 */
export const chaveAcessoSchema = z
  .string({ error: message('campoObrigatorio', { field: 'chave de acesso' }) })
  .transform((v) => v.replace(/\s/g, '').toUpperCase())
  .pipe(
    z
      .string()
      .min(1, { error: message('campoObrigatorio', { field: 'chave de acesso' }) })
      .refine(isValidChaveAcesso, { error: message('chaveMonitoradaInvalida') }),
  );

/**
 * Cursor paging (docs/architecture.md, "Lists"): a list answers one page read with one key-range
 * Query and, when more follow, `nextCursor`, which the caller passes back as `cursor` (query string or
 * body) for the next page; it is opaque, bound to the caller and the query (another caller's cursor,
 * or an altered one, answers 400 'cursorInvalido'). `total`, where present, comes from a counter.
 */
export const cursorSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,4000}$/, { error: message('cursorInvalido') })
  .meta({ title: 'cursor', description: 'O nextCursor da página anterior (opaco).' });

/** The page sizes of the cursor-paged screens: 10, 25, 50 or 100 (`perPage`, the screen's default unless asked). */
export const PER_PAGE_OPCOES = [10, 25, 50, 100] as const;

/** `cursor` and `perPage` of a cursor-paged list (query string or body). */
export function cursorQuery(perPagePadrao: number, opcoes: readonly number[] = PER_PAGE_OPCOES) {
  return {
    cursor: cursorSchema.optional(),
    perPage: decimalInteger('tamanho da página')
      .pipe(z.number().refine((n) => opcoes.includes(n), { error: message('tamanhoPaginaInvalido') }))
      .default(perPagePadrao),
  };
}

export function cursorPageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    nextCursor: z.string().optional().meta({ description: 'Presente quando há uma próxima página: envie-o como cursor.' }),
    total: z.number().int().optional().meta({ description: 'Total de registros, quando mantido por um contador.' }),
  });
}
