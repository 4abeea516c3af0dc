/**
 * The partition-heat measure (issue 36; bench/partitions.ts, tests/api/partitions.test.ts): a twin of
 * its own whose functions send every DynamoDB request through a recording relay
 * (tests/load/dynamodb-relay.ts), each path driven a fixed number of times as a client would drive it
 * (HTTP on the twin's ports, the webhook queue, the Sefaz load's state machine), and what each
 * operation put on each partition of the table and of each index (tests/load/capacity.ts) projected at
 * the launch's rates. Counts, not times: the same operations give the same units on any machine.
 *
 * Runs in the calling process (the twin's handlers run in it, and the test data is written through the
 * stores, unrecorded): call it from its own process or test file.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent, request } from 'node:https';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildChaveAcesso, cnpjCheckDigits, foldText, monthOf, previousMonth, UF_SIGLAS, type Uf } from '@plac/shared/domain';
import { faturamentoStateMachine, relatorioStateMachine, sefazLoadStateMachine } from '../../infra/lib/topology';
import { freePort } from '../../infra/local/emulators/ports';
import { startTwin } from '../../infra/local/twin';
import { heat, type HotPartition } from './capacity';
import { startDynamoDbRelay } from './dynamodb-relay';

/** Aim: no partition past this share of its limit at the launch rates. */
export const AIM = 0.3;

export type PathName = 'meteredLookups' | 'prepaidDebits' | 'webhookDeliveries' | 'ingestion' | 'billingRun' | 'webhookResume';

/**
 * The launch's rates (issue 36): per path, the operations a second on the keys naming the one client
 * driven (its quota, one bookkeeper, one client's deliveries) and on the platform's other keys.
 */
export const RATES: Record<PathName, { client: number; platform: number; note: string }> = {
  meteredLookups: { client: 250, platform: 500, note: 'metered look-ups 500/s platform-wide, one client at its quota (250/s)' },
  prepaidDebits: { client: 2_000, platform: 2_000, note: 'prepaid debits 2,000/s on one bookkeeper (a monitored key registered, paid by the balance)' },
  webhookDeliveries: { client: 2_000, platform: 5_000, note: 'webhook deliveries 2,000/s for one client, 5,000/s platform-wide' },
  ingestion: { client: 600, platform: 600, note: 'ingestion 600 Fat-e/s nationally, São Paulo 40 %' },
  // One operation is one client billed (read its month's counters, price, write the invoice, queue its
  // detail ZIP); every key at the run's rate: the run's own keys (its record, progress, the month's
  // invoices) take every client, and each client's keys take only its own operation, so 1.67/s on them
  // is an upper bound.
  billingRun: { client: 1.67, platform: 1.67, note: 'a billing run of 1,000 clients in 10 minutes (1.67 clients/s, client and platform keys alike)' },
  webhookResume: { client: 2_000, platform: 5_000, note: 'a webhook resume of one hour held, re-queued and delivered at 2,000/s for the client, 5,000/s platform-wide' },
};

export interface PathHeat {
  path: PathName;
  rate: string;
  ops: number;
  /** DynamoDB requests per operation, by API call. */
  requestsPerOp: Record<string, number>;
  /** All units per operation, every partition together. */
  totalPerOp: { wcu: number; rcu: number };
  /** The hottest partition (table or index), with its key's pattern. */
  hottest: HotPartition;
  unitsPerOp: { wcu: number; rcu: number };
  sharePerPartition: number;
  meetsAim: boolean;
  /** The next hottest, for reading. */
  others: HotPartition[];
}

const round = (n: number, d = 4) => Math.round(n * 10 ** d) / 10 ** d;

export async function measurePartitions(o: { root: string; ops: Partial<Record<PathName, number>>; log?: (line: string) => void }): Promise<PathHeat[]> {
  const log = o.log ?? (() => undefined);
  const dataDir = await mkdtemp(join(tmpdir(), 'plac-partitions-'));
  const ports = { http: await freePort(), https: await freePort(), dynamodb: await freePort(), aws: await freePort(), mail: await freePort(), sefaz: await freePort() };
  const relay = await startDynamoDbRelay(`http://127.0.0.1:${ports.dynamodb}`);
  const ingestionOps = o.ops.ingestion ?? 0;
  // São Paulo 40 % of the documents: its backlog against one per other UF's share (CT-e included, as loaded).
  const outros = ingestionOps > 0 ? Math.max(1, Math.round((ingestionOps * 0.6) / 26 / 2)) : 0;
  const sp = ingestionOps > 0 ? Math.max(1, Math.round((ingestionOps * 0.4) / 2)) : 0;
  const twin = await startTwin({
    dataDir, ports, web: 'none', webDir: join(o.root, 'web'), schedules: false, accessLog: false, sqsRetryDelaySeconds: 1,
    sefaz: { backlog: outros, backlogs: { SP: sp }, trickle: false },
    dynamodbEndpoint: relay.url,
  });
  const results: PathHeat[] = [];
  try {
    const kit = await prepare(dataDir);
    for (const [path, ops] of Object.entries(o.ops) as [PathName, number][]) {
      if (!ops) continue;
      log(`partitions: ${path}, ${ops} operations…`);
      const { clienteId, done } = await drive(path, ops, { twin, kit, relay });
      const charges = relay.charges(path);
      const rates = RATES[path];
      const cliente = clienteId?.toLowerCase();
      const partitions = heat(charges, done, (logical) => (cliente && logical.toLowerCase().includes(cliente) ? rates.client : rates.platform));
      const hottest = partitions[0]!;
      const requests = relay.requests(path);
      results.push({
        path,
        rate: rates.note,
        ops: done,
        requestsPerOp: Object.fromEntries(Object.entries(requests).map(([k, v]) => [k, round(v / done, 2)])),
        totalPerOp: { wcu: round(charges.reduce((s, c) => s + c.wcu, 0) / done, 2), rcu: round(charges.reduce((s, c) => s + c.rcu, 0) / done, 2) },
        hottest,
        unitsPerOp: { wcu: hottest.wcuPerOp, rcu: hottest.rcuPerOp },
        sharePerPartition: hottest.share,
        meetsAim: hottest.share <= AIM,
        others: partitions.slice(1, 6),
      });
    }
    return results;
  } finally {
    relay.label(null);
    await twin.stop();
    await relay.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

type Twin = Awaited<ReturnType<typeof startTwin>>;
type Relay = Awaited<ReturnType<typeof startDynamoDbRelay>>;
type Kit = Awaited<ReturnType<typeof prepare>>;

const novoCnpj = (n: number) => {
  const first12 = `${String(10_000_000 + n).slice(-8)}0001`;
  return first12 + cnpjCheckDigits(first12);
};

/** The clients the paths use (written through the stores, not recorded) and a loopback webhook receiver. */
async function prepare(dataDir: string) {
  const { putCliente } = await import('../../functions/clientes/store');
  const { ensureTestIcp } = await import('../../infra/local/emulators/test-pki');
  const { ensureLocalPki } = await import('../../infra/local/emulators/tls');
  const agora = new Date().toISOString();
  const clientes = { integrador: novoCnpj(36_001), escriturador: novoCnpj(36_002), webhook: novoCnpj(36_003) };
  for (const [nome, cnpj] of Object.entries(clientes)) {
    const razaoSocial = `PARTICOES ${nome.toUpperCase()} LTDA`;
    await putCliente({
      clienteId: `particoes-${nome}`, cnpj, razaoSocial, razaoFolded: foldText(razaoSocial), tipoCliente: nome === 'escriturador' ? 'IMF' : 'ESF', situacao: 'A', email: `${nome}@plac.local`, uf: 'GO',
      logradouro: 'Rua 1', numero: '1', bairro: 'Centro', cidade: 'Goiânia', cep: '74000000', telefone: '62999990000', nomeResponsavel: 'Bench',
      categoria: 'PRIVADA', createdAt: agora, updatedAt: agora, updatedBy: 'bench',
    });
  }
  const icp = await ensureTestIcp(dataDir, Object.entries(clientes).map(([nome, cnpj]) => ({ cnpj, razaoSocial: `PARTICOES ${nome.toUpperCase()} LTDA` })));
  const { caCertPem } = await ensureLocalPki(dataDir);
  const recebidas = new Set<string>();
  const receptor = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      recebidas.add(String(req.headers['x-plac-delivery-id']));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receptor.listen(0, '127.0.0.1', resolve));
  return { clientes, cert: (cnpj: string) => icp.certificates[cnpj]!, caCertPem, recebidas, receptorUrl: `http://127.0.0.1:${(receptor.address() as AddressInfo).port}`, receptor };
}

async function drive(path: PathName, ops: number, c: { twin: Twin; kit: Kit; relay: Relay }): Promise<{ clienteId?: string; done: number }> {
  const { twin, kit, relay } = c;
  if (path === 'meteredLookups') {
    const { ingerir } = await import('../../functions/fate/service');
    const { nfeXml } = await import('../../functions/fate/fixtures/builder');
    const docs = Array.from({ length: Math.min(ops, 200) }, (_, i) => nfeXml({ cUF: '52', numero: 60_000 + i, emitente: novoCnpj(36_100), emissao: '2026-10-10T10:00:00-03:00' }));
    await ingerir('GO', docs.map((d, i) => ({ nsu: String(900_000 + i), schema: 'procNFe_v4.00.xsd', xml: d.xml })), { moverCursor: false });
    const cert = kit.cert(kit.clientes.integrador);
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    // Warm: the certificate and client caches, as a busy integrator's container has them.
    await https(twin.tlsUrl, 'GET', `/api/v1/integracao/fate/${docs[0]!.chave}`, { cert, ca: kit.caCertPem, agent });
    relay.label(path);
    await emParalelo(ops, 4, async (i) => {
      const r = await https(twin.tlsUrl, 'GET', `/api/v1/integracao/fate/${docs[i % docs.length]!.chave}`, { cert, ca: kit.caCertPem, agent });
      if (r.status !== 200) throw new Error(`look-up answered ${r.status}: ${r.body}`);
    });
    relay.label(null);
    agent.destroy();
    return { clienteId: 'particoes-integrador', done: ops };
  }
  if (path === 'prepaidDebits') {
    const clienteId = 'particoes-escriturador';
    const valor = await contaPrepaga(clienteId, kit.clientes.escriturador, ops + 1);
    const { tokenFor } = await import('../api/session');
    const token = await tokenFor({ userId: `u-${clienteId}`, name: 'Escriturador Bench', tipo: 'C', roles: ['cliente_imf'], clienteId });
    const chaves = Array.from({ length: ops + 1 }, (_, i) =>
      buildChaveAcesso({ cUF: 35, aamm: '2611', cnpj: novoCnpj(36_200 + (i % 50)), mod: '55', serie: 1, nNF: 1_000 + i, cNF: 10_000_000 + i }),
    );
    const registrar = async (chave: string) => {
      const r = await fetch(`${twin.url}/api/v1/monitoramento-documentos`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ chave }) });
      if (r.status !== 201) throw new Error(`monitored key answered ${r.status}: ${await r.text()}`);
    };
    await registrar(chaves[ops]!);
    relay.label(path);
    await emParalelo(ops, 4, (i) => registrar(chaves[i]!));
    relay.label(null);
    const { lerConta } = await import('../../functions/prepago/store');
    const conta = await lerConta(clienteId);
    // Each registration paid by the balance, to the thousandth (10 thousandths a key here).
    if (conta?.saldoMilesimos !== valor * 10 - (ops + 1) * 10) throw new Error(`prepaid balance ${conta?.saldoMilesimos}: not every registration was debited once`);
    return { clienteId, done: ops };
  }
  if (path === 'webhookDeliveries') {
    const clienteId = 'particoes-webhook';
    const { configurarWebhook } = await import('../api/webhooks');
    const { enfileirarEntregas } = await import('../../functions/webhooks/fila');
    await configurarWebhook(clienteId, `${kit.receptorUrl}/hook`, { operacao: 'ESCR_FAT', segredo: 'whsec_particoes' });
    // The documents' UFs as nationally: São Paulo 40 %, the rest spread over the other 26.
    const outrasUfs = UF_SIGLAS.filter((u) => u !== 'SP');
    const ufDe = (i: number) => (i % 5 < 2 ? 'SP' : outrasUfs[i % outrasUfs.length]!);
    const entrega = (i: number) => ({ deliveryId: `ESCR_FAT:${clienteId}:particoes-${i}`, clienteId, operacao: 'ESCR_FAT' as const, payload: { versao: 1, tipo: 'ESCR_FAT', chave: `35${String(i).padStart(42, '0')}`, uf: ufDe(i) } });
    // Warm: one delivery first, so the configuration and pause caches are a running container's.
    await enfileirarEntregas([entrega(ops)]);
    await esperar(() => kit.recebidas.size >= 1, 60_000, 'the first delivery');
    relay.label(path);
    for (let i = 0; i < ops; i += 100) await enfileirarEntregas(Array.from({ length: Math.min(100, ops - i) }, (_, k) => entrega(i + k)));
    await esperar(() => kit.recebidas.size >= ops + 1, 300_000, `${ops} deliveries`);
    // The dispatcher records a delivery after its answer: a moment for the last writes.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    relay.label(null);
    return { clienteId, done: ops };
  }
  if (path === 'billingRun') return faturamento(ops, { twin, relay });
  if (path === 'webhookResume') return retomada(ops, { kit, relay });
  // ingestion: the simulator's backlog loaded by one run of the Sefaz load state machine.
  const documents = UF_SIGLAS.reduce((sum, uf: Uf) => sum + twin.sefaz.maxNsu(uf, 'nfe') + twin.sefaz.maxNsu(uf, 'cte'), 0);
  relay.label(path);
  await twin.stateMachines.get(sefazLoadStateMachine.id)!.execute({ trigger: 'partitions' });
  relay.label(null);
  return { done: documents };
}

/**
 * billingRun: `clientes` active clients with last month's counters (services 1, 5 and 9 from every UF,
 * each counter spread over 4 of the CONTADOR_SHARDS shards, as a month's increments leave it), written
 * unrecorded; then one run of the Faturamento state machine for that month, recorded with the detail
 * ZIP each invoice queues (a report job on the twin's Step Functions, waited for inside the label, so
 * none of its requests falls on the next path). Its operations are the clients the run went through
 * (ours and the twin's others).
 */
async function faturamento(clientes: number, c: { twin: Twin; relay: Relay }): Promise<{ done: number }> {
  const { twin, relay } = c;
  const { putCliente } = await import('../../functions/clientes/store');
  const { CONTADOR_SHARDS, gravarContadores } = await import('../../functions/consumo/store');
  const { lerExecucao, lerFatura } = await import('../../functions/faturamento/store');
  const { faturaIdDe } = await import('../../functions/faturamento/regras');
  const mes = previousMonth(monthOf(new Date()));
  const ids = Array.from({ length: clientes }, (_, i) => `particoes-fat-${String(i).padStart(4, '0')}`);
  const agora = new Date().toISOString();
  await emParalelo(clientes, 4, async (i) => {
    const clienteId = ids[i]!;
    const razaoSocial = `PARTICOES FATURAMENTO ${i} LTDA`;
    await putCliente({
      clienteId, cnpj: novoCnpj(36_300 + i), razaoSocial, razaoFolded: foldText(razaoSocial), tipoCliente: 'ESF', situacao: 'A', email: `${clienteId}@plac.local`, uf: 'BA',
      logradouro: 'Rua 1', numero: '1', bairro: 'Centro', cidade: 'Salvador', cep: '40000000', telefone: '71999990000', nomeResponsavel: 'Bench',
      categoria: 'PRIVADA', createdAt: agora, updatedAt: agora, updatedBy: 'bench',
    });
    await gravarContadores(
      [1, 5, 9].flatMap((servico) =>
        UF_SIGLAS.flatMap((uf, u) =>
          Array.from({ length: 4 }, (_, k) => ({ clienteId, mes, servico, uf, shard: (i * 7 + u * 3 + servico * 11 + k * 16) % CONTADOR_SHARDS, requisicoes: 1 + ((i * 7_919 + servico * 104_729 + u * 1_299_709 + k) % 400) })),
        ),
      ),
    );
  });
  // The detail jobs the run starts (through the twin's Step Functions API): counted while they run.
  const relatorio = twin.stateMachines.get(relatorioStateMachine.id)!;
  const execute = relatorio.execute;
  const emVoo = new Set<Promise<unknown>>();
  relatorio.execute = (input, options) => {
    const p = execute.call(relatorio, input, options);
    emVoo.add(p);
    p.then(
      () => emVoo.delete(p),
      () => emVoo.delete(p),
    );
    return p;
  };
  let output: unknown;
  try {
    relay.label('billingRun');
    output = (await twin.stateMachines.get(faturamentoStateMachine.id)!.execute({ mes })).output;
    await esperar(() => emVoo.size === 0, 600_000, "the invoices' detail jobs");
  } finally {
    relay.label(null);
    relatorio.execute = execute;
  }
  const resumo = output as { execucaoId?: string; clientes?: number; emitidas?: number; jaEmitidas?: number; falhas?: number } | null;
  const execucao = resumo?.execucaoId ? await lerExecucao(resumo.execucaoId) : null;
  if (execucao?.situacao !== 'CONCLUIDA' || resumo?.falhas !== 0 || !resumo.clientes) throw new Error(`the billing run did not succeed: ${JSON.stringify(output)} (${execucao?.situacao})`);
  const faturas = await Promise.all(ids.map((id) => lerFatura(faturaIdDe(id, mes))));
  const sem = ids.filter((_, i) => faturas[i]?.situacao !== 'A' || !(faturas[i]!.valorServicos > 0));
  if (sem.length > 0) throw new Error(`the billing run left ${sem.length} of our ${clientes} clients without their invoice (${sem.slice(0, 3).join(', ')}…)`);
  return { done: resumo.clientes };
}

/**
 * webhookResume: one client's endpoint paused as the dispatcher pauses it (avaliarPausa: no success
 * since the failed delivery), `n` deliveries queued and held (PAUSADA), unrecorded; then the resume as
 * the portal's route starts it (the service's `retomar`: the pause marked, the job queued, its steps
 * move the held deliveries back and queue them, the dispatcher delivers them, the pause deleted last
 * and one more read after the pause copies' delay), recorded until the receiver has every delivery,
 * the job's last read is past and the relay has been quiet for 2 s.
 */
async function retomada(n: number, c: { kit: Kit; relay: Relay }): Promise<{ clienteId: string; done: number }> {
  const { kit, relay } = c;
  const clienteId = 'particoes-retomada';
  const operacao = 'ESCR_FAT' as const;
  const { putCliente } = await import('../../functions/clientes/store');
  const { configurarWebhook } = await import('../api/webhooks');
  const { enfileirarEntregas } = await import('../../functions/webhooks/fila');
  const { avaliarPausa } = await import('../../functions/webhooks/pausa');
  const { lerEntrega } = await import('../../functions/webhooks/log-store');
  const { ESPERA_DA_LEITURA_FINAL_MS, jobDaRetomada, lerJob } = await import('../../functions/webhooks/jobs');
  const { retomar } = await import('../../functions/webhooks/service');
  const agora = new Date().toISOString();
  const razaoSocial = 'PARTICOES RETOMADA LTDA';
  await putCliente({
    clienteId, cnpj: novoCnpj(36_004), razaoSocial, razaoFolded: foldText(razaoSocial), tipoCliente: 'ESF', situacao: 'A', email: 'retomada@plac.local', uf: 'GO',
    logradouro: 'Rua 1', numero: '1', bairro: 'Centro', cidade: 'Goiânia', cep: '74000000', telefone: '62999990000', nomeResponsavel: 'Bench',
    categoria: 'PRIVADA', createdAt: agora, updatedAt: agora, updatedBy: 'bench',
  });
  const url = `${kit.receptorUrl}/retomada`;
  await configurarWebhook(clienteId, url, { operacao, segredo: 'whsec_particoes_retomada' });
  if (!(await avaliarPausa({ deliveryId: `${operacao}:${clienteId}:falhou`, clienteId, operacao, razaoSocial, dataCriacao: agora, url }))) throw new Error('the endpoint was not paused');
  const outrasUfs = UF_SIGLAS.filter((u) => u !== 'SP');
  const ufDe = (i: number) => (i % 5 < 2 ? 'SP' : outrasUfs[i % outrasUfs.length]!);
  const idDe = (i: number) => `${operacao}:${clienteId}:retida-${i}`;
  for (let i = 0; i < n; i += 100) {
    await enfileirarEntregas(
      Array.from({ length: Math.min(100, n - i) }, (_, k) => ({ deliveryId: idDe(i + k), clienteId, operacao, payload: { versao: 1, tipo: operacao, chave: `52${String(i + k).padStart(42, '0')}`, uf: ufDe(i + k) } })),
    );
  }
  const retidas = new Set<number>();
  const ate = Date.now() + 300_000;
  while (retidas.size < n) {
    if (Date.now() > ate) throw new Error(`timed out waiting for ${n} deliveries held (${retidas.size})`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await emParalelo(n, 8, async (i) => {
      if (!retidas.has(i) && (await lerEntrega(idDe(i)))?.situacao === 'PAUSADA') retidas.add(i);
    });
  }
  if (Array.from({ length: n }, (_, i) => idDe(i)).some((id) => kit.recebidas.has(id))) throw new Error('a held delivery was posted');

  const admin = { userId: 'particoes-admin', name: 'Admin Partições', tipo: 'S' as const, roles: ['sefaz_admin' as const], uf: 'GO' };
  const requisicoes = () => Object.values(relay.requests('webhookResume')).reduce((s, x) => s + x, 0);
  relay.label('webhookResume');
  const inicio = Date.now();
  try {
    await retomar(admin, clienteId, operacao);
    await esperar(() => Array.from({ length: n }, (_, i) => idDe(i)).every((id) => kit.recebidas.has(id)), 300_000, `${n} held deliveries`);
    // The job's last read waits for the pause copies (ESPERA_DA_LEITURA_FINAL_MS after its start): past
    // that, quiet for 2 s.
    let vistas = requisicoes();
    let quieto = Date.now();
    await esperar(
      () => {
        const agoraMs = Date.now();
        if (requisicoes() !== vistas) [vistas, quieto] = [requisicoes(), agoraMs];
        return agoraMs >= inicio + ESPERA_DA_LEITURA_FINAL_MS + 1_000 && agoraMs - quieto >= 2_000;
      },
      120_000,
      'the resume job to end',
    );
  } finally {
    relay.label(null);
  }
  const job = await lerJob(jobDaRetomada(clienteId, operacao));
  if (job?.situacao !== 'CONCLUIDO' || job.enfileiradas !== n) throw new Error(`the resume job ended ${job?.situacao} with ${job?.enfileiradas} of ${n} queued`);
  return { clienteId, done: n };
}

/** A bookkeeper's prepaid account, paid, with room for `usos` registrations of 10 thousandths; answers its value in centavos. */
async function contaPrepaga(clienteId: string, cnpj: string, usos: number) {
  const store = await import('../../functions/prepago/store');
  const mes = monthOf(new Date());
  const valores = { envioFate: 10, monitoramento: 10, registroCessao: 10 };
  const agora = new Date().toISOString();
  const valor = usos * 10; // centavos, i.e. usos × 100 thousandths: ten times what the uses take
  const conta = { clienteId, cnpj, razaoSocial: 'PARTICOES ESCRITURADOR LTDA', ciclo: 1, situacao: 'AGUARDANDO_PAGAMENTO' as const, valorContratado: valor, saldoMilesimos: 0, valores, updatedAt: agora };
  const reserva = {
    clienteId, ciclo: 1, reservaId: `PA-${clienteId}-1`, cnpj, razaoSocial: conta.razaoSocial, emailContato: 'e@plac.local', qtdEnvioFate: 0, qtdMonitoramentoDe: usos, qtdRegistroCessao: 0,
    valor, faixaId: 'bench', mes, situacao: 'A' as const, dtVencimento: '2099-12-31', numeroDae: 1, codigoBarras: '0', linhaDigitavel: '0', chavePdf: 'x', createdAt: agora, createdBy: 'bench', lista: 'reservas',
  };
  if (!(await store.abrirCiclo(conta, reserva, null, agora.slice(0, 10), 1))) throw new Error('the prepaid account could not be opened');
  if (!(await store.creditar(reserva, { pagoEm: agora.slice(0, 10), codigoBarras: '0', prazoConsumo: '2099-12-31', agora, valores }))) throw new Error('the prepaid account could not be credited');
  return valor;
}

async function emParalelo(n: number, emVoo: number, fazer: (i: number) => Promise<void>) {
  let proximo = 0;
  await Promise.all(
    Array.from({ length: emVoo }, async () => {
      while (proximo < n) await fazer(proximo++);
    }),
  );
}

async function esperar(pronto: () => boolean, ms: number, oque: string) {
  const ate = Date.now() + ms;
  while (!pronto()) {
    if (Date.now() > ate) throw new Error(`timed out waiting for ${oque}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function https(base: string, method: string, path: string, o: { cert: { certPem: string; keyPem: string }; ca: string; agent: Agent }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { method, ca: o.ca, cert: o.cert.certPem, key: o.cert.keyPem, agent: o.agent }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
