import { describe, expect, it } from 'vitest';
import { HttpError } from './errors';
import { LEITURAS_MAXIMAS, paginaEmSequencia, paginaIntercalada, type Ler } from './paginas';

/** A sorted in-memory partition read like a Query: the cursor is the index of the next item. */
function particao(items: readonly number[], leituras: { n: number } = { n: 0 }): Ler<number> {
  return async (desde, limite) => {
    leituras.n++;
    const inicio = desde === undefined ? 0 : Number(desde);
    const data = items.slice(inicio, inicio + limite);
    return { data, cursor: inicio + limite < items.length ? String(inicio + limite) : null };
  };
}

async function todasSequencia(fontes: number[][], perPage: number, aceita?: (n: number) => boolean) {
  const paginas: number[][] = [];
  let posicao: string | undefined;
  for (let guard = 0; guard < 1000; guard++) {
    const p = await paginaEmSequencia(
      fontes.map((f) => particao(f)),
      (i, item) => String(fontes[i]!.indexOf(item) + 1),
      { perPage, aceita, posicao },
    );
    paginas.push(p.items);
    if (!p.posicao) break;
    posicao = p.posicao;
  }
  return paginas;
}

async function todasIntercaladas(fontes: number[][], perPage: number, aceita?: (n: number) => boolean) {
  const paginas: number[][] = [];
  let posicao: string | undefined;
  for (let guard = 0; guard < 1000; guard++) {
    const p = await paginaIntercalada(
      fontes.map((f) => particao(f)),
      {
        perPage,
        aceita,
        posicao,
        chave: (n) => n,
        comparar: (a, b) => a - b,
        // The first index holding a larger number: "just after" a key that need not be there.
        apos: (i, k) => String(fontes[i]!.filter((n) => n <= k).length),
        validarChave: (k): k is number => typeof k === 'number',
      },
    );
    paginas.push(p.items);
    if (!p.posicao) break;
    posicao = p.posicao;
  }
  return paginas;
}

const range = (a: number, b: number) => Array.from({ length: b - a }, (_, i) => a + i);

describe('server pages', () => {
  it('in sequence: every item once, pages full but the last, no empty last page when the count is a multiple', async () => {
    const paginas = await todasSequencia([range(0, 7), range(7, 20)], 5);
    expect(paginas.flat()).toEqual(range(0, 20));
    expect(paginas.map((p) => p.length)).toEqual([5, 5, 5, 5]);
    expect(await todasSequencia([[], range(0, 3), []], 10)).toEqual([[0, 1, 2]]);
  });

  it('in sequence with a residual filter: every match once', async () => {
    const paginas = await todasSequencia([range(0, 500), range(500, 1500)], 10, (n) => n % 7 === 0);
    expect(paginas.flat()).toEqual(range(0, 1500).filter((n) => n % 7 === 0));
  });

  it('a selective filter stops after a bounded number of reads and answers a short page with a cursor', async () => {
    const leituras = { n: 0 };
    const p = await paginaEmSequencia([particao(range(0, 100_000), leituras)], () => 'x', { perPage: 10, aceita: (n) => n === 99_999 });
    expect(leituras.n).toBe(LEITURAS_MAXIMAS);
    expect(p.items).toEqual([]);
    expect(p.posicao).not.toBeNull();
  });

  it('merged: in key order, an item of two sources once, across page boundaries too', async () => {
    const a = [1, 3, 5, 7, 9, 11];
    const b = [2, 3, 4, 5, 10, 11, 12];
    const c = [5, 6];
    for (const perPage of [1, 2, 3, 5, 100]) {
      const paginas = await todasIntercaladas([a, b, c], perPage);
      expect(paginas.flat(), String(perPage)).toEqual([...new Set([...a, ...b, ...c])].sort((x, y) => x - y));
      expect(paginas.slice(0, -1).every((p) => p.length === perPage), String(perPage)).toBe(true);
    }
    expect((await todasIntercaladas([a, b], 4, (n) => n % 2 === 1)).flat()).toEqual([1, 3, 5, 7, 9, 11]);
    expect(await todasIntercaladas([], 10)).toEqual([[]]);
  });

  it('a position that is not one of ours is 400 cursorInvalido', async () => {
    const error = await paginaEmSequencia([particao([1])], () => '', { perPage: 1, posicao: '[7,null]' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).key).toBe('cursorInvalido');
  });
});
