import { beforeAll, describe, expect, it } from 'vitest';
import { abrirCursor, proximoCursor, selarCursor } from './cursor';
import { HttpError } from './errors';

beforeAll(() => {
  process.env.TOKEN_SECRET ??= 'unit-test-secret-unit-test-secret';
});

const rejected = async (p: Promise<unknown>) => {
  const error = await p.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(HttpError);
  expect((error as HttpError).status).toBe(400);
  expect((error as HttpError).key).toBe('cursorInvalido');
};

describe('page cursors', () => {
  it('give back the position to the same caller and query', async () => {
    const c = await selarCursor('{"pk":"a","sk":"b"}', 'cliente-1|q');
    expect(await abrirCursor(c, 'cliente-1|q')).toBe('{"pk":"a","sk":"b"}');
  });

  it('refuse another caller, another query and any edit', async () => {
    const c = await selarCursor('posicao', 'cliente-1|q');
    await rejected(abrirCursor(c, 'cliente-2|q'));
    await rejected(abrirCursor(c, 'cliente-1|outra'));
    const edited = (c[20] === 'A' ? 'B' : 'A');
    await rejected(abrirCursor(c.slice(0, 20) + edited + c.slice(21), 'cliente-1|q'));
    await rejected(abrirCursor('nao-e-um-cursor', 'cliente-1|q'));
    await rejected(abrirCursor('', 'cliente-1|q'));
  });

  it('answer no next cursor on the last page', async () => {
    expect(await proximoCursor(null, 'x')).toBeUndefined();
    expect(typeof (await proximoCursor('p', 'x'))).toBe('string');
  });
});
