import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Principal } from '@plac/shared/access';
import { todayInBahia, formatDate, type Uf } from '@plac/shared/domain';
import { carregarUf } from '../../functions/fate/carga';
import { consultarDistribuicao } from '../../functions/fate/distribuicao';
import { eventoXml, nfeXml } from '../../functions/fate/fixtures/builder';
import { parseDocumento } from '../../functions/fate/parse';
import { fatePorChave } from '../../functions/fate';
import { gravarDocumentoErro } from '../../functions/fate/documentos-erro-store';
import { sefazLoadStateMachine } from '../../infra/lib/topology';
import { ensureLocalPki } from '../../infra/local/emulators/tls';
import { freePort } from '../../infra/local/emulators/ports';
import { startSefazSimulator, type SefazSimulator } from '../../infra/local/sefaz/simulator';
import { localStateMachines } from '../../infra/local/state-machines';
import { call } from './http';
import { bearer, tokenFor } from './session';

/**
 * The Fat-e data plane end to end on the twin: files dropped in the Sefaz simulator's inbox go through
 * one run of the Sefaz load state machine into the store and out through the API; a load stopped
 * mid-batch resumes without losing or duplicating; a 656 makes the loader wait.
 */

const twin = inject('twin');
const admin: Principal = { userId: 'loads-admin', name: 'Admin Cargas', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
const gestorBa: Principal = { userId: 'loads-gestor', name: 'Gestor BA', tipo: 'S', roles: ['sefaz_gestor'], uf: 'BA' };
const monitor: Principal = { userId: 'loads-monitor', name: 'Monitor', tipo: 'C', roles: ['cliente_monitoramento'], clienteId: 'demo-esf' };
const hoje = formatDate(todayInBahia());

/** One cycle of the Sefaz load, as the schedule starts it, over the given UFs only. */
async function cicloDeCarga(ufs: Uf[]) {
  const before = process.env.PLAC_SEFAZ_UFS;
  process.env.PLAC_SEFAZ_UFS = ufs.join(',');
  try {
    return await localStateMachines().get(sefazLoadStateMachine.id)!.execute({ trigger: 'test' });
  } finally {
    if (before === undefined) delete process.env.PLAC_SEFAZ_UFS;
    else process.env.PLAC_SEFAZ_UFS = before;
  }
}

/** No stack frame, server path or source position in an answer (issue 27 item 2). */
function semInternos(body: unknown) {
  const text = JSON.stringify(body);
  expect(text).not.toContain('/work/');
  expect(text).not.toContain('/var/task');
  expect(text).not.toMatch(/\.(ts|js|mjs|cjs):\d/);
  expect(text).not.toMatch(/(^|\\n|")\s*at [\w.<>$]+ \(/);
  expect(text).not.toMatch(/\\n\s+at /);
}

const inbox = (uf: Uf, name: string, content: string | Buffer) => writeFileSync(join(twin.dataDir, 'sefaz', uf, 'inbox', name), content);

describe('documents dropped in a UF inbox', () => {
  it('become a Fat-e with its instalments in one load cycle, and its cancellation, dropped next, cancels it', async () => {
    await cicloDeCarga(['MS']);
    const nota = nfeXml({
      cUF: '50',
      numero: 90_001,
      emissao: '2026-11-20T10:00:00-03:00',
      duplicatas: [
        ['001', '2026-12-20', '100.00'],
        ['002', '2027-01-20', '150.50'],
      ],
      vLiq: '250.50',
      vNF: '250.50',
    });
    inbox('MS', 'nota.xml', nota.xml);
    const { output } = await cicloDeCarga(['MS']);
    expect(output).toMatchObject({ ufs: 1, fate: 1 });
    expect(await fatePorChave(nota.chave)).toMatchObject({
      status: 'ATIVA',
      uf: 'MS',
      duplicatas: [
        { numero: '001', vencimento: '2026-12-20', valor: 10000 },
        { numero: '002', vencimento: '2027-01-20', valor: 15050 },
      ],
    });

    inbox('MS', 'cancelamento.xml', eventoXml(nota.chave));
    expect((await cicloDeCarga(['MS'])).output).toMatchObject({ eventos: 1 });
    expect(await fatePorChave(nota.chave)).toMatchObject({ status: 'CANCELADA' });

    // The monitoring shows the UF caught up, with the status of its last answer.
    const token = await tokenFor(admin);
    const { status, body } = await call('/api/v1/processamento/monitoramento', { headers: bearer(token) });
    expect(status).toBe(200);
    const ms = (body as { resumo: { sigla: string; cStat: string; ultNSU: string; nsuMax: string; carregado: number }[] }).resumo.find((r) => r.sigla === 'MS')!;
    expect(ms).toMatchObject({ carregado: 100 });
    expect(['137', '138']).toContain(ms.cStat);
    expect(ms.ultNSU).toBe(ms.nsuMax);
  });

  it('counts what the loads stored in the history by day, month and period; events are the administrator’s', async () => {
    await cicloDeCarga(['MS']);
    const dia = todayInBahia();
    const monitorToken = await tokenFor(monitor);
    const serieDe = (body: unknown, sigla: string) =>
      (body as { serie: { sigla: string; valores: number[] }[] }).serie.find((x) => x.sigla === sigla)!.valores.reduce((a, b) => a + b, 0);

    const porDia = await call(`/api/v1/processamento/historico/dia/${dia}/${dia}?fluxo=nfe`, { headers: bearer(monitorToken) });
    expect(porDia.status).toBe(200);
    expect((porDia.body as { dias: string[] }).dias).toEqual([dia]);
    expect(serieDe(porDia.body, 'MS')).toBeGreaterThan(0);
    const porMes = await call(`/api/v1/processamento/historico/mes/${dia.slice(0, 7)}`, { headers: bearer(monitorToken) });
    // Today is one of the month's days: the month holds at least today's documents.
    expect(serieDe(porMes.body, 'MS')).toBeGreaterThanOrEqual(serieDe(porDia.body, 'MS'));
    const periodo = await call(`/api/v1/processamento/historico/periodo/${dia.slice(0, 7)}/${dia.slice(0, 7)}`, { headers: bearer(monitorToken) });
    expect(serieDe(periodo.body, 'MS')).toBe(serieDe(porMes.body, 'MS'));

    expect((await call(`/api/v1/processamento/historico/dia/${dia}/${dia}?tipo=eventos`, { headers: bearer(monitorToken) })).status).toBe(403);
    const admin = await tokenFor({ userId: 'loads-admin-2', name: 'Admin', tipo: 'S', roles: ['sefaz_admin'] });
    expect((await call(`/api/v1/processamento/historico/dia/${dia}/${dia}?tipo=eventos`, { headers: bearer(admin) })).status).toBe(200);
    const longe = await call('/api/v1/processamento/historico/dia/2026-01-01/2026-06-01', { headers: bearer(admin) });
    expect(longe).toMatchObject({ status: 400, body: { message: 'Selecione um período de, no máximo, 90 dias.' } });
    const invertido = await call('/api/v1/processamento/historico/periodo/2026-10/2026-09', { headers: bearer(admin) });
    expect(invertido).toMatchObject({ status: 400, body: { message: 'Data Início maior que Data Fim.' } });
  });

  it('keep a malformed document as an error document whose XML downloads byte-identical, and that can be deleted', async () => {
    // Latin-1 bytes and no closing tags: not XML, and not UTF-8 either.
    const bytes = Buffer.concat([Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><nfeProc><NFe><infNFe><emit><xNome>A'), Buffer.from([0xe7, 0xe3]), Buffer.from('o')]);
    inbox('MT', 'quebrado.xml', bytes);
    await cicloDeCarga(['MT']);

    const token = await tokenFor(admin);
    const query = `UFOrigem=MT&dataInicio=${encodeURIComponent(hoje)}&dataFim=${encodeURIComponent(hoje)}&perPage=100`;
    const list = await call(`/api/v1/documentos-erro?${query}`, { headers: bearer(token) });
    expect(list.status).toBe(200);
    const items = (list.body as { items: { id: string; excecao: string; erro: string; uf: string }[] }).items;
    const doc = items.find((d) => d.excecao === 'XmlMalformado');
    expect(doc).toMatchObject({ uf: 'MT' });
    // The parser's message and the position in the document; no stack, path or internal name (issue 27 item 2).
    expect((doc as unknown as { detalhe: string }).detalhe).toMatch(/\(linha \d+, coluna \d+\)$/);
    expect(doc).not.toHaveProperty('trace');
    semInternos(list.body);

    const download = await call(`/api/v1/documentos-erro/${doc!.id}/download`, { headers: bearer(token) });
    expect(download.status).toBe(200);
    expect(Buffer.from((download.body as { conteudoBase64: string }).conteudoBase64, 'base64').equals(bytes)).toBe(true);

    // A manager of another UF neither lists, downloads nor deletes it.
    const gestor = await tokenFor(gestorBa);
    expect((await call(`/api/v1/documentos-erro?${query}`, { headers: bearer(gestor) })).status).toBe(403);
    expect((await call(`/api/v1/documentos-erro/${doc!.id}/download`, { headers: bearer(gestor) })).status).toBe(404);
    expect((await call(`/api/v1/documentos-erro/${doc!.id}`, { method: 'DELETE', headers: bearer(gestor) })).status).toBe(404);

    const removed = await call(`/api/v1/documentos-erro/${doc!.id}`, { method: 'DELETE', headers: bearer(token) });
    expect(removed).toMatchObject({ status: 200, body: { message: 'Remoção realizada com sucesso.' } });
    semInternos(removed.body);
    const after = await call(`/api/v1/documentos-erro?${query}`, { headers: bearer(token) });
    expect((after.body as { items: { id: string }[] }).items.map((d) => d.id)).not.toContain(doc!.id);
    expect((await call(`/api/v1/documentos-erro/${doc!.id}`, { method: 'DELETE', headers: bearer(token) })).status).toBe(404);
  });
});

describe('error documents answer no internals (issue 27 item 2)', () => {
  it('a stored item of before the fix that still holds the server stack: the list never answers it; no answer of the route carries a frame or a path', async () => {
    // February 2025 in Roraima: no other test writes there.
    const nsu = '000000000777001';
    const id = `RR-${nsu}`;
    await gravarDocumentoErro({
      id, tipo: 'procNFe_v4.00.xsd', uf: 'RR', nsu, excecao: 'EsquemaInvalido', erro: 'O documento não segue o leiaute procNFe_v4.00.xsd: ide.cUF: obrigatório.',
      trace: 'DocumentoInvalido: EsquemaInvalido\n    at validar (/work/main/functions/fate/parse-rules.ts:68:9)\n    at nfe (file:///var/task/index.mjs:1:2)',
      xmlKey: `sefaz/RR/${nsu}.xml.gz`, createdAt: '2025-02-10T12:00:00.000Z',
    });
    const token = await tokenFor(admin);
    const q = 'dataInicio=01%2F02%2F2025&dataFim=28%2F02%2F2025&perPage=10';
    const list = await call(`/api/v1/documentos-erro?UFOrigem=RR&${q}`, { headers: bearer(token) });
    expect(list.status).toBe(200);
    const [item] = (list.body as { items: Record<string, unknown>[] }).items;
    expect(item).toMatchObject({ id, detalhe: '' });
    expect(item).not.toHaveProperty('trace');
    semInternos(list.body);
    semInternos((await call(`/api/v1/documentos-erro?${q}`, { headers: bearer(token) })).body);
    // Its XML was never stored: the download's 404 says nothing of the server either.
    const download = await call(`/api/v1/documentos-erro/${id}/download`, { headers: bearer(token) });
    expect(download.status).toBe(404);
    semInternos(download.body);
    const removed = await call(`/api/v1/documentos-erro/${id}`, { method: 'DELETE', headers: bearer(token) });
    expect(removed.status).toBe(200);
    semInternos(removed.body);
  });
});

describe('the transport distribution (CT-e)', () => {
  it('turns a billed CT-e dropped in the UF’s CT-e inbox into a Fat-e of the carrier, cancels it with its event, and monitors the stream apart', async () => {
    await cicloDeCarga(['BA']);
    const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../../functions/fate/fixtures', name));
    const chave = '29260811222333000181570010000043211556677884';
    writeFileSync(join(twin.dataDir, 'sefaz', 'BA', 'cte', 'inbox', 'cte.xml'), fixture('cte-2-duplicatas.xml'));
    await cicloDeCarga(['BA']);
    expect(await fatePorChave(chave)).toMatchObject({ modelo: '57', status: 'ATIVA', emitenteCnpj: '11222333000181', transportadorDoc: '11222333000181' });

    writeFileSync(join(twin.dataDir, 'sefaz', 'BA', 'cte', 'inbox', 'cancelamento.xml'), fixture('evento-cte-cancelamento.xml'));
    await cicloDeCarga(['BA']);
    expect(await fatePorChave(chave)).toMatchObject({ status: 'CANCELADA' });

    const token = await tokenFor(admin);
    const cte = await call('/api/v1/processamento/monitoramento?fluxo=cte', { headers: bearer(token) });
    const nfe = await call('/api/v1/processamento/monitoramento?fluxo=nfe', { headers: bearer(token) });
    const ba = (body: unknown) => (body as { resumo: { sigla: string; nsuMax: string }[] }).resumo.find((r) => r.sigla === 'BA')!;
    expect(Number(ba(cte.body).nsuMax)).toBeGreaterThan(0);
    expect(ba(cte.body).nsuMax).not.toBe(ba(nfe.body).nsuMax);

    // The batch import reads the transport stream when asked: the dropped CT-e is its NSU after the backlog.
    const lote = await call('/api/v1/processamento/lote', {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: JSON.stringify({ sefaz: 29, fluxo: 'cte', ultNSU: Number(ba(cte.body).nsuMax) - 2, nsuFin: Number(ba(cte.body).nsuMax) }),
    });
    expect(lote.status).toBe(200);
    expect(lote.body).toMatchObject({ fluxo: 'cte', contagem: { repetidos: 2 } });
    expect((lote.body as { documentos: { chave?: string }[] }).documentos.map((d) => d.chave)).toEqual([chave, chave]);
  });
});

describe('a load stopped mid-batch', () => {
  it('loses and duplicates nothing when run again: the Fat-e are the distinct valid keys served', async () => {
    const uf: Uf = 'GO';
    let vistos = 0;
    await expect(
      carregarUf(uf, {
        hooks: {
          aposGravar: () => {
            vistos += 1;
            if (vistos === 23) throw new Error('loader killed (injected by the test)');
          },
        },
      }),
    ).rejects.toThrow('loader killed');
    const retomada = await carregarUf(uf);
    expect(retomada.situacao).toBe('carregada');

    // Every NSU the simulator serves, read again: the distinct keys of the valid NF-e with a bill.
    const chaves = new Set<string>();
    let ultNSU = 0;
    for (;;) {
      const r = await consultarDistribuicao(uf, { ultNSU });
      for (const d of r.documentos) {
        try {
          const doc = parseDocumento(d);
          if (doc.kind === 'nfe') chaves.add(doc.chave);
        } catch {
          // an error document: no Fat-e
        }
      }
      if (r.cStat === '137' || r.ultNSU === r.maxNSU) break;
      ultNSU = Number(r.ultNSU);
    }
    expect(chaves.size).toBeGreaterThan(30);
    const encontradas = await Promise.all([...chaves].map((c) => fatePorChave(c)));
    expect(encontradas.filter(Boolean)).toHaveLength(chaves.size);
    // Nothing twice: a repeated run adds nothing.
    expect(await carregarUf(uf)).toMatchObject({ fate: 0, eventos: 0, resumos: 0, erros: 0 });
  });

  it('is retried by the state machine from the UF’s committed NSU', async () => {
    const before = process.env.PLAC_SEFAZ_UFS;
    process.env.PLAC_SEFAZ_UFS = 'ES';
    let falhas = 0;
    try {
      const { output, events } = await localStateMachines()
        .get(sefazLoadStateMachine.id)!
        .execute(
          {},
          {
            wrap: (state, invoke) => async (input) => {
              if (state === 'LoadSefaz' && falhas === 0) {
                falhas += 1;
                throw new Error('Lambda timed out (injected by the test)');
              }
              return invoke(input);
            },
          },
        );
      expect(falhas).toBe(1);
      expect(events.some((e) => e.type === 'StateRetried')).toBe(true);
      expect(output).toMatchObject({ ufs: 1, recusadas: [] });
    } finally {
      if (before === undefined) delete process.env.PLAC_SEFAZ_UFS;
      else process.env.PLAC_SEFAZ_UFS = before;
    }
  });
});

describe('faults of a Sefaz', () => {
  // A simulator of this file's own, so its faults touch no other test; the loader is pointed at it.
  let simulator: SefazSimulator;
  let twinSefazUrl: string;
  beforeAll(async () => {
    const pki = await ensureLocalPki(twin.dataDir);
    const trustDir = twin.env.PLAC_LOCAL_TRUST_DIR!;
    simulator = await startSefazSimulator({
      port: await freePort(),
      dataDir: join(twin.dataDir, 'faults'),
      ufs: ['AP', 'AC', 'PA'],
      backlog: 20,
      trickle: false,
      faults: { AC: 'stall' },
      stallHours: { AC: 27 },
      // Client certificates of the twin's test ICP-Brasil (the platform's e-CNPJ), as the twin's simulator asks.
      tls: { key: pki.serverKeyPem, cert: pki.serverCertPem, ca: [pki.caCertPem, ...readdirSync(trustDir).map((f) => readFileSync(join(trustDir, f), 'utf8'))] },
    });
    twinSefazUrl = process.env.PLAC_SEFAZ_URL!;
    process.env.PLAC_SEFAZ_URL = simulator.url;
  });
  afterAll(async () => {
    process.env.PLAC_SEFAZ_URL = twinSefazUrl;
    await simulator.stop();
  });

  it('656: the loader records it and waits an hour before asking that Sefaz again', async () => {
    simulator.setFault('AP', '656');
    expect(await carregarUf('AP')).toMatchObject({ situacao: 'aguardando', cStat: '656', chamadas: 1 });
    simulator.setFault('AP', null);
    // Within the hour: not asked at all.
    expect(await carregarUf('AP')).toMatchObject({ situacao: 'aguardando', chamadas: 0 });
    const token = await tokenFor(admin);
    const { body } = await call('/api/v1/processamento/monitoramento', { headers: bearer(token) });
    const ap = (body as { resumo: { sigla: string; cStat: string; status: string; aguardarAte: string | null }[] }).resumo.find((r) => r.sigla === 'AP')!;
    expect(ap).toMatchObject({ cStat: '656', status: 'Consumo indevido: aguardando para consultar novamente' });
    expect(Date.parse(ap.aguardarAte!) - Date.now()).toBeGreaterThan(55 * 60_000);
    // After the hour it loads again.
    const depois = await carregarUf('AP', { agora: () => new Date(Date.now() + 61 * 60_000) });
    expect(depois).toMatchObject({ situacao: 'carregada' });
    expect(depois.fate + depois.resumos + depois.eventos).toBeGreaterThan(0);
  });

  it('a Sefaz that published nothing for 27 hours is listed among the loads stalled over 24 hours', async () => {
    await carregarUf('AC');
    await carregarUf('PA');
    const { body } = await call('/api/v1/processamento/monitoramento', { headers: bearer(await tokenFor(monitor)) });
    const { interrompidas } = body as { interrompidas: { mais24h: string[]; mais12h: string[]; mais3h: string[] } };
    expect(interrompidas.mais24h).toContain('AC');
    expect([...interrompidas.mais24h, ...interrompidas.mais12h, ...interrompidas.mais3h]).not.toContain('PA');
  });
});

describe('batch import', () => {
  it('re-reads exactly the range, answers the same twice, and checks its fields with the catalogue texts', async () => {
    const token = await tokenFor(admin);
    const lote = (body: unknown, t = token) =>
      call('/api/v1/processamento/lote', { method: 'POST', headers: { ...bearer(t), 'content-type': 'application/json' }, body: JSON.stringify(body) });

    const first = await lote({ sefaz: 29, ultNSU: 10, nsuFin: 15 });
    expect(first.status).toBe(200);
    const docs = (first.body as { documentos: { nsu: string }[] }).documentos;
    expect(docs.map((d) => Number(d.nsu))).toEqual([11, 12, 13, 14, 15]);
    const again = await lote({ sefaz: 29, ultNSU: 10, nsuFin: 15 });
    expect(again.body).toMatchObject({ contagem: { fate: 0, eventos: 0, resumos: 0, erros: 0, repetidos: 5 - (again.body as { contagem: { ignorados: number } }).contagem.ignorados } });

    // An empty end is the start plus 50.
    expect(((await lote({ sefaz: 29, ultNSU: 0, nsuFin: '' })).body as { nsuFin: string }).nsuFin).toBe('000000000000050');
    const erro = async (body: unknown) => ((await lote(body)).body as { errors?: Record<string, string[]> }).errors;
    expect(Object.values((await erro({ ultNSU: 1, nsuFin: 2 }))!).flat()).toContain('É necessário escolher uma Sefaz');
    expect(Object.values((await erro({ sefaz: 29, ultNSU: 'abc', nsuFin: 2 }))!).flat()).toContain('Os campos NSU Início e NSU Fim devem ser preenchidos');
    expect(Object.values((await erro({ sefaz: 29, ultNSU: 20, nsuFin: 20 }))!).flat()).toContain('O NSU Fim não pode ser menor ou igual ao NSU Início');
    expect(Object.values((await erro({ sefaz: 29, ultNSU: 20, nsuFin: 71 }))!).flat()).toContain('A faixa máxima de importação é de 50 NSUs.');

    // A manager imports from the own UF's Sefaz only.
    const gestor = await tokenFor(gestorBa);
    expect((await lote({ sefaz: 29, ultNSU: 0, nsuFin: 2 }, gestor)).status).toBe(200);
    expect((await lote({ sefaz: 35, ultNSU: 0, nsuFin: 2 }, gestor)).status).toBe(403);
  });

  it('error-document search: dates required, in order, at most 90 days; a manager sees the own UF', async () => {
    const token = await tokenFor(admin);
    const search = (q: string, t = token) => call(`/api/v1/documentos-erro?${q}`, { headers: bearer(t) });
    const messages = async (q: string) => JSON.stringify((await search(q)).body);
    expect(await messages('dataFim=01/11/2026')).toContain('O campo Data Início é obrigatório');
    expect(await messages('dataInicio=01/11/2026')).toContain('O campo Data Fim é obrigatório');
    expect(await messages('dataInicio=10/11/2026&dataFim=01/11/2026')).toContain('Data Início maior que Data Fim.');
    expect(await messages('dataInicio=01/01/2026&dataFim=01/11/2026')).toContain('Selecione um período de, no máximo, 90 dias.');
    const gestor = await tokenFor(gestorBa);
    const own = await search(`dataInicio=${encodeURIComponent(hoje)}&dataFim=${encodeURIComponent(hoje)}`, gestor);
    expect(own.status).toBe(200);
    expect((own.body as { items: { uf: string }[] }).items.every((d) => d.uf === 'BA')).toBe(true);
  });
});
