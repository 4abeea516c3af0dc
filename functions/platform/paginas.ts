import { porCodigo } from '@plac/shared/domain';
import { abrirCursor, proximoCursor } from './cursor';
import { invalid } from './errors';

/**
 * One page of a list read on the server (docs/architecture.md, "Lists"). A list reads one page of its
 * sources (key-range Queries) from the position the caller's cursor holds, never a whole partition:
 *
 * - `paginaEmSequencia`: sources that follow one another (disjoint key ranges in order, such as the
 *   months of a period, newest first): the position is the source and the store's cursor in it;
 * - `paginaIntercalada`: sources each sorted by the same key (the partitions of the institutions a
 *   client may see), merged by it: the position is the last item's sort key, from which every source
 *   resumes; an item found in several sources (equal key) is shown once.
 *
 * Without a residual filter (`aceita`) a page reads `perPage + 1` items per source, so `nextCursor` is
 * there only when more follow. With one (a filter no key holds, such as a part of a name) the page is
 * filled by a bounded loop: at most `LEITURAS_MAXIMAS` rounds of Queries of `LOTE_FILTRADO` items; a
 * page that is not full by then is answered short, with the cursor of where it stopped.
 */

export const LEITURAS_MAXIMAS = 5;
export const LOTE_FILTRADO = 200;

export interface Leitura<T> {
  data: T[];
  /** The store's cursor (ElectroDB's) of what follows; null at the end of the range. */
  cursor: string | null;
}

/** One key-range Query of a source, from `desde` (the store's cursor; undefined: the start), at most `limite` items. */
export type Ler<T> = (desde: string | undefined, limite: number) => Promise<Leitura<T>>;

export interface Pagina<T> {
  items: T[];
  /** The position of the next page (to seal with the caller's binding); null: the last page. */
  posicao: string | null;
}

interface Comum<T> {
  perPage: number;
  /** The filters no key holds; absent: every item read is listed. */
  aceita?: ((item: T) => boolean) | undefined;
  /** The position the caller's cursor held (abrirCursor), undefined for the first page. */
  posicao?: string | undefined;
}

function lerPosicao(posicao: string): unknown {
  try {
    return JSON.parse(posicao) as unknown;
  } catch {
    throw invalid('cursorInvalido');
  }
}

/**
 * Sources read one after another, each from its start (or the position) to its end. `apos(i, item)` is
 * the store's cursor just after `item` in source `i`, for a page that ends inside what was read.
 */
export async function paginaEmSequencia<T>(
  fontes: readonly Ler<T>[],
  apos: (fonte: number, item: T) => string,
  o: Comum<T>,
): Promise<Pagina<T>> {
  let fonte = 0;
  let desde: string | undefined;
  if (o.posicao !== undefined) {
    const p = lerPosicao(o.posicao);
    if (!Array.isArray(p) || !Number.isInteger(p[0]) || p[0] < 0 || p[0] >= fontes.length || !(p[1] === null || typeof p[1] === 'string')) throw invalid('cursorInvalido');
    fonte = p[0] as number;
    desde = (p[1] as string | null) ?? undefined;
  }
  const items: T[] = [];
  for (let rodada = 0; rodada < LEITURAS_MAXIMAS && items.length < o.perPage && fonte < fontes.length; rodada++) {
    const limite = o.aceita ? LOTE_FILTRADO : o.perPage - items.length + 1;
    const { data, cursor } = await fontes[fonte]!(desde, limite);
    let lidos = 0;
    for (const item of data) {
      lidos++;
      if (!o.aceita || o.aceita(item)) items.push(item);
      if (items.length === o.perPage) break;
    }
    if (lidos < data.length) desde = apos(fonte, data[lidos - 1]!);
    else if (cursor) desde = cursor;
    else {
      fonte++;
      desde = undefined;
    }
  }
  return { items, posicao: fonte < fontes.length ? JSON.stringify([fonte, desde ?? null]) : null };
}

/**
 * Sources sorted by one key, merged in that order. `chave(item)` is the item's sort key as plain JSON
 * data (the composite attributes of the sort key), `comparar` orders two keys as the sources return
 * them (reversed for a newest-first list), and `apos(i, chave)` is the store's cursor just after that
 * key in source `i` (the key need not exist there).
 */
export async function paginaIntercalada<T, K>(
  fontes: readonly Ler<T>[],
  o: Comum<T> & { chave: (item: T) => K; comparar: (a: K, b: K) => number; apos: (fonte: number, chave: K) => string; validarChave: (k: unknown) => k is K },
): Promise<Pagina<T>> {
  let ultima: K | undefined;
  if (o.posicao !== undefined) {
    const k = lerPosicao(o.posicao);
    if (!o.validarChave(k)) throw invalid('cursorInvalido');
    ultima = k;
  }
  const estado = fontes.map((_, i) => ({ buffer: [] as T[], desde: ultima === undefined ? undefined : o.apos(i, ultima), acabou: false }));
  const items: T[] = [];
  let rodadas = 0;
  while (items.length < o.perPage) {
    const vazias = estado.map((e, i) => ({ e, i })).filter(({ e }) => !e.acabou && e.buffer.length === 0);
    if (vazias.length > 0) {
      if (rodadas === LEITURAS_MAXIMAS) break;
      rodadas++;
      const limite = o.aceita ? LOTE_FILTRADO : o.perPage - items.length + 1;
      await Promise.all(
        vazias.map(async ({ e, i }) => {
          const { data, cursor } = await fontes[i]!(e.desde, limite);
          e.buffer = data;
          e.desde = cursor ?? undefined;
          e.acabou = !cursor;
        }),
      );
      continue;
    }
    let melhor: (typeof estado)[number] | undefined;
    for (const e of estado) {
      if (e.buffer.length > 0 && (!melhor || o.comparar(o.chave(e.buffer[0]!), o.chave(melhor.buffer[0]!)) < 0)) melhor = e;
    }
    if (!melhor) break;
    const item = melhor.buffer.shift()!;
    const k = o.chave(item);
    // The same item from a second source (or one not after the position): already taken.
    if (ultima !== undefined && o.comparar(k, ultima) <= 0) continue;
    ultima = k;
    if (!o.aceita || o.aceita(item)) items.push(item);
  }
  const mais = estado.some((e) => e.buffer.length > 0 || !e.acabou);
  return { items, posicao: mais && ultima !== undefined ? JSON.stringify(ultima) : null };
}

/**
 * What a cursor is bound to: the caller (user, and client for a client user), the route and the
 * normalised filters. Another caller's cursor, or one of another query, answers 400 'cursorInvalido'.
 */
export function vinculoDoCursor(principal: { userId: string; clienteId?: string | undefined }, rota: string, filtros: Record<string, unknown>): string {
  const normalizados = Object.fromEntries(
    Object.entries(filtros)
      .filter(([, v]) => v !== undefined && v !== null && v !== '')
      .sort(([a], [b]) => porCodigo(a, b)),
  );
  return `${principal.userId}|${principal.clienteId ?? ''}|${rota}|${JSON.stringify(normalizados)}`;
}

/** Opens the caller's cursor, reads the page from it and seals the next one: `{ items, nextCursor? }`. */
export async function paginaComCursor<T>(
  vinculo: string,
  cursor: string | undefined,
  ler: (posicao: string | undefined) => Promise<Pagina<T>>,
): Promise<{ items: T[]; nextCursor?: string }> {
  const posicao = cursor ? await abrirCursor(cursor, vinculo) : undefined;
  const pagina = await ler(posicao);
  const nextCursor = await proximoCursor(pagina.posicao, vinculo);
  return { items: pagina.items, ...(nextCursor ? { nextCursor } : {}) };
}
