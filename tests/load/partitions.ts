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
import { buildChaveAcesso, cnpjCheckDigits, foldText, monthOf, UF_SIGLAS, type Uf } from '@plac/shared/domain';
import { sefazLoadStateMachine } from '../../infra/lib/topology';
import { freePort } from '../../infra/local/emulators/ports';
import { startTwin } from '../../infra/local/twin';
import { heat, type HotPartition } from './capacity';
import { startDynamoDbRelay } from './dynamodb-relay';

/** Aim: no partition past this share of its limit at the launch rates. */
export const AIM = 0.3;

export type PathName = 'meteredLookups' | 'prepaidDebits' | 'webhookDeliveries' | 'ingestion';

/**
 * The launch's rates (issue 36): per path, the operations a second on the keys naming the one client
 * driven (its quota, one bookkeeper, one client's deliveries) and on the platform's other keys.
 */
export const RATES: Record<PathName, { client: number; platform: number; note: string }> = {
  meteredLookups: { client: 250, platform: 500, note: 'metered look-ups 500/s platform-wide, one client at its quota (250/s)' },
  prepaidDebits: { client: 2_000, platform: 2_000, note: 'prepaid debits 2,000/s on one bookkeeper (a monitored key registered, paid by the balance)' },
  webhookDeliveries: { client: 2_000, platform: 5_000, note: 'webhook deliveries 2,000/s for one client, 5,000/s platform-wide' },
  ingestion: { client: 600, platform: 600, note: 'ingestion 600 Fat-e/s nationally, São Paulo 40 %' },
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
  // ingestion: the simulator's backlog loaded by one run of the Sefaz load state machine.
  const documents = UF_SIGLAS.reduce((sum, uf: Uf) => sum + twin.sefaz.maxNsu(uf, 'nfe') + twin.sefaz.maxNsu(uf, 'cte'), 0);
  relay.label(path);
  await twin.stateMachines.get(sefazLoadStateMachine.id)!.execute({ trigger: 'partitions' });
  relay.label(null);
  return { done: documents };
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
