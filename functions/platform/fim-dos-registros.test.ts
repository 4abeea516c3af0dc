import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applicationTable } from '../../infra/lib/topology';
import { fontesDasFuncoes } from './fontes-do-codigo.test-util';

/**
 * An end date on every record (issue 38 item 5; docs/data-model.md, "Retention (issue 38)"). Every
 * ElectroDB entity of the application table has the table's TTL attribute among its attributes, or
 * says why its items are kept in a `Kept: …` comment in the comment block just above its `new Entity(`
 * (reference data, one item per client rewritten in place, a read-only view of items of before…). So a
 * new entity without an end date fails here until it is argued.
 *
 * Attributes are read from the source as written: inline, a constant of the same file (`attributes:
 * atributosX`), a spread of one (`...origem`) or of another entity's (`...fate.schema.attributes`).
 * A model declared as a constant of its own (`export const MODELO_X = { model: … }`, in a context's
 * modelos.ts, which tabela-direta.ts reads and writes without ElectroDB) is read there, with the
 * comment above it; the store's `new Entity(MODELO_X)` is that model, not another entity.
 */
const TTL = applicationTable.timeToLiveAttribute;

/** The entities that evidence something for a limited time (issue 38 item 5): they must end, a `Kept:` will not do. */
const COM_FIM = ['cessao', 'debitoPrepago', 'documentoErro', 'extratoPrepago', 'webhookEntrega', 'webhookMarcador', 'webhookTentativa'];

interface Entidade {
  arquivo: string;
  linha: number;
  nome: string;
  ttl: boolean;
  /** The text after `Kept:` in the comment block above, or null. */
  motivo: string | null;
}

const ehComentario = (l: string) => /^\s*(\/\/|\/\*|\*)/.test(l);
const temTtl = (texto: string) => new RegExp(`\\b${TTL}\\s*:`).test(texto);

/** The lines of a top-level declaration from `inicio` to its closing line (itself when it ends with `;`, else the first that starts with `}` or `)` at column 0). */
function declaracao(linhas: string[], inicio: number): string {
  if (/;\s*$/.test(linhas[inicio]!)) return linhas[inicio]!;
  const fim = linhas.findIndex((l, j) => j > inicio && /^[})]/.test(l));
  return linhas.slice(inicio, fim === -1 ? undefined : fim + 1).join('\n');
}

/** Whether an entity's attributes (the text from `new Entity(` to its `indexes:`) hold the TTL attribute, following the constants and spreads they name. */
function atributosComTtl(linhas: string[], texto: string, vistos: Set<string>): boolean {
  if (temTtl(texto)) return true;
  const nomes = [...texto.matchAll(/attributes:\s*([A-Za-z_$][\w$]*)\b/g), ...texto.matchAll(/\.\.\.([A-Za-z_$][\w$]*)/g)].map((m) => m[1]!);
  return nomes.some((nome) => {
    if (vistos.has(nome)) return false;
    vistos.add(nome);
    const i = linhas.findIndex((l) => new RegExp(`^(export )?const ${nome.replace(/\$/g, '\\$')}\\b`).test(l));
    if (i === -1) return false;
    const corpo = declaracao(linhas, i);
    // Another entity's attributes (`...x.schema.attributes`): that entity's own.
    const entidade = corpo.indexOf('new Entity(');
    return atributosComTtl(linhas, entidade === -1 ? corpo : corpo.slice(entidade, corpo.search(/\n\s*indexes:/)), vistos);
  });
}

/** An entity's declaration: `new Entity({ model: … })` written inline, or a model constant (`export const MODELO_X = {`). */
const declaraEntidade = (linha: string) => (linha.includes('new Entity(') && !/new Entity\(\s*MODELO_\w+\s*\)/.test(linha)) || /^export const MODELO_\w+ = \{/.test(linha);

/** Every `new Entity({ model: { entity: '<name>' … } })` or model constant of one source file, with its TTL and its reason to be kept. */
function entidadesDe(arquivo: string, fonte: string): Entidade[] {
  const linhas = fonte.split('\n');
  return linhas.flatMap((linha, i) => {
    if (!declaraEntidade(linha)) return [];
    const resto = linhas.slice(i).join('\n');
    const nome = /entity:\s*'([^']+)'/.exec(resto)?.[1] ?? '?';
    const indexes = resto.search(/\n\s*indexes:/);
    const ttl = atributosComTtl(linhas, indexes === -1 ? resto : resto.slice(0, indexes), new Set());
    // The declaration starts on this line, or on the line above when it is `const x = () =>` and the entity is on the next.
    let inicio = i;
    if (!/\b(const|let)\b/.test(linha) && i > 0 && /=>?\s*$/.test(linhas[i - 1]!)) inicio = i - 1;
    let topo = inicio;
    while (topo > 0 && ehComentario(linhas[topo - 1]!)) topo--;
    const bloco = linhas
      .slice(topo, inicio)
      .map((l) => l.replace(/^\s*(\/\*\*|\/\/|\*\/|\*)\s?/, '').replace(/\*\/\s*$/, ''))
      .join(' ');
    const motivo = /\bKept:\s*(.*)$/.exec(bloco)?.[1]?.trim() ?? null;
    return [{ arquivo, linha: i + 1, nome, ttl, motivo }];
  });
}

/**
 * The entities of every source file. A store's views name attribute constants of its context's
 * modelos.ts (`attributes: atributosX`, imported): they are looked up there, after the file's own.
 */
const fontes = fontesDasFuncoes();
const entidades = fontes.flatMap(({ arquivo, texto }) => {
  const modelos = fontes.find((f) => f.arquivo === join(dirname(arquivo), 'modelos.ts'));
  const comModelos = modelos && modelos.arquivo !== arquivo && texto.includes("from './modelos'") ? `${texto}\n${modelos.texto}` : texto;
  // Only the file's own declarations are its entities; the appended model constants are for the look-up.
  const proprias = texto.split('\n').length;
  return entidadesDe(arquivo, comModelos).filter((e) => e.linha <= proprias);
});
/** A reason is a sentence: a bare `Kept:` argues nothing. */
const argumentada = (e: Entidade) => e.ttl || (e.motivo !== null && e.motivo.split(/\s+/).length >= 4);

describe('an end date on every record', () => {
  it('reads the entities as written: inline, by constant, by spread, and the comment just above', () => {
    const fonte = [
      "const base = { criadoEm: { type: 'string' }, expiresAt: { type: 'number' } } as const;",
      '/** A thing. */',
      "const comTtl = new Entity({ model: { entity: 'a', version: '1', service: 's' }, attributes: { ...base },",
      '  indexes: {} });',
      "const semNada = new Entity({ model: { entity: 'b', version: '1', service: 's' }, attributes: { x: { type: 'string' } },",
      '  indexes: {} });',
      '/**',
      ' * The registry.',
      ' * Kept: reference data, edited by an administrator.',
      ' */',
      'const fabrica = () =>',
      "  new Entity({ model: { entity: 'c', version: '1', service: 's' }, attributes: { y: { type: 'string' } },",
      '  indexes: {} });',
      "const vista = new Entity({ model: { entity: 'd', version: '1', service: 's' }, attributes: { ...comTtl.schema.attributes },",
      '  indexes: {} });',
      '// Kept:',
      "const vazia = new Entity({ model: { entity: 'e', version: '1', service: 's' }, attributes: { z: { type: 'string' } },",
      '  indexes: {} });',
      '/** Kept: one per client, replaced in place. */',
      'export const MODELO_F = {',
      "  model: { entity: 'f', version: '1', service: 's' },",
      "  attributes: { w: { type: 'string' } },",
      '  indexes: {},',
      '} as const;',
      'const f = entidadeSobDemanda(() => new Entity(MODELO_F));',
      'export const MODELO_G = {',
      "  model: { entity: 'g', version: '1', service: 's' },",
      "  attributes: { expiresAt: { type: 'number' } },",
      '  indexes: {},',
      '} as const;',
    ].join('\n');
    const lidas = entidadesDe('x.ts', fonte);
    expect(lidas.map((e) => [e.nome, e.ttl, e.motivo])).toEqual([
      ['a', true, null],
      ['b', false, null],
      ['c', false, 'reference data, edited by an administrator.'],
      ['d', true, null],
      ['e', false, ''],
      ['f', false, 'one per client, replaced in place.'],
      ['g', true, null],
    ]);
    expect(lidas.filter((e) => !argumentada(e)).map((e) => e.nome)).toEqual(['b', 'e']);
  });

  it(`each has the table's TTL attribute (${TTL}) or a "Kept:" reason just above it`, () => {
    expect(entidades.length).toBeGreaterThan(90);
    const semArgumento: Record<string, string[]> = {};
    for (const e of entidades.filter((x) => !argumentada(x))) (semArgumento[e.arquivo] ??= []).push(e.nome);
    for (const nomes of Object.values(semArgumento)) nomes.sort();
    expect(semArgumento).toEqual({});
  });

  it('the records the issue names end: assignments, error documents, the webhook log, prepaid debits and statement lines', () => {
    const porNome = new Map<string, Entidade[]>();
    for (const e of entidades) porNome.set(e.nome, [...(porNome.get(e.nome) ?? []), e]);
    for (const nome of COM_FIM) {
      expect(porNome.get(nome)?.length, nome).toBeGreaterThan(0);
      // Every view of them too (a read-only view of items of before reads the same items).
      expect(porNome.get(nome)!.filter((e) => !e.ttl).map((e) => `${e.arquivo}:${e.linha}`), nome).toEqual([]);
    }
  });
});
