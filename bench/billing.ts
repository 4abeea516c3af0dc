/**
 * The billing run over synthetic usage (issue 14): CLIENTS active clients × 9 services × 27 UFs of
 * counters in last month, billed end to end on a twin of its own (the Faturamento state machine →
 * ListShards → Map over shards, 5 at a time → BillShard: read the client's counters, price them, create
 * the invoice on condition). Next to it, the time to merely read the same counters with the same
 * concurrency (5 clients at a time, one Query each). The ratio is the figure: the read time over the
 * run's time, i.e. the share of bare read speed the run keeps while it prices and writes invoices.
 *
 * Run as its own process (`tsx bench/billing.ts`): the twin sets the functions' environment in it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addDays, cnpjCheckDigits, foldText, monthOf, previousMonth, todayInBahia, UF_SIGLAS } from '@plac/shared/domain';
import { faturamentoStateMachine } from '../infra/lib/topology';
import { freePort } from '../infra/local/emulators/ports';
import { startTwin } from '../infra/local/twin';
import { round } from './medidas';

const CLIENTS = Number(process.env.BENCH_BILLING_CLIENTS ?? 2000);
const SERVICES = [1, 2, 3, 4, 5, 6, 7, 8, 9];
/** The state machine's Map runs 5 shards at a time, each one client after another. */
const READERS = 5;

export async function billingThroughput(root: string) {
  const dataDir = await mkdtemp(join(tmpdir(), 'plac-bench-billing-'));
  const ports = { http: await freePort(), https: await freePort(), dynamodb: await freePort(), aws: await freePort(), mail: await freePort(), sefaz: await freePort() };
  const twin = await startTwin({ dataDir, ports, web: 'none', webDir: join(root, 'web'), schedules: false, sefaz: { backlog: 0, trickle: false } });
  try {
    const daeFirstMs = await primeiroDae(twin.url);
    const { putCliente } = await import('../functions/clientes/store');
    const { gravarContadores } = await import('../functions/consumo/store');
    const { consumoDoCliente } = await import('../functions/consumo');
    const mes = previousMonth(monthOf(new Date()));

    const t0 = performance.now();
    const ids = Array.from({ length: CLIENTS }, (_, i) => `bench-fat-${String(i).padStart(5, '0')}`);
    await inBatches(ids, 20, async (clienteId, i) => {
      const first12 = `${String(10_000_000 + i).padStart(8, '0')}0001`;
      const razaoSocial = `CLIENTE BENCH ${i}`;
      const now = new Date().toISOString();
      await putCliente({
        clienteId, cnpj: first12 + cnpjCheckDigits(first12), razaoSocial, razaoFolded: foldText(razaoSocial), tipoCliente: 'ESF', situacao: 'A',
        email: `${clienteId}@bench.local`, uf: 'BA', createdAt: now, updatedAt: now, updatedBy: 'bench',
      });
    });
    // One counter per (client, service, UF), one shard each; quantities spread over the bands.
    // DynamoDB Local writes one item at a time (about 300-600 a second here): this is most of the bench's time.
    await inBatches(ids, 4, async (clienteId, i) => {
      if (i % 250 === 0) console.error(`billing bench: seeding client ${i} of ${CLIENTS}…`);
      const items = SERVICES.flatMap((servico) =>
        UF_SIGLAS.map((uf, u) => ({ clienteId, mes, servico, uf, shard: 0, requisicoes: 1 + ((i * 7919 + servico * 104_729 + u * 1_299_709) % 3_000) })),
      );
      await gravarContadores(items);
    });
    const seedSeconds = (performance.now() - t0) / 1000;

    // The bare reads: every client's counters, READERS at a time.
    const r0 = performance.now();
    let rows = 0;
    await inBatches(ids, READERS, async (clienteId) => {
      const linhas = await consumoDoCliente(clienteId, mes);
      rows += linhas.length;
    });
    const readSeconds = (performance.now() - r0) / 1000;

    const b0 = performance.now();
    const { output } = await twin.stateMachines.get(faturamentoStateMachine.id)!.execute({ mes });
    const runSeconds = (performance.now() - b0) / 1000;
    const summary = output as { clientes?: number; emitidas?: number; falhas?: number };
    return {
      daeFirstMs,
      clients: CLIENTS,
      countersPerClient: SERVICES.length * UF_SIGLAS.length,
      seedSeconds: round(seedSeconds, 1),
      counterReads: { rows, seconds: round(readSeconds, 1), clientsPerSecond: round(CLIENTS / readSeconds, 1) },
      run: { seconds: round(runSeconds, 1), clientsPerSecond: round((summary.clientes ?? CLIENTS) / runSeconds, 1), summary },
      /** Bare counter reads' time over the run's: the share of read speed the run keeps. */
      ratio: round(readSeconds / runSeconds, 3),
    };
  } finally {
    await twin.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * The first DAE of a fresh twin, through its HTTP gateway as the portal asks it: the billing function
 * loads pdf-lib, draws the barcode and stores the PDF (issue 27 item 2: about 6.8 s with bwip-js).
 */
async function primeiroDae(url: string): Promise<number> {
  const { emitirFatura } = await import('../functions/faturamento/store');
  // Invoices written here are written as a Lambda writes them: with the repasse's shares wired in.
  const { faturaIdDe } = await import('../functions/faturamento/regras');
  const { openSession } = await import('../functions/platform/auth/sessions');
  const { signToken } = await import('../functions/platform/auth/tokens');
  const principal = { userId: 'bench-dae', name: 'Bench DAE', tipo: 'S' as const, roles: ['sefaz_admin' as const], uf: 'BA' };
  const token = await signToken(principal, await openSession(principal), 900);
  const mes = previousMonth(previousMonth(monthOf(new Date())));
  const faturaId = faturaIdDe('bench-dae', mes);
  await emitirFatura({
    faturaId, clienteId: 'bench-dae', cnpj: '12345678000195', razaoSocial: 'CLIENTE BENCH DAE', mes, situacao: 'A', itens: [], valorServicos: 0,
    valorAssinatura: 750_60, valorTotal: 750_60, assinaturaMinima: 750_00, execucaoId: 'bench', emitidaEm: new Date().toISOString(), revisao: 1,
  });
  const t0 = performance.now();
  const r = await fetch(`${url}/api/v1/fatura/${faturaId}/dae`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ dataVencimento: addDays(todayInBahia(), 3) }),
  });
  const ms = performance.now() - t0;
  if (r.status !== 200) throw new Error(`first DAE answered ${r.status}: ${await r.text()}`);
  return round(ms, 0);
}

/** `work` over every item, `width` at a time. */
async function inBatches<T>(items: readonly T[], width: number, work: (item: T, index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i]!, i);
      }
    }),
  );
}

if (process.argv[1]?.endsWith('billing.ts')) {
  console.log(JSON.stringify(await billingThroughput(fileURLToPath(new URL('..', import.meta.url)))));
  process.exit(0);
}
