import { randomInt } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Principal } from '@plac/shared/access';
import { addDays, monthOf, todayInBahia } from '@plac/shared/domain';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { esquecerCache } from '../../functions/consulta/chamador';
import { consumoDoCliente } from '../../functions/consumo';
import { carregarUf } from '../../functions/fate/carga';
import { eventoXml, nfeXml } from '../../functions/fate/fixtures/builder';
import { fatePorChave } from '../../functions/fate';
import { ingerir } from '../../functions/fate/service';
import { carregarFatesEmMassa, fatesPorEmissaoPagina } from '../../functions/fate/fate-store';
import type { FateRecord } from '../../functions/fate/store-entities';
import { cotaDoCliente } from '../../functions/platform/cota-integrador';
import { preencher } from '../../functions/platform/rate-limit';
import { autorizar, consentir, novoCliente, novoCnpj } from './consulta-kit';
import { call } from './http';
import { mtlsRequest } from './mtls';
import { bearer, tokenFor } from './session';

/**
 * National volume, part 1 (docs/data-model.md, "Fat-e: counters and links"): the range look-ups answer
 * from counters kept at ingestion, exactly once per Fat-e however it arrives; the carrier look-up pages
 * with a cursor bound to the caller and the query; the integrator quota answers 429.
 */

const twin = inject('twin');
const NFE = 'procNFe_v4.00.xsd';
const EVT = 'procEventoNFe_v1.00.xsd';
/** Sergipe: no other test loads it from the simulator (each UF has one NSU cursor). */
const UF = 'SE';
const CUF = '28';
/** Alagoas: re-deliveries from another UF's distribution (no test loads it from the simulator). */
const OUTRA_UF = 'AL';
const INST = '60701190';
const admin: Principal = { userId: 'volume-admin', name: 'Admin Volume', tipo: 'S', roles: ['sefaz_admin'] };

const inbox = (name: string, content: string) => writeFileSync(join(twin.dataDir, 'sefaz', UF, 'inbox', name), content);
const hoje = () => todayInBahia();

async function loteImportado(ultNSU: number, nsuFin: number) {
  const got = await call('/api/v1/processamento/lote', {
    method: 'POST',
    headers: { ...bearer(await tokenFor(admin)), 'content-type': 'application/json' },
    body: JSON.stringify({ sefaz: Number(CUF), fluxo: 'nfe', ultNSU, nsuFin }),
  });
  expect(got.status).toBe(200);
  return got.body as { contagem: { repetidos: number }; documentos: { chave?: string; nsu: string }[] };
}

async function cobradas(clienteId: string, servico: number): Promise<number> {
  return (await consumoDoCliente(clienteId, monthOf(new Date()))).filter((c) => c.servico === servico).reduce((s, c) => s + c.requisicoes, 0);
}

/** Every Fat-e of an issuer issued in the last 400 days, read page by page (the Fat-e items themselves). */
async function fatesDoEmitente(emitente: string): Promise<FateRecord[]> {
  const fates: FateRecord[] = [];
  let posicao: string | null = null;
  do {
    const pagina = await fatesPorEmissaoPagina({ emitenteCnpj: emitente }, `${addDays(hoje(), -400)}T00:00:00.000Z`, `${addDays(hoje(), 2)}T00:00:00.000Z`, 1000, posicao);
    fates.push(...pagina.fates);
    posicao = pagina.posicao;
  } while (posicao);
  return fates;
}

/** What services 4 and 5 answered before the counters: the issuer's active Fat-e of the model issued in the Bahia days, by month. */
function referencia(fates: FateRecord[], emitente: string, modelo: string, de: string, ate: string) {
  const [inicio, fim] = [`${de}T03:00:00.000Z`, `${addDays(ate, 1)}T03:00:00.000Z`];
  const contam = fates.filter((f) => f.emitenteCnpj === emitente && f.modelo === modelo && f.status === 'ATIVA' && f.emissao >= inicio && f.emissao < fim);
  const meses = new Map<string, { quantidade: number; valorTotal: number }>();
  for (const f of contam) {
    const m = meses.get(monthOf(f.emissao)) ?? { quantidade: 0, valorTotal: 0 };
    meses.set(monthOf(f.emissao), { quantidade: m.quantidade + 1, valorTotal: m.valorTotal + f.valorNota });
  }
  return {
    quantidade: contam.length,
    valorTotal: contam.reduce((s, f) => s + f.valorNota, 0),
    meses: [...meses].sort(([a], [b]) => a.localeCompare(b)).map(([mes, m]) => ({ mes, ...m })),
  };
}

let cliente: Awaited<ReturnType<typeof novoCliente>>;
beforeAll(async () => {
  cliente = await novoCliente('ESF');
  await autorizar(cliente, INST);
  esquecerCache();
  // The simulator's backlog of the UF: the demo's own documents.
  await carregarUf(UF);
}, 120_000);

describe('counters kept at ingestion', () => {
  it('count a Fat-e once when delivered three times and re-imported by batch import, and take it out once when cancelled', async () => {
    const emitente = novoCnpj();
    await consentir(emitente, INST);
    const emissao = `${addDays(hoje(), -10)}T10:00:00-03:00`;
    const nota = nfeXml({ cUF: CUF, numero: randomInt(1, 999_999_999), emitente, emissao });
    inbox(`volume-${nota.chave}.xml`, nota.xml);
    await carregarUf(UF);
    const fate = (await fatePorChave(nota.chave))!;
    const nsu = Number(fate.nsu);
    // Delivered again by another UF's distribution, twice, and re-imported by batch import, twice.
    await ingerir(OUTRA_UF, [{ nsu: String(900_000 + randomInt(1, 99_999)), schema: NFE, xml: nota.xml }]);
    await ingerir(OUTRA_UF, [{ nsu: String(900_000 + randomInt(1, 99_999)), schema: NFE, xml: nota.xml }]);
    expect((await loteImportado(nsu - 1, nsu)).contagem.repetidos).toBe(1);
    expect((await loteImportado(nsu - 1, nsu)).contagem.repetidos).toBe(1);

    const pedido = { cnpjBaseInstFin: INST, cnpjEmitente: emitente, dataInicio: addDays(hoje(), -30), dataFim: hoje() };
    const antes = await mtlsRequest('POST', '/api/v1/integracao/faturamento/1', { cert: cliente.cert, body: pedido });
    expect(antes).toMatchObject({ status: 200, body: { quantidade: 1, valorTotal: fate.valorNota, meses: [{ mes: monthOf(fate.emissao), quantidade: 1 }] } });

    inbox(`volume-cancelamento-${nota.chave}.xml`, eventoXml(nota.chave, '110111'));
    await carregarUf(UF);
    const evento = Number((await loteImportado(nsu, nsu + 1)).documentos.at(-1)!.nsu);
    expect((await loteImportado(evento - 1, evento)).contagem.repetidos).toBe(1);
    await ingerir(OUTRA_UF, [{ nsu: String(900_000 + randomInt(1, 99_999)), schema: EVT, xml: eventoXml(nota.chave, '110111') }]);
    expect((await fatePorChave(nota.chave))!.status).toBe('CANCELADA');
    expect(await mtlsRequest('POST', '/api/v1/integracao/faturamento/1', { cert: cliente.cert, body: pedido })).toMatchObject({
      status: 404,
      body: { error: 'faturamentoNaoEncontrado' },
    });
  }, 120_000);

  it('answer services 4 and 5 with the same figures as counting the demo documents themselves', async () => {
    // The UF's backlog re-imported by batch import (counted once more: not at all) names the demo's issuers.
    const documentos = [...(await loteImportado(0, 50)).documentos, ...(await loteImportado(50, 100)).documentos];
    const chaves = [...new Set(documentos.map((d) => d.chave).filter((c): c is string => !!c))];
    const doLote = (await Promise.all(chaves.map((c) => fatePorChave(c)))).filter((f): f is FateRecord => f !== null);
    expect(doLote.length).toBeGreaterThan(10);
    const emitentes = [...new Set(doLote.map((f) => f.emitenteCnpj))].slice(0, 4);
    const periodos = [
      [addDays(hoje(), -364), hoje()],
      [addDays(hoje(), -45), addDays(hoje(), -3)],
    ] as const;
    let comparados = 0;
    for (const emitente of emitentes) {
      await consentir(emitente, INST);
      for (const [tipo, modelo] of [['0', '65'], ['1', '55']] as const) {
        for (const [dataInicio, dataFim] of periodos) {
          // The demo's issuers deliver in several UFs, which other tests load meanwhile: the reference is
          // every Fat-e of the issuer, read before and after the look-up, and the look-up is compared only
          // when nothing arrived in between.
          for (let tentativa = 1; ; tentativa++) {
            const antes = referencia(await fatesDoEmitente(emitente), emitente, modelo, dataInicio, dataFim);
            const got = await mtlsRequest('POST', `/api/v1/integracao/faturamento/${tipo}`, {
              cert: cliente.cert,
              body: { cnpjBaseInstFin: INST, cnpjEmitente: emitente, dataInicio, dataFim },
            });
            const depois = referencia(await fatesDoEmitente(emitente), emitente, modelo, dataInicio, dataFim);
            if (JSON.stringify(antes) !== JSON.stringify(depois) && tentativa < 5) continue;
            if (depois.quantidade === 0) expect(got.status).toBe(404);
            else {
              expect(got).toMatchObject({ status: 200, body: depois });
              comparados++;
            }
            break;
          }
        }
      }
    }
    expect(comparados).toBeGreaterThan(0);
  }, 180_000);
});

describe('the carrier look-up in pages', () => {
  const transportador = novoCnpj();
  const TOTAL = 2_100;
  const chaves: string[] = [];
  const dataInicio = addDays(hoje(), -60);
  const dataFim = hoje();
  const consulta = (cursor?: string, fim = dataFim) =>
    `/api/v1/integracao/transportadora/${transportador}?dataInicio=${dataInicio}&dataFim=${fim}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;

  beforeAll(async () => {
    // 2,100 Fat-e naming the carrier (three pages of 1,000), in bulk as the loader and its counting
    // transaction leave them (links, counters, the carrier's registry; without the XML): one by one
    // through the loader's transactions they took a minute of the suite, and the loader's writes have tests of their own.
    const base = (await fatePorChave((await loteImportado(0, 50)).documentos.find((d) => d.chave)!.chave!))!;
    const agora = new Date().toISOString();
    const registros = Array.from({ length: TOTAL }, (_, i) => {
      const nota = nfeXml({ cUF: CUF, numero: randomInt(1, 999_999_999), emitente: novoCnpj(), emissao: `${addDays(hoje(), -1 - (i % 50))}T08:00:00-03:00` });
      chaves.push(nota.chave);
      const emissao = new Date(Date.parse(`${addDays(hoje(), -1 - (i % 50))}T08:00:00-03:00`) + i * 1000).toISOString();
      const { contagem: _c, expiresAt: _e, publicadoEm: _p, ...resto } = base;
      return { ...resto, chave: nota.chave, emissao, transportadorDoc: transportador, transportadorNome: 'TRANSPORTADORA VOLUME LTDA', createdAt: agora, updatedAt: agora };
    });
    await carregarFatesEmMassa(registros);
  }, 300_000);

  it('yields every Fat-e exactly once over three pages, each page charged once', async () => {
    const vistas: string[] = [];
    const tamanhos: number[] = [];
    let cursor: string | undefined;
    do {
      const got = await mtlsRequest('GET', consulta(cursor), { cert: cliente.cert });
      expect(got.status).toBe(200);
      const body = got.body as { fates: { chave: string }[]; nextCursor?: string };
      tamanhos.push(body.fates.length);
      vistas.push(...body.fates.map((f) => f.chave));
      cursor = body.nextCursor;
    } while (cursor);
    expect(tamanhos).toEqual([1000, 1000, TOTAL - 2000]);
    expect(vistas).toHaveLength(TOTAL);
    expect(new Set(vistas)).toEqual(new Set(chaves));
    expect(await cobradas(cliente.clienteId, 7)).toBe(3);
  }, 120_000);

  it('refuses another client’s cursor, a cursor of another query and an altered one with 400, charging nothing', async () => {
    const primeira = await mtlsRequest('GET', consulta(), { cert: cliente.cert });
    const cursor = (primeira.body as { nextCursor: string }).nextCursor;
    expect(cursor).toEqual(expect.any(String));
    const outro = await novoCliente('ESF');
    esquecerCache();
    const recusado = { status: 400, body: { error: 'cursorInvalido', message: 'O cursor de paginação é inválido para esta consulta.' } };
    expect(await mtlsRequest('GET', consulta(cursor), { cert: outro.cert })).toMatchObject(recusado);
    expect(await mtlsRequest('GET', consulta(cursor, addDays(hoje(), -1)), { cert: cliente.cert })).toMatchObject(recusado);
    const alterado = `${cursor.slice(0, 30)}${cursor[30] === 'A' ? 'B' : 'A'}${cursor.slice(31)}`;
    expect(await mtlsRequest('GET', consulta(alterado), { cert: cliente.cert })).toMatchObject(recusado);
    expect(await mtlsRequest('GET', consulta('não-é-cursor'), { cert: cliente.cert })).toMatchObject({ status: 400 });
    expect(await cobradas(outro.clienteId, 7)).toBe(0);
    // The portal's look-up binds its cursors to the user's client the same way.
    const web: Principal = { userId: `web-${outro.clienteId}`, name: 'Web', tipo: 'C', roles: ['cliente_web'], clienteId: outro.clienteId };
    const portal = await call(consulta(cursor).replace('/integracao', ''), { headers: bearer(await tokenFor(web)) });
    expect(portal).toMatchObject(recusado);
  }, 60_000);

  it('answers the carrier report from counters, paged with a cursor, and the admin’s carrier list by name', async () => {
    const h = { ...bearer(await tokenFor(admin)), 'content-type': 'application/json' };
    const mes = (dia: string) => `${dia.slice(5, 7)}/${dia.slice(0, 4)}`;
    const corpo = { cnpjTransportadora: transportador, dataFaturaIni: mes(addDays(hoje(), -60)), dataFaturaFim: mes(hoje()), perPage: 25 };
    const linhas: { dhRecbto: string; qtdFate: number; total: number }[] = [];
    let cursor: string | undefined;
    do {
      const got = await call('/api/v1/consulta/qtd-fate-transportadora', { method: 'POST', headers: h, body: JSON.stringify({ ...corpo, ...(cursor ? { cursor } : {}) }) });
      expect(got.status).toBe(200);
      const body = got.body as { linhas: typeof linhas; nextCursor?: string; totalGeral: number };
      expect(body.totalGeral).toBe(TOTAL);
      linhas.push(...body.linhas);
      cursor = body.nextCursor;
    } while (cursor);
    expect(linhas).toHaveLength(50);
    expect(linhas.reduce((s, l) => s + l.qtdFate, 0)).toBe(TOTAL);
    expect(new Set(linhas.map((l) => l.dhRecbto)).size).toBe(50);
    expect(linhas.every((l) => l.total === TOTAL)).toBe(true);

    const lista = await call(`/api/v1/consulta/transportadoras?nome=${encodeURIComponent('transportadora volume')}`, { headers: h });
    expect((lista.body as { items: { documento: string }[] }).items).toContainEqual({ documento: transportador, nome: 'TRANSPORTADORA VOLUME LTDA' });
  }, 60_000);
});

describe('the integrator quota', () => {
  it('answers 429 from the catalogue once the client has used its window, and charges nothing', async () => {
    const c = await novoCliente('ESF');
    const chave = (await loteImportado(0, 50)).documentos.find((d) => d.chave)!.chave!;
    expect((await mtlsRequest('GET', `/api/v1/integracao/fate/${chave}`, { cert: c.cert })).status).toBe(200);
    const cota = cotaDoCliente(c.clienteId);
    // The current window and the next (the request may cross a window's end), used up.
    await preencher(cota, cota.limit);
    await preencher(cota, cota.limit, Date.now() + cota.windowSeconds * 1000);
    const got = await mtlsRequest('GET', `/api/v1/integracao/fate/${chave}`, { cert: c.cert });
    expect(got).toMatchObject({ status: 429, body: { error: 'cotaExcedida', message: expect.stringMatching(/^Limite de requisições/) } });
    expect(await cobradas(c.clienteId, 1)).toBe(1);
    // Another client is not held back by it.
    expect((await mtlsRequest('GET', `/api/v1/integracao/fate/${chave}`, { cert: cliente.cert })).status).toBe(200);
  }, 60_000);
});
