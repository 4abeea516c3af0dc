import type { Principal } from '@plac/shared/access';
import { MESSAGES } from '@plac/shared/messages';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from './http';
import { sefazToken } from './people';
import { bearer, tokenFor } from './session';

/**
 * Banks of the revenue-sharing beneficiaries (spec 3, 2.6, 7.4, 8): seeded from the maintained list
 * of Brazilian banks, searched by code or name, registered and corrected by the administrator, with
 * 3-digit codes and 8-digit ISPBs, both unique. Only sefaz_admin.
 */

interface Banco {
  codigo: string;
  nome: string;
  ispb: string;
}

const gestor: Principal = { userId: 'bancos-gestor', name: 'Gestor', tipo: 'S', roles: ['sefaz_gestor'], uf: 'BA' };

let admin: string;
let naoAdmin: string;

beforeAll(async () => {
  admin = await sefazToken();
  naoAdmin = await tokenFor(gestor);
});

const send = (method: string, path: string, token: string, body?: unknown) =>
  call(path, { method, headers: { 'content-type': 'application/json', ...bearer(token) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

/** A free 3-digit code and 8-digit ISPB (the seeded list leaves many codes unused). */
async function livres(): Promise<{ codigo: string; ispb: string }> {
  const todos = (await send('GET', '/api/v1/beneficiado/bancos', admin)).body as Banco[];
  const codigos = new Set(todos.map((b) => b.codigo));
  const ispbs = new Set(todos.map((b) => b.ispb));
  let c = 900;
  while (codigos.has(String(c))) c++;
  let i = 90_000_000 + Math.floor(Math.random() * 9_000_000);
  while (ispbs.has(String(i))) i++;
  return { codigo: String(c), ispb: String(i) };
}

describe('banks', () => {
  it('are seeded from the maintained list, ordered by code, with 3-digit codes and 8-digit ISPBs', async () => {
    const { status, body } = await send('GET', '/api/v1/beneficiado/bancos', admin);
    expect(status).toBe(200);
    const bancos = body as Banco[];
    expect(bancos.length).toBeGreaterThan(200);
    expect(bancos.find((b) => b.codigo === '001')).toEqual({ codigo: '001', nome: 'Banco do Brasil S.A.', ispb: '00000000' });
    expect(bancos.every((b) => /^\d{3}$/.test(b.codigo) && /^\d{8}$/.test(b.ispb))).toBe(true);
    expect(bancos.map((b) => b.codigo)).toEqual([...bancos.map((b) => b.codigo)].sort());
  });

  it('are searched by code or by name; two characters or fewer answer all', async () => {
    const porCodigo = (await send('GET', '/api/v1/beneficiado/bancos/237', admin)).body as Banco[];
    expect(porCodigo.map((b) => b.codigo)).toContain('237');
    const porNome = (await send('GET', `/api/v1/beneficiado/bancos/${encodeURIComponent('amazônia')}`, admin)).body as Banco[];
    expect(porNome.map((b) => b.codigo)).toContain('003');
    const todos = (await send('GET', '/api/v1/beneficiado/bancos', admin)).body as Banco[];
    expect(((await send('GET', '/api/v1/beneficiado/bancos/ba', admin)).body as Banco[]).length).toBe(todos.length);
    expect((await send('GET', '/api/v1/beneficiado/bancos/zzzqqqxxx', admin)).body).toEqual([]);
  });

  it('registers a bank and corrects its name and ISPB, with the spec’s messages', async () => {
    const { codigo, ispb } = await livres();
    const criado = await send('POST', '/api/v1/beneficiado/bancos', admin, { codigo, nome: 'Banco de Teste S.A.', ispb });
    expect(criado.status, JSON.stringify(criado.body)).toBe(201);
    expect(criado.body).toEqual({ nome: 'Banco de Teste S.A.', message: 'Banco de Teste S.A. cadastrado com sucesso!' });

    const duplicado = await send('POST', '/api/v1/beneficiado/bancos', admin, { codigo, nome: 'Outro', ispb: '12345678' });
    expect(duplicado.status).toBe(409);
    expect(duplicado.body).toMatchObject({ error: 'bancoCodigoDuplicado', message: MESSAGES.bancoCodigoDuplicado });

    const outro = await livres();
    const ispbRepetido = await send('POST', '/api/v1/beneficiado/bancos', admin, { codigo: outro.codigo, nome: 'Outro', ispb });
    expect(ispbRepetido.status).toBe(409);
    expect(ispbRepetido.body).toMatchObject({ error: 'bancoIspbDuplicado' });
    expect(((await send('GET', `/api/v1/beneficiado/bancos/${outro.codigo}`, admin)).body as Banco[]).find((b) => b.codigo === outro.codigo)).toBeUndefined();

    const alterado = await send('PUT', '/api/v1/beneficiado/bancos', admin, { codigo, nome: 'Banco de Teste Renomeado S.A.', ispb: outro.ispb });
    expect(alterado.status, JSON.stringify(alterado.body)).toBe(200);
    expect(alterado.body).toEqual({ nome: 'Banco de Teste Renomeado S.A.', message: 'Banco de Teste Renomeado S.A. atualizado com sucesso!' });
    const lido = ((await send('GET', `/api/v1/beneficiado/bancos/${codigo}`, admin)).body as Banco[]).find((b) => b.codigo === codigo);
    expect(lido).toEqual({ codigo, nome: 'Banco de Teste Renomeado S.A.', ispb: outro.ispb });
    // The old ISPB is free again; the new one is taken.
    const { codigo: terceiro } = await livres();
    expect((await send('POST', '/api/v1/beneficiado/bancos', admin, { codigo: terceiro, nome: 'Terceiro', ispb })).status).toBe(201);
    expect((await send('POST', '/api/v1/beneficiado/bancos', admin, { codigo: String(Number(terceiro) + 1).padStart(3, '0'), nome: 'Quarto', ispb: outro.ispb })).status).toBe(409);
  });

  it('refuses a code that is not 3 digits, an ISPB that is not 8 digits, a missing name; a PUT of an unknown code', async () => {
    const bad = async (body: unknown, field: string, text: string) => {
      const r = await send('POST', '/api/v1/beneficiado/bancos', admin, body);
      expect(r.status).toBe(400);
      expect((r.body as { errors: Record<string, string[]> }).errors[field]).toContain(text);
    };
    await bad({ codigo: '12', nome: 'X', ispb: '12345678' }, 'codigo', MESSAGES.bancoCodigoInvalido);
    await bad({ codigo: '12a', nome: 'X', ispb: '12345678' }, 'codigo', MESSAGES.bancoCodigoInvalido);
    await bad({ codigo: '123', nome: 'X', ispb: '1234567890' }, 'ispb', MESSAGES.bancoIspbInvalido);
    await bad({ codigo: '123', nome: '  ', ispb: '12345678' }, 'nome', 'O campo Nome é obrigatório.');
    const { codigo, ispb } = await livres();
    const r = await send('PUT', '/api/v1/beneficiado/bancos', admin, { codigo, nome: 'Nenhum', ispb });
    expect(r.status).toBe(404);
  });

  it('are for the administrator only', async () => {
    expect((await send('GET', '/api/v1/beneficiado/bancos', naoAdmin)).status).toBe(403);
    expect((await send('POST', '/api/v1/beneficiado/bancos', naoAdmin, { codigo: '998', nome: 'X', ispb: '12345678' })).status).toBe(403);
  });
});
