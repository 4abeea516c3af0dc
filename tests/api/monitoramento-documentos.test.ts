import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@plac/shared/access';
import { buildChaveAcesso, cnpjCheckDigits, foldText, monthOf } from '@plac/shared/domain';
import { MESSAGES } from '@plac/shared/messages';
import { putCliente } from '../../functions/clientes/store';
import { consumoDoCliente } from '../../functions/consumo';
import { callAs } from './http';

/**
 * The monitored keys API on the twin: add, list, remove; the key's validation; client ownership; the
 * 'Monitoramento de Documentos' metering (service 6) once per client, key and month.
 */
const sufixo = randomUUID().slice(0, 8);
const clienteA = `mon-a-${sufixo}`;
const clienteB = `mon-b-${sufixo}`;
const admin: Principal = { userId: 'mon-admin', name: 'Admin', tipo: 'S', roles: ['sefaz_admin'] };
const userA: Principal = { userId: `mon-user-a-${sufixo}`, name: 'Usuário A', tipo: 'C', roles: ['cliente'], clienteId: clienteA };
const gestor: Principal = { userId: 'mon-gestor', name: 'Gestor', tipo: 'S', roles: ['sefaz_gestor'] };

const emitente = `11222333${'0001'}${cnpjCheckDigits('112223330001')}`;
// UF PB (cUF 25) and RO (11): other UFs belong to other tests.
const chave = (n: number, cUF = 25) => buildChaveAcesso({ cUF, aamm: '2611', cnpj: emitente, mod: '55', serie: 1, nNF: n, cNF: 10_000_000 + n });

async function cliente(clienteId: string) {
  const at = new Date().toISOString();
  const cnpj = `${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}0001`;
  const razaoSocial = `CLIENTE MONITORAMENTO ${clienteId}`;
  await putCliente({
    clienteId, cnpj: cnpj + cnpjCheckDigits(cnpj), razaoSocial, razaoFolded: foldText(razaoSocial), tipoCliente: 'ESF', situacao: 'A',
    email: `${clienteId}@teste.local`, uf: 'PB', createdAt: at, updatedAt: at, updatedBy: 'teste',
  });
}

beforeAll(async () => {
  await cliente(clienteA);
  await cliente(clienteB);
});

const req = callAs;

const PATH = '/api/v1/monitoramento-documentos';
const servico6 = async (clienteId: string) => (await consumoDoCliente(clienteId, monthOf(new Date()))).filter((c) => c.servico === 6);

describe('monitored keys API', () => {
  it('a client user adds a key (printed in groups of 4), lists it and removes it; metered once per month', async () => {
    const k = chave(1);
    const grupos = k.match(/.{1,4}/g)!.join(' ');
    const criada = await req('POST', PATH, userA, { chave: grupos });
    expect(criada.status).toBe(201);
    expect(criada.body).toMatchObject({ message: MESSAGES.chaveMonitoradaCadastrada, chave: { chave: k, uf: 'PB', emitenteCnpj: emitente, modelo: '55', cadastradaPor: 'Usuário A' } });

    const lista = await req('GET', PATH, userA);
    expect(lista.body).toEqual({ total: 1, items: [expect.objectContaining({ chave: k })] });

    // The same key again: 409, nothing changes, nothing more charged.
    const repetida = await req('POST', PATH, userA, { chave: k });
    expect(repetida.status).toBe(409);
    expect(repetida.body).toMatchObject({ error: 'chaveJaMonitorada' });

    expect((await req('DELETE', `${PATH}/${k}`, userA)).body).toEqual({ message: MESSAGES.chaveMonitoradaRemovida });
    expect((await req('GET', PATH, userA)).body).toMatchObject({ total: 0, items: [] });
    expect((await req('DELETE', `${PATH}/${k}`, userA)).status).toBe(404);

    // Registered again in the same month: monitored again, still one charge.
    expect((await req('POST', PATH, userA, { chave: k })).status).toBe(201);
    expect(await servico6(clienteA)).toEqual([{ servico: 6, uf: 'PB', requisicoes: 1 }]);
  });

  it('refuses an invalid key with a pt-BR message and changes nothing', async () => {
    const k = chave(2, 11);
    const errada = k.slice(0, 43) + ((Number(k[43]) + 1) % 10);
    for (const invalida of [errada, k.slice(0, 43), 'abc', '']) {
      const r = await req('POST', PATH, userA, { chave: invalida });
      expect(r.status).toBe(400);
      expect(JSON.stringify(r.body)).toMatch(/chave de acesso/i);
    }
    expect((await req('POST', PATH, userA, {})).status).toBe(400);
    expect((await req('DELETE', `${PATH}/${errada}`, userA)).status).toBe(400);
    expect(((await req('GET', PATH, userA)).body as { items: { chave: string }[] }).items.map((i) => i.chave)).not.toContain(errada);
  });

  it('a client user works only on its own client; the administrator on the one it names', async () => {
    const k = chave(3, 11);
    expect((await req('GET', `${PATH}?idCliente=${clienteB}`, userA)).body).toMatchObject({ error: 'clienteNaoPermitido' });
    expect((await req('POST', PATH, userA, { idCliente: clienteB, chave: k })).status).toBe(403);
    expect((await req('DELETE', `${PATH}/${k}?idCliente=${clienteB}`, userA)).status).toBe(403);

    expect((await req('POST', PATH, admin, { chave: k })).body).toMatchObject({ error: 'monitoramentoClienteObrigatorio' });
    expect((await req('POST', PATH, admin, { idCliente: `nao-existe-${sufixo}`, chave: k })).status).toBe(404);
    expect((await req('POST', PATH, admin, { idCliente: clienteB, chave: k })).status).toBe(201);
    expect((await req('GET', `${PATH}?idCliente=${clienteB}`, admin)).body).toMatchObject({ total: 1, items: [{ chave: k, uf: 'RO', cadastradaPor: 'Admin' }] });
    // Client A does not see B's key, and cannot remove it.
    expect(((await req('GET', PATH, userA)).body as { items: { chave: string }[] }).items.map((i) => i.chave)).not.toContain(k);
    expect((await req('DELETE', `${PATH}/${k}?idCliente=${clienteB}`, admin)).status).toBe(200);
    expect((await req('GET', PATH, gestor)).status).toBe(403);
  });

  it('pages the list in key order by cursor over the client’s shards, each key once, with the total from the counts', async () => {
    const chaves = Array.from({ length: 23 }, (_, i) => chave(100 + i, 11));
    for (const k of chaves) expect((await req('POST', PATH, admin, { idCliente: clienteB, chave: k })).status).toBe(201);
    const vistas: string[] = [];
    let cursor: string | undefined;
    let paginas = 0;
    do {
      const r = await req('GET', `${PATH}?idCliente=${clienteB}&perPage=10${cursor ? `&cursor=${cursor}` : ''}`, admin);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const body = r.body as { items: { chave: string }[]; total: number; nextCursor?: string };
      expect(body.total).toBe(23);
      vistas.push(...body.items.map((i) => i.chave));
      cursor = body.nextCursor;
      paginas++;
    } while (cursor && paginas < 10);
    expect(paginas).toBe(3);
    expect(vistas).toEqual([...chaves].sort());
    // Another caller's cursor, or an altered one: 400, nothing read.
    const primeira = (await req('GET', `${PATH}?idCliente=${clienteB}&perPage=10`, admin)).body as { nextCursor: string };
    expect((await req('GET', `${PATH}?perPage=10&cursor=${primeira.nextCursor}`, userA)).status).toBe(400);
    expect((await req('GET', `${PATH}?idCliente=${clienteB}&perPage=25&cursor=${primeira.nextCursor}`, admin)).body).toMatchObject({ error: 'cursorInvalido' });
    // A removal takes it from the total.
    expect((await req('DELETE', `${PATH}/${chaves[0]}?idCliente=${clienteB}`, admin)).status).toBe(200);
    expect((await req('DELETE', `${PATH}/${chaves[0]}?idCliente=${clienteB}`, admin)).status).toBe(404);
    expect((await req('GET', `${PATH}?idCliente=${clienteB}&perPage=10`, admin)).body).toMatchObject({ total: 22 });
  });
});
