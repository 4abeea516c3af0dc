/**
 * The webhook log at volume (issue 26, docs/webhooks.md), measured on the volume bench's twin:
 * - `webhookList`: the monitoring list's first page (the administrator's all-clients view and the
 *   client's own) with 10·N delivered and 10 open deliveries of one client in the period. Delivered
 *   ones have no marker in the open-deliveries index, so the page should not grow with them (aim ≤ 1 s).
 *   An open one is listed once an attempt of it failed (docs/webhooks.md "The open-deliveries index"):
 *   each of the 10 gets one failed attempt through the log's own `registrarTentativa`, which writes its marker.
 * - `webhookResume`: HELD deliveries (BENCH_WEBHOOK_RESUME, 5,000 by default; measured by hand at
 *   100,000) held by a paused endpoint, resumed as the portal's route does it (the pause marked, the
 *   job started: functions/webhooks/jobs.ts) and the job's steps run here as the queue would run them,
 *   each shard's chain of steps its own (one Lambda each in AWS), its batches sent onto the twin's
 *   webhook queue, whose dispatcher posts them to a local receiver meanwhile. First ONE shard alone
 *   (`perShardAlone`: its releases per second, the figure one shard reaches when nothing else shares
 *   its machine, as each shard's Lambda and partitions are its own in AWS), then the other shards at
 *   once (`perShardTogether`: their mean, all sharing the twin's one DynamoDB Local and two cores).
 *   `shardsFor2000` is ⌈2,000 ÷ perShardAlone⌉. Also the job's time, the deliveries queued twice or
 *   never (`queuedDuplicates`, `queuedLosses`, both must be 0), and, until every delivery was received
 *   or BENCH_WEBHOOK_RESUME_WAIT_S (900) passed, the receiver's duplicates and losses.
 * Data is written straight to DynamoDB Local through the webhooks context's own store.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OPERACOES_WEBHOOK, todayInBahia } from '@plac/shared/domain';
import type { MensagemDePasso } from '../functions/webhooks/jobs';
import { emParalelo, mediana } from './medidas';

const HELD = Number(process.env.BENCH_WEBHOOK_RESUME ?? 5_000);
const IN_FLIGHT = 32;
const AIM_MS = 1000;

type Web = (token: string, method: string, path: string, body?: unknown) => Promise<{ status: number; bytes: number }>;

export async function medirWebhooks(o: { n: number; tokenAdmin: string; tokenCliente: string; clienteId: string; calls: number; web: Web; url: string }) {
  const log = await import('../functions/webhooks/log-store');
  const endpoints = await import('../functions/webhooks/endpoint-store');
  const { createWebhook } = await import('../functions/clientes/store');
  const hoje = todayInBahia();
  const agora = Date.now();

  // ---- webhookList: 10·N delivered and 10 open deliveries of the client, today ----------------------
  const t0 = performance.now();
  const lote = `bench-${randomUUID().slice(0, 8)}`;
  await emParalelo(IN_FLIGHT, 0, 10 * o.n, async (i) => {
    const deliveryId = `ESCR_FAT:${o.clienteId}:${lote}:${i}`;
    await log
      .entidadeEntrega()
      .create({ deliveryId, clienteId: o.clienteId, operacao: 'ESCR_FAT', descricao: 'entregue', body: '{}', url: 'https://h.example', dataCriacao: new Date(agora - i).toISOString(), tentativas: 1, situacao: 'ENTREGUE' })
      .go({ response: 'none' });
  });
  await abrirEntregas(o.clienteId, lote, agora, 10);
  const seedSeconds = Math.round((performance.now() - t0) / 100) / 10;
  const periodo = `dataInicial=${hoje}&dataFinal=${hoje}`;
  const listar = async (token: string, path: string) => {
    await o.web(token, 'GET', path);
    const tempos: number[] = [];
    let ultima = { status: 0, bytes: 0 };
    for (let k = 0; k < o.calls; k++) {
      const t = performance.now();
      ultima = await o.web(token, 'GET', path);
      tempos.push(performance.now() - t);
    }
    const ms = Math.round(mediana(tempos) * 10) / 10;
    return { ms, status: ultima.status, bytes: ultima.bytes, meetsAim: ms <= AIM_MS };
  };
  const webhookList = {
    delivered: 10 * o.n,
    open: 10,
    seedSeconds,
    admin: await listar(o.tokenAdmin, `/api/v1/webhook-monitoramento?${periodo}`),
    client: await listar(o.tokenAdmin, `/api/v1/webhook-monitoramento?${periodo}&idCliente=${o.clienteId}`),
  };
  console.error(`volume bench: webhookList admin ${webhookList.admin.ms} ms, client ${webhookList.client.ms} ms`);

  // ---- webhookResume: HELD held deliveries of a paused endpoint, resumed through the API ------------
  const recebidas = new Map<string, number>();
  const receptor = createServer((req, res) => {
    req.resume();
    const id = String(req.headers['x-plac-delivery-id']);
    recebidas.set(id, (recebidas.get(id) ?? 0) + 1);
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => receptor.listen(0, '127.0.0.1', resolve));
  try {
    const clienteId = `bench-ret-${randomUUID().slice(0, 8)}`;
    const base = `http://127.0.0.1:${(receptor.address() as AddressInfo).port}`;
    const criado = new Date().toISOString();
    const evento = OPERACOES_WEBHOOK.find((x) => x.operacao === 'EVENTO')!;
    await createWebhook({ clienteId, operacaoId: evento.id, operacao: evento.operacao, url: `${base}/hook`, email: `ti-${clienteId}@bench.local`, createdAt: criado, updatedAt: criado });
    await endpoints.pausar({ clienteId, operacao: 'EVENTO', pausadoEm: criado, motivoEntrega: 'bench', url: `${base}/hook` });
    const ids = Array.from({ length: HELD }, (_, i) => `EVENTO:${clienteId}:${i}`);
    await emParalelo(IN_FLIGHT, 0, HELD, async (i) => {
      const deliveryId = ids[i]!;
      const dataCriacao = new Date(agora - (HELD - i) * 10).toISOString();
      await log.registrarEntrega({ deliveryId, clienteId, operacao: 'EVENTO', descricao: 'retida', body: `{"i":${i}}`, url: `${base}/hook`, dataCriacao });
      await log.marcarPausada({ deliveryId, clienteId, dataCriacao });
    });
    // The resume as the route starts it (service.ts retomar), its steps run here (below).
    const jobs = await import('../functions/webhooks/jobs');
    const { enviarEmLotes } = await import('../functions/webhooks/fila');
    await endpoints.marcarRetomada(clienteId, 'EVENTO', new Date().toISOString());
    const novo = { jobId: jobs.jobDaRetomada(clienteId, 'EVENTO'), tipo: 'retomada' as const, clienteId, operacao: 'EVENTO', desde: new Date(agora - HELD * 10 - 60_000).toISOString(), ate: '9999-12-31T23:59:59.999Z', cortarDe: new Date(agora - HELD * 10).toISOString(), iniciadoPor: 'bench' };
    const { job } = await jobs.iniciarJob(novo);
    const enfileiradas = new Map<string, number>();
    const porParte = new Map<string, { n: number; ultimo: number }>();
    /** A shard's step's batches onto the twin's queue (10 SendMessageBatch at once, as the job does), counted. */
    const enviarDa = (parte: string | undefined) => async (corpos: readonly string[]) => {
      await enviarEmLotes(corpos, 10);
      for (const c of corpos) {
        const id = (JSON.parse(c) as { deliveryId: string }).deliveryId;
        enfileiradas.set(id, (enfileiradas.get(id) ?? 0) + 1);
      }
      if (parte === undefined) return;
      const x = porParte.get(parte) ?? { n: 0, ultimo: 0 };
      porParte.set(parte, { n: x.n + corpos.length, ultimo: performance.now() });
    };
    const t = performance.now();
    const primeiras = await jobs.executarPasso({ job: job.jobId, execucao: job.execucao }, { enviar: enviarDa(undefined) });
    const S = primeiras.length;
    // Each shard's chain of steps as the queue runs it: a step's next messages start when it ends;
    // a step that throws comes back a second later (the queue's redelivery).
    const correr = async (inicio: readonly MensagemDePasso[]) => {
      const emCurso = new Set<Promise<void>>();
      const passo = async (m: MensagemDePasso) => {
        try {
          for (const x of await jobs.executarPasso(m, { enviar: enviarDa(m.parte), orcamentoMs: 20_000 })) rodar(x);
        } catch (error) {
          console.error(`volume bench: a resume step failed (${(error as Error).message}); run again`);
          await new Promise((r) => setTimeout(r, 1_000));
          rodar(m);
        }
      };
      const rodar = (m: MensagemDePasso) => {
        const p = passo(m).finally(() => emCurso.delete(p));
        emCurso.add(p);
      };
      inicio.forEach(rodar);
      while (emCurso.size > 0) await Promise.race(emCurso);
    };
    // One shard alone, then the others at once. Its chain stops when it has read to the end (the others
    // still read): the last shard to do so wakes every shard for the resume's last read.
    const ta = performance.now();
    await correr(primeiras.slice(0, 1));
    const sozinha = porParte.get(primeiras[0]!.parte!) ?? { n: 0, ultimo: ta };
    const tb = performance.now();
    await correr(primeiras.slice(1));
    const jobMs = performance.now() - t;
    const fim = await jobs.lerJob(job.jobId);
    const juntas = [...porParte.entries()].filter(([parte]) => parte !== primeiras[0]!.parte).map(([, x]) => x);
    const liberadasJuntas = juntas.reduce((s, x) => s + x.n, 0);
    const ultimaJuntas = Math.max(...juntas.map((x) => x.ultimo));
    const perShardAlone = Math.round(sozinha.n / ((sozinha.ultimo - ta) / 1000));
    const togetherRate = liberadasJuntas / ((ultimaJuntas - tb) / 1000);
    const perShardTogether = Math.round(togetherRate / (S - 1));

    const limite = Date.now() + Number(process.env.BENCH_WEBHOOK_RESUME_WAIT_S ?? 900) * 1000;
    while (Date.now() < limite && !ids.every((id) => recebidas.has(id))) await new Promise((r) => setTimeout(r, 500));
    const deliveredMs = performance.now() - t;
    // Late duplicates would come within the queue's retry delay: wait a little before counting.
    await new Promise((r) => setTimeout(r, 3_000));
    const webhookResume = {
      held: HELD,
      shards: S,
      perShardAlone,
      perShardTogether,
      togetherPerSecond: Math.round(togetherRate),
      shardsFor2000: Math.ceil(2000 / perShardAlone),
      jobSituation: fim?.situacao,
      jobQueued: fim?.enfileiradas,
      jobSeconds: Math.round(jobMs / 100) / 10,
      queuedDuplicates: [...enfileiradas.values()].filter((n) => n > 1).length,
      queuedLosses: ids.filter((id) => !enfileiradas.has(id)).length,
      received: ids.filter((id) => recebidas.has(id)).length,
      allDeliveredSeconds: ids.every((id) => recebidas.has(id)) ? Math.round(deliveredMs / 100) / 10 : null,
      duplicates: [...recebidas.values()].filter((n) => n > 1).length,
      losses: ids.filter((id) => !recebidas.has(id)).length,
      pauseRemoved: (await endpoints.pausaDe(clienteId, 'EVENTO')) === null,
    };
    console.error(`volume bench: webhookResume ${JSON.stringify(webhookResume)}`);
    return { webhookList, webhookResume };
  } finally {
    await new Promise<void>((resolve) => receptor.close(() => resolve()));
  }
}

/**
 * `quantas` open deliveries of the client, created about a second apart before `agora`: each recorded, then
 * one failed attempt (HTTP 500 at the first receive, as the dispatcher records it), so it is PENDENTE
 * with its open marker and the monitoring list finds it. A delivery only recorded has no marker: it is
 * waiting for its first attempt, in the queue, and no list shows it. Answers the delivery ids.
 */
export async function abrirEntregas(clienteId: string, lote: string, agora: number, quantas: number): Promise<string[]> {
  const log = await import('../functions/webhooks/log-store');
  const ids: string[] = [];
  for (let i = 0; i < quantas; i++) {
    const deliveryId = `ESCR_FAT:${clienteId}:${lote}:aberta-${i}`;
    const dataCriacao = new Date(agora - i * 997).toISOString();
    await log.registrarEntrega({ deliveryId, clienteId, operacao: 'ESCR_FAT', descricao: 'aberta', body: '{}', url: 'https://h.example', dataCriacao });
    const falha = { deliveryId, mensagemId: `${lote}-aberta-${i}`, recebimento: 1, instante: new Date(agora).toISOString(), status: 500, latenciaMs: 1 };
    if (!(await log.registrarTentativa(falha, { clienteId, operacao: 'ESCR_FAT', dataCriacao, indexada: false }))) {
      throw new Error(`volume bench: the failed attempt of ${deliveryId} was not recorded`);
    }
    ids.push(deliveryId);
  }
  return ids;
}

