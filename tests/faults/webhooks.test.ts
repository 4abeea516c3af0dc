import { randomInt } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetQueueAttributesCommand } from '../../functions/platform/aws-direto/sqs';
import { afterAll, describe, expect, it } from 'vitest';
import { cnpjCheckDigits, foldText, monthOf, SERVICO } from '@plac/shared/domain';
import { putCliente } from '../../functions/clientes/store';
import { contadoresDoCliente, requisicoesDoCliente } from '../../functions/consumo/store';
import { nfeXml } from '../../functions/fate/fixtures/builder';
import { ingerir } from '../../functions/fate/service';
import { sqsClient } from '../../functions/platform/aws';
import { deliveryId } from '../../functions/webhooks/produtores/regras';
import { lerEntrega, tentativasDe } from '../../functions/webhooks/log-store';
import { consentir } from '../api/consentimentos';
import { configurarWebhook } from '../api/webhooks';
import { emParalelo, killTwinProcess, report, restartTwinProcess, seconds, sleep, startTwinProcess, stopTwinProcess, type TwinProcess } from './twin-process';

/**
 * The webhook dispatch killed mid-way (issue 42): a real `kill -9` of the twin while its dispatcher is
 * posting a thousand ESCR_FAT deliveries to a receiver of this test, the twin started again on the same
 * data, and the queue left to go on as in production (no route restarts a dispatch: the event-source
 * mapping polls the queue again, and what the dead process had received comes back after the queue's
 * visibility timeout). The deliveries are made the way the platform makes them: NF-e stored by the
 * loader's own `ingerir` publish their domain events on the documents queue; the twin's producer
 * fans each out to the IMF clients its drawer's consent names; the dispatcher posts them.
 *
 * The kill falls while the receiver holds answers: once it has seen 40 % of the deliveries it stops
 * answering, so the posts in flight at the kill reached the receiver and their answers were lost.
 * Delivery is at least once: each of those is posted again after the restart, and counted here as a
 * duplicate, not a fault. Checked once the queues are empty: every delivery received (none lost),
 * ENTREGUE in the delivery log with every post the receiver saw logged as an attempt (the attempt is
 * written before its post: functions/webhooks/log-store.ts `anunciarTentativa`), metered once
 * ('Envio de Fat-e': one charged request and one count per delivery, however often it was posted), and
 * nothing left in a queue or its dead-letter queue.
 */

/** 100 NF-e of one drawer whose consent names 10 IMF clients: 1,000 deliveries. */
const NOTAS = 100;
const CLIENTES = 10;
const TOTAL = NOTAS * CLIENTES;
/** The receiver stops answering at 40 % of the deliveries; the kill must come by 50 %. */
const LIMIAR = 0.4;
const FIM = 0.5;

function novoCnpj(): string {
  const first12 = `${String(randomInt(10_000_000, 99_999_999))}0001`;
  return `${first12}${cnpjCheckDigits(first12)}`;
}

/**
 * A receiver on 127.0.0.1 that records every POST (the delivery id header) and answers 200, until it is
 * told to hold: then it records and answers nothing, so that the posts in flight at the kill are those
 * whose answer the dead dispatcher never read.
 */
async function receptor() {
  const posts = new Map<string, number>();
  const instantes: number[] = [];
  const retidas: ServerResponse[] = [];
  let segurar = false;
  let limiar: { n: number; avisar: () => void } | null = null;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['x-plac-delivery-id'] ?? '');
      posts.set(id, (posts.get(id) ?? 0) + 1);
      instantes.push(performance.now());
      if (limiar && posts.size >= limiar.n) {
        segurar = true;
        limiar.avisar();
        limiar = null;
      }
      if (segurar) retidas.push(res);
      else res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    posts,
    instantes,
    retidas,
    /** Resolves when the receiver has seen `n` different deliveries, and holds every answer from then on. */
    segurarEm: (n: number) =>
      new Promise<void>((resolve) => {
        limiar = { n, avisar: resolve };
        if (posts.size >= n) {
          segurar = true;
          limiar = null;
          resolve();
        }
      }),
    /** After the kill: the held posts' connections are gone with the twin; answering is normal again. */
    soltar: () => {
      segurar = false;
      for (const res of retidas.splice(0)) res.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Messages visible and in flight of a queue of the twin. */
async function naFila(url: string): Promise<number> {
  const { Attributes: q } = await sqsClient().send(
    new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }),
  );
  return Number(q?.ApproximateNumberOfMessages ?? 0) + Number(q?.ApproximateNumberOfMessagesNotVisible ?? 0);
}

describe('a webhook dispatch killed mid-way (issue 42)', () => {
  let twin: TwinProcess | undefined;
  let rx: Awaited<ReturnType<typeof receptor>> | undefined;
  afterAll(async () => {
    await stopTwinProcess(twin);
    await rx?.close();
  }, 60_000);

  it('delivers every delivery at least once after the restart, each logged, metered once, nothing left in a queue', async () => {
    // No schedules: no Sefaz load competing for the two cores (the NF-e are stored by this test).
    twin = await startTwinProcess({ PLAC_SCHEDULES: '0', PLAC_SEFAZ_BACKLOG: '5', PLAC_SEFAZ_TRICKLE_MS: '0' });
    Object.assign(process.env, twin.env);
    const t = twin;
    rx = await receptor();
    const r0 = rx;
    const meses = new Set([monthOf(new Date())]);

    // ---- the IMF clients, each with an ESCR_FAT endpoint, and the drawer's consent naming them ----
    const agora = new Date().toISOString();
    const clientes = Array.from({ length: CLIENTES }, (_, i) => ({ clienteId: `falha-wh-${i}-${randomInt(1e9)}`, cnpj: novoCnpj() }));
    for (const c of clientes) {
      const razaoSocial = `IMF FALHA ${c.cnpj.slice(0, 8)}`;
      await putCliente({ clienteId: c.clienteId, cnpj: c.cnpj, razaoSocial, razaoFolded: foldText(razaoSocial), tipoCliente: 'IMF', situacao: 'A', email: `${c.clienteId}@teste.local`, createdAt: agora, updatedAt: agora });
      await configurarWebhook(c.clienteId, `${r0.url}/hook/${c.clienteId}`, { operacao: 'ESCR_FAT' });
    }
    const emitente = novoCnpj();
    await consentir(emitente, clientes.map((c) => c.cnpj.slice(0, 8)), 'RO');

    // ---- the NF-e, stored by the loader's own code: their domain events go to the twin's producer ----
    const notas = Array.from({ length: NOTAS }, (_, i) => nfeXml({ cUF: '11', numero: 900_000 + i, emitente }));
    const esperadas = new Map(clientes.map((c) => [c.clienteId, notas.map((n) => deliveryId('ESCR_FAT', c.clienteId, n.chave))]));
    const todas = [...esperadas.values()].flat();
    expect(new Set(todas).size).toBe(TOTAL);
    const t0 = performance.now();
    const ingestao = await ingerir('RO', notas.map((n, i) => ({ nsu: String(700_000 + i), schema: 'procNFe_v4.00.xsd', xml: n.xml })), { moverCursor: false });
    expect(ingestao.fate).toBe(NOTAS);

    // ---- kill while the receiver holds the answers of the posts in flight (armed once this process
    // wrote its last NF-e, so that nothing of its own is in flight at the kill) ----
    const noArme = r0.posts.size;
    expect(noArme, `the receiver had seen ${noArme}/${TOTAL} before the NF-e were all stored`).toBeLessThan(FIM * TOTAL);
    let espera: NodeJS.Timeout | undefined;
    await Promise.race([
      r0.segurarEm(Math.max(Math.ceil(LIMIAR * TOTAL), noArme + 1)),
      new Promise<never>((_, reject) => {
        espera = setTimeout(() => reject(new Error(`the receiver saw only ${r0.posts.size}/${TOTAL} deliveries in 5 minutes`)), 300_000);
      }),
    ]).finally(() => clearTimeout(espera));
    const tLimiar = performance.now();
    await killTwinProcess(t);
    const naMorte = { recebidas: r0.posts.size, posts: r0.instantes.length, semResposta: r0.retidas.length };
    r0.soltar();
    expect(naMorte.recebidas, `the dispatch was past 50 % (${naMorte.recebidas}/${TOTAL}) when killed`).toBeLessThanOrEqual(FIM * TOTAL);
    console.log(
      `killed the webhook dispatch at ${naMorte.recebidas}/${TOTAL} deliveries received (${seconds(t0, tLimiar)} s after the NF-e were stored), ` +
        `${naMorte.semResposta} posts received and not answered`,
    );

    // ---- restart; the queues go on by themselves ----
    const tRestart = performance.now();
    twin = await restartTwinProcess(t);
    const r = twin;
    const tHealthy = performance.now();
    Object.assign(process.env, r.env);
    const filas = { webhook: r.env.WEBHOOK_QUEUE_URL!, webhookDlq: r.env.WEBHOOK_DLQ_URL!, documentos: r.env.DOCUMENTOS_QUEUE_URL!, documentosDlq: r.env.DOCUMENTOS_DLQ_URL! };
    let tPrimeira: number | null = null;
    let tTodas: number | null = null;
    let tFim: number | null = null;
    let restantes: Record<string, number> = {};
    for (const deadline = Date.now() + 900_000; Date.now() < deadline; ) {
      const depois = r0.instantes.find((x) => x > tRestart);
      if (tPrimeira === null && depois !== undefined) tPrimeira = depois;
      const faltam = todas.filter((id) => !r0.posts.has(id)).length;
      if (tTodas === null && faltam === 0) tTodas = performance.now();
      restantes = Object.fromEntries(await Promise.all(Object.entries(filas).map(async ([nome, url]) => [nome, await naFila(url)] as const)));
      if (faltam === 0 && Object.values(restantes).every((n) => n === 0)) {
        // Received and the queues empty: then every delivery must say so in the log.
        const abertas = (await emParalelo(todas, async (id) => ((await lerEntrega(id))?.situacao === 'ENTREGUE' ? null : id))).filter((id) => id !== null);
        if (abertas.length === 0) {
          tFim = performance.now();
          break;
        }
      }
      await sleep(2_000);
    }

    // ---- the invariants ----
    meses.add(monthOf(new Date()));
    const perdidas = todas.filter((id) => !r0.posts.has(id));
    const estranhas = [...r0.posts.keys()].filter((id) => !esperadas.has(id.replace(/^1-\d{44}-/, '')));
    const duplicadas = todas.reduce((n, id) => n + Math.max(0, (r0.posts.get(id) ?? 0) - 1), 0);
    const repetidas = todas.filter((id) => (r0.posts.get(id) ?? 0) > 1).length;
    // The log: each delivery ENTREGUE, and as many attempts logged as posts received (at least), one of them 2xx.
    const log = await emParalelo(
      todas,
      async (id) => {
        const [entrega, tentativas] = await Promise.all([lerEntrega(id), tentativasDe(id)]);
        return { id, situacao: entrega?.situacao, tentativas: tentativas.length, emCurso: tentativas.filter((x) => x.emCurso).length, ok: tentativas.some((x) => x.status !== undefined && x.status >= 200 && x.status < 300) };
      },
    );
    const naoEntregues = log.filter((l) => l.situacao !== 'ENTREGUE').map((l) => `${l.id} ${l.situacao ?? 'sem registro'}`);
    const semTentativaLogada = log.filter((l) => l.tentativas < (r0.posts.get(l.id) ?? 0)).map((l) => `${l.id}: ${r0.posts.get(l.id)} posts, ${l.tentativas} attempts logged`);
    const semSucessoLogado = log.filter((l) => !l.ok).map((l) => l.id);
    const emCurso = log.reduce((n, l) => n + l.emCurso, 0);
    // Metering: one charged request per delivery id and the client's 'Envio de Fat-e' count equal to its deliveries.
    const medicao = await Promise.all(
      clientes.map(async (c) => {
        const requisicoes = (await Promise.all([...meses].map((mes) => requisicoesDoCliente(c.clienteId, mes)))).flat().filter((q) => q.requestId.startsWith('#medicao:entrega:'));
        const contador = (await Promise.all([...meses].map((mes) => contadoresDoCliente(c.clienteId, mes))))
          .flat()
          .filter((k) => k.servico === SERVICO.envioFate)
          .reduce((n, k) => n + k.requisicoes, 0);
        const ids = new Set(requisicoes.map((q) => q.requestId.slice('#medicao:entrega:'.length)));
        const esperado = esperadas.get(c.clienteId)!;
        return { clienteId: c.clienteId, requisicoes: requisicoes.length, contador, faltam: esperado.filter((id) => !ids.has(id)).length, esperado: esperado.length };
      }),
    );
    const naoMedidas = medicao.reduce((n, m) => n + m.faltam + Math.max(0, m.esperado - m.contador), 0);
    const medidasAMais = medicao.reduce((n, m) => n + Math.max(0, m.requisicoes - m.esperado) + Math.max(0, m.contador - m.esperado), 0);
    const presas = naoEntregues.length + Object.values(restantes).reduce((a, b) => a + b, 0);

    const linha = report({
      job: 'webhook dispatch (ESCR_FAT)',
      lost: perdidas.length,
      duplicated: duplicadas,
      stuck: presas,
      acceptedS: tPrimeira === null ? null : seconds(tRestart, tPrimeira),
      finishedS: tFim === null ? null : seconds(tRestart, tFim),
      note:
        `${TOTAL} deliveries (${NOTAS} NF-e × ${CLIENTES} IMF clients), killed at ${naMorte.recebidas}/${TOTAL} received with ${naMorte.semResposta} posts unanswered; ` +
        `${repetidas} deliveries posted more than once (${duplicadas} extra posts, at least once is the contract), ${emCurso} attempts left in course by the kill; ` +
        `${semTentativaLogada.length} posts not logged as an attempt, ${naoMedidas} deliveries not metered, ${medidasAMais} metered twice; ` +
        `twin healthy after ${seconds(tRestart, tHealthy)} s, every delivery received ${tTodas === null ? '—' : seconds(tRestart, tTodas)} s after the restart ` +
        `(the "accepted" figure is the first post after the restart)`,
    });
    expect(estranhas).toEqual([]);
    expect(naoEntregues).toEqual([]);
    expect(semTentativaLogada).toEqual([]);
    expect(semSucessoLogado).toEqual([]);
    expect(restantes).toEqual({ webhook: 0, webhookDlq: 0, documentos: 0, documentosDlq: 0 });
    expect(medicao.filter((m) => m.requisicoes !== m.esperado || m.contador !== m.esperado || m.faltam !== 0)).toEqual([]);
    expect(linha).toContain('lost 0,');
    expect(linha).toContain('stuck 0,');
    // The posts the kill left unanswered are posted again: at least once, never fewer.
    expect(duplicadas).toBeGreaterThanOrEqual(1);
  }, 1_500_000);
});
