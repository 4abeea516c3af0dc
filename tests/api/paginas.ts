import { expect } from 'vitest';

/**
 * Every page of a cursor-paged list, following nextCursor: `pedir(cursor)` asks for one page (undefined:
 * the first). Each page must answer 200; past `maximo` pages it fails (a cursor that never ends).
 */
export async function todasAsPaginas<T>(pedir: (cursor: string | undefined) => Promise<{ status: number; body: unknown }>, maximo = 200): Promise<T[][]> {
  const paginas: T[][] = [];
  let cursor: string | undefined;
  do {
    if (paginas.length === maximo) throw new Error(`more than ${maximo} pages`);
    const { status, body } = await pedir(cursor);
    expect(status, JSON.stringify(body)).toBe(200);
    const pagina = body as { items: T[]; nextCursor?: string };
    paginas.push(pagina.items);
    cursor = pagina.nextCursor;
  } while (cursor);
  return paginas;
}
