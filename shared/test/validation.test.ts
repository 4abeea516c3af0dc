import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { decimalInteger, pageQuery } from '../src/contracts/common';
import { MESSAGES, message } from '../src/messages';
import { fieldName, humanizeKey, ptBrErrorMap, toFieldErrors } from '../src/validation';

/** Every text the API may answer is a catalogue template with its {placeholders} filled in. */
const templates = Object.values(MESSAGES).map(
  (text) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\{\w+\\\}/g, '.+')}$`),
);
const fromCatalogue = (text: string) => templates.some((re) => re.test(text));

function errorsOf(schema: z.ZodType, input: unknown) {
  const result = schema.safeParse(input);
  expect(result.success, JSON.stringify(input)).toBe(false);
  return toFieldErrors(result.error!);
}

function only(schema: z.ZodType, input: unknown): string {
  const result = schema.safeParse(input);
  expect(result.success, JSON.stringify(input)).toBe(false);
  const texts = result.error!.issues.map((i) => i.message);
  for (const text of texts) expect(fromCatalogue(text), text).toBe(true);
  return texts[0]!;
}

describe('the pt-BR error map, one case per zod issue code', () => {
  const titled = z.string().trim().min(1).max(5).meta({ title: 'razão social' });

  it('invalid_type: required when missing or null, else what was expected', () => {
    const form = z.object({ nome: titled, idade: z.number(), inteiro: z.number().int(), ativo: z.boolean(), tags: z.array(z.string()), endereco: z.object({}) });
    expect(errorsOf(form, { nome: null, idade: 'x', inteiro: 1.5, ativo: 'sim', tags: 'a', endereco: 1 })).toEqual({
      nome: [message('campoObrigatorio', { field: 'razão social' })],
      idade: [message('campoNumero', { field: 'idade' })],
      inteiro: [message('campoNumeroInteiro', { field: 'inteiro' })],
      ativo: [message('campoBooleano', { field: 'Ativo' })],
      tags: [message('campoLista', { field: 'tags' })],
      endereco: [message('campoObjeto', { field: 'endereco' })],
    });
    expect(only(z.object({ nome_completo: z.string() }), {})).toBe('O campo nome completo é obrigatório.');
    expect(only(z.object({ n: z.string() }), { n: 1 })).toBe('O campo n deve ser um texto.');
    // A coerced number that is not one (NaN) is "must be a number", never "expected number, received number".
    expect(only(z.object({ n: z.coerce.number() }), { n: 'abc' })).toBe('O campo n deve ser um número.');
  });

  it('too_big and too_small: strings, numbers, lists and dates, with the limit', () => {
    expect(only(z.object({ r: titled }), { r: 'abcdefg' })).toBe('O campo razão social deve ter no máximo 5 caracteres.');
    expect(only(z.object({ r: titled }), { r: '  ' })).toBe('O campo razão social é obrigatório.');
    expect(only(z.object({ s: z.string().min(3) }), { s: 'a' })).toBe('O campo s deve ter no mínimo 3 caracteres.');
    expect(only(z.object({ uf: z.string().length(2) }), { uf: 'BAH' })).toBe('O campo UF deve ter exatamente 2 caracteres.');
    expect(only(z.object({ n: z.number().max(100_000) }), { n: 100_001 })).toBe('O campo n deve ser no máximo 100.000.');
    expect(only(z.object({ n: z.number().lt(10) }), { n: 10 })).toBe('O campo n deve ser menor que 10.');
    expect(only(z.object({ n: z.number().min(1) }), { n: -1 })).toBe('O campo n deve ser no mínimo 1.');
    expect(only(z.object({ n: z.number().positive() }), { n: 0 })).toBe('O campo n deve ser maior que 0.');
    expect(only(z.object({ l: z.array(z.string()).min(1) }), { l: [] })).toBe('O campo l deve ter no mínimo 1 item.');
    expect(only(z.object({ l: z.array(z.string()).max(2) }), { l: ['a', 'b', 'c'] })).toBe('O campo l deve ter no máximo 2 itens.');
    expect(only(z.object({ d: z.date().max(new Date(Date.UTC(2026, 0, 31))) }), { d: new Date(Date.UTC(2027, 0, 1)) })).toBe(
      'O campo d deve ser uma data até 31/01/2026.',
    );
  });

  it('invalid_format: e-mail, URL, dates and patterns', () => {
    expect(only(z.object({ e: z.email() }), { e: 'x' })).toBe(message('emailInvalido'));
    expect(only(z.object({ site: z.url() }), { site: 'x' })).toBe('O campo site deve ser uma URL válida.');
    expect(only(z.object({ quando: z.iso.datetime() }), { quando: 'ontem' })).toBe('O campo quando deve ser uma data válida.');
    expect(only(z.object({ c: z.string().regex(/^\d+$/) }), { c: 'x' })).toBe('O campo c é inválido.');
    expect(only(z.object({ c: z.string().startsWith('a') }), { c: 'x' })).toBe('O campo c é inválido.');
  });

  it('not_multiple_of', () => {
    expect(only(z.object({ n: z.number().multipleOf(5) }), { n: 7 })).toBe('O campo n deve ser múltiplo de 5.');
  });

  it('unrecognized_keys: one field message per unknown key', () => {
    expect(only(z.strictObject({ a: z.string() }), { a: 'x', b: 1 })).toBe('O campo b não é permitido.');
    expect(only(z.strictObject({ a: z.string() }), { a: 'x', b: 1, c: 2 })).toBe('Os campos b, c não são permitidos.');
    expect(errorsOf(z.object({ o: z.strictObject({}) }), { o: { b: 1, c: 2 } })).toEqual({
      'o.b': ['O campo b não é permitido.'],
      'o.c': ['O campo c não é permitido.'],
    });
  });

  it('invalid_union, invalid_key, invalid_element and custom: the field is invalid', () => {
    expect(only(z.object({ u: z.union([z.string(), z.number()]) }), { u: true })).toBe('O campo u é inválido.');
    expect(only(z.object({ u: z.union([z.string(), z.number()]) }), {})).toBe('O campo u é obrigatório.');
    expect(only(z.object({ r: z.record(z.string().max(1), z.string()) }), { r: { bb: 'x' } })).toMatch(/^O campo (r|bb) é inválido\.$/);
    // A map reports its bad entry under the entry's key.
    expect(only(z.object({ m: z.map(z.string(), z.number()) }), { m: new Map([['a', 'x']]) })).toBe('O campo a deve ser um número.');
    expect(only(z.object({ s: z.string().refine((v) => v === 'ok') }), { s: 'no' })).toBe('O campo s é inválido.');
  });

  it('invalid_value: the options of an enum, or required when missing', () => {
    expect(only(z.object({ tipo: z.enum(['ESF', 'IMF']) }), { tipo: 'X' })).toBe('O campo Tipo deve ser um dos valores: ESF, IMF.');
    expect(only(z.object({ tipo: z.enum(['ESF', 'IMF']) }), {})).toBe('O campo Tipo é obrigatório.');
    expect(only(z.object({ v: z.literal(3) }), { v: 4 })).toBe('O campo v deve ser um dos valores: 3.');
  });

  it('covers every issue code zod v4 has', () => {
    const codes = ['invalid_type', 'too_big', 'too_small', 'invalid_format', 'not_multiple_of', 'unrecognized_keys', 'invalid_union', 'invalid_key', 'invalid_element', 'invalid_value', 'custom'] as const;
    for (const code of codes) {
      const issue = { code, input: 'x', path: ['campo'], keys: ['k'], values: ['a'], origin: 'string', maximum: 1, minimum: 1, format: 'regex', divisor: 2, expected: 'string', errors: [] };
      const text = ptBrErrorMap(issue as never);
      expect(fromCatalogue(text), `${code}: ${text}`).toBe(true);
      expect(text, code).not.toMatch(/\{\w+\}|Entrada inválida|Demasiado|esperava/);
    }
  });

  it('lets a message set on the schema win over the map', () => {
    expect(only(z.object({ s: z.string().min(3, { error: message('cidadeTextoCurto') }) }), { s: 'a' })).toBe(message('cidadeTextoCurto'));
    expect(only(z.object({ s: z.string().refine(() => false, { message: message('ufInvalida') }) }), { s: 'a' })).toBe(message('ufInvalida'));
    const own = z.object({ s: z.string({ error: (issue) => (issue.input === undefined ? message('campoObrigatorio', { field: 'Sigla' }) : undefined) }) });
    expect(only(own, {})).toBe('O campo Sigla é obrigatório.');
    expect(only(own, { s: 1 })).toBe('O campo s deve ser um texto.');
  });
});

describe('field names', () => {
  it('uses the title of the schema, else the key made readable', () => {
    expect(humanizeKey('razao_social')).toBe('razao social');
    expect(humanizeKey('nomeArquivo')).toBe('nome arquivo');
    expect(fieldName({ path: ['roles', 0] })).toBe('Permissões');
    expect(fieldName({ path: ['tipo_usuario'] })).toBe('Tipo de Usuário');
    expect(fieldName({ path: ['campo_sem_rotulo'] })).toBe('campo sem rotulo');
    expect(fieldName({ path: [] })).toBe('valor');
  });

  it('names nested and array fields by their last key, and keeps the dotted path as the error key', () => {
    const schema = z.object({ endereco: z.object({ numero_casa: z.string() }), roles: z.array(z.enum(['a'])) });
    expect(errorsOf(schema, { endereco: {}, roles: ['b'] })).toEqual({
      'endereco.numero_casa': ['O campo numero casa é obrigatório.'],
      'roles.0': ['O campo Permissões deve ser um dos valores: a.'],
    });
  });

  it('fills a {field} left in a custom text with the key, never with "_"', () => {
    const schema = z.object({ nome_fantasia: z.string({ error: () => MESSAGES.campoObrigatorio }) });
    expect(errorsOf(schema, {})).toEqual({ nome_fantasia: ['O campo nome fantasia é obrigatório.'] });
  });
});

describe('integers of paths and queries: decimal digits only', () => {
  const query = z.object(pageQuery);

  it('reads decimal digits and numbers', () => {
    expect(query.parse({ page: '7', size: '50' })).toEqual({ page: 7, size: 50 });
    expect(query.parse({ page: 3 })).toEqual({ page: 3, size: 25 });
    expect(query.parse({})).toEqual({ page: 1, size: 25 });
  });

  it.each(['0x7f', '1e3', ' 5', '-1', '1.5', '', 'abc', '+3', '0b11', 'Infinity'])('refuses %j with a catalogue text', (page) => {
    const errors = errorsOf(query, { page });
    expect(errors).toEqual({ page: ['O campo página deve ser um número inteiro.'] });
  });

  it('keeps the range rules after the digits', () => {
    expect(errorsOf(query, { page: '0' })).toEqual({ page: ['O campo página deve ser no mínimo 1.'] });
    expect(errorsOf(query, { page: '100001' })).toEqual({ page: ['O campo página deve ser no máximo 100.000.'] });
    expect(errorsOf(query, { size: '7' })).toEqual({ size: [message('tamanhoPaginaInvalido')] });
    expect(errorsOf(z.object({ id: decimalInteger('código') }), {})).toEqual({ id: ['O campo código é obrigatório.'] });
  });
});
