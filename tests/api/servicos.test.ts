import { beforeAll, describe, expect, it } from 'vitest';
import { call, twinUrl } from './http';
import { bearer } from './session';
import { concluirLogin } from '../../infra/local/segundo-fator-demo';

/** Services management by the Sefaz administrator: the catalogue, its flags and its display order. */

interface Servico {
  idModuloServico: number;
  descricao: string;
  ordem: number;
  ativo: boolean;
  portal: boolean;
}

let admin: string;
let cliente: string;

// The administrator has the demo second factor: the code step follows the password (issue 42).
const login = async (path: string, email: string) =>
  (await concluirLogin(twinUrl(), (await call(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'Plac@2026!' }) })).body as { token: string })).token;

beforeAll(async () => {
  admin = await login('/api/v1/authenticate/sefaz', 'admin@plac.local');
  cliente = await login('/api/v1/authenticate/cliente', 'cliente@plac.local');
});

const send = (method: string, path: string, token: string, body?: unknown) =>
  call(path, { method, headers: { 'content-type': 'application/json', ...bearer(token) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

const all = async () => (await send('GET', '/api/v1/service/all', admin)).body as Servico[];

describe('services', () => {
  it('seeds the catalogue in display order', async () => {
    const list = await all();
    expect(list.map((s) => s.descricao)).toEqual(
      expect.arrayContaining([
        'Consulta Fat-e por Chave de Acesso',
        'Consulta Fat-e por Composição de Dados',
        'Recebível em Avaliação',
        'Consulta Faturamento NFC-e',
        'Consulta Faturamento NF-e',
        'Monitoramento de Documentos',
        'Consulta Fat-e Transportadora',
        'Registro de Cessão',
        'Envio de Fat-e',
      ]),
    );
    expect(list.map((s) => s.ordem)).toEqual([...list.map((s) => s.ordem)].sort((a, b) => a - b));
  });

  it('changes the active and portal flags; inactive services leave the selectors', async () => {
    const [first] = await all();
    const off = await send('PUT', '/api/v1/service', admin, { idModuloServico: first!.idModuloServico, ativo: false, portal: false });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ idModuloServico: first!.idModuloServico, ativo: false, portal: false, descricao: first!.descricao });
    const selectors = await send('GET', '/api/v1/service', cliente);
    expect((selectors.body as { idModuloServico: number }[]).map((s) => s.idModuloServico)).not.toContain(first!.idModuloServico);

    expect((await send('PUT', '/api/v1/service/status', admin, { idModuloServico: first!.idModuloServico, ativo: true })).body).toMatchObject({ ativo: true, portal: false });
    expect((await send('PUT', '/api/v1/service/portal', admin, { idModuloServico: first!.idModuloServico, portal: true })).body).toMatchObject({ ativo: true, portal: true });
    expect((await send('PUT', '/api/v1/service/status', admin, { idModuloServico: 9999, ativo: true })).status).toBe(404);
  });

  it('saves a new order, which must list every service once', async () => {
    const before = await all();
    const ids = before.map((s) => s.idModuloServico);
    for (const lista of [ids.slice(1), [...ids, ids[0]], [...ids.slice(1), 9999]]) {
      const { status, body } = await send('POST', '/api/v1/service/ordem', admin, { lista });
      expect(status).toBe(400);
      expect(body).toMatchObject({ error: 'ordemServicosInvalida' });
    }
    expect((await all()).map((s) => s.idModuloServico)).toEqual(ids);

    const reversed = [...ids].reverse();
    const saved = await send('POST', '/api/v1/service/ordem', admin, { lista: reversed });
    expect(saved.status).toBe(200);
    expect((saved.body as Servico[]).map((s) => s.idModuloServico)).toEqual(reversed);
    expect((await all()).map((s) => [s.idModuloServico, s.ordem])).toEqual(reversed.map((id, i) => [id, i + 1]));
    // Back as it was.
    expect((await send('POST', '/api/v1/service/ordem', admin, { lista: ids })).status).toBe(200);
  });

  it('management is the administrator’s only', async () => {
    expect((await send('GET', '/api/v1/service/all', cliente)).status).toBe(403);
    expect((await send('POST', '/api/v1/service/ordem', cliente, { lista: [1] })).status).toBe(403);
  });
});
