/**
 * Prepaid debits (issue 17): every Fat-e delivered to a prepaid bookkeeper is one transaction that
 * creates the debit item, lowers one shard of the account's balance on condition and adds to that
 * shard's statement line (docs/prepago.md "The balance in shards": SALDO_SHARDS shards, a random one
 * per debit, so one bookkeeper's debits no longer all update one item and conflict).
 * Measured on a twin of its own, through the metering entry point (`medirUso`), CONCURRENCY uses in
 * flight:
 * - `hot`: BENCH_PREPAGO uses against ONE account (one busy bookkeeper: its debits spread over the
 *   account's shards);
 * - `spread`: the same number against ACCOUNTS accounts (uses of different bookkeepers);
 * - `ratio`: hot over spread throughput — what one account still costs (≈ 1 with the shards).
 * Exactness is checked: each account's balance (the sum of its shards) fell by exactly its uses × the
 * unit value, no shard is below zero, and its statement counts them; nothing was billed monthly.
 *
 * Run as its own process (`tsx bench/prepago.ts`): the twin sets the functions' environment in it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addDays, monthOf, SALDO_SHARDS, SERVICO, todayInBahia } from '@plac/shared/domain';
import { freePort } from '../infra/local/emulators/ports';
import { startTwin } from '../infra/local/twin';
import { round } from './medidas';

const USES = Number(process.env.BENCH_PREPAGO ?? 2000);
const CONCURRENCY = 16;
const ACCOUNTS = 16;
/** 'Envio de Fat-e' at R$ 0,010. */
const UNIT = 10;

export async function prepaidDebits(root: string) {
  const dataDir = await mkdtemp(join(tmpdir(), 'plac-bench-prepago-'));
  const ports = { http: await freePort(), https: await freePort(), dynamodb: await freePort(), aws: await freePort(), mail: await freePort(), sefaz: await freePort() };
  const twin = await startTwin({ dataDir, ports, web: 'none', webDir: join(root, 'web'), schedules: false, sefaz: { backlog: 0, trickle: false } });
  try {
    const store = await import('../functions/prepago/store');
    const { medirUso } = await import('../functions/consumo/service');
    const { consumoDoCliente } = await import('../functions/consumo');
    const hoje = todayInBahia();
    const mes = monthOf(new Date());

    /** An account in force, credited with R$ 1.000.000,00, as a paid reservation leaves it. */
    async function conta(clienteId: string) {
      const agora = new Date().toISOString();
      const valor = 1_000_000_00;
      await store.abrirCiclo(
        { clienteId, cnpj: '0', razaoSocial: clienteId, ciclo: 1, situacao: 'AGUARDANDO_PAGAMENTO', valorContratado: valor, saldoMilesimos: 0, valores: { envioFate: UNIT, monitoramento: 25, registroCessao: 350 }, updatedAt: agora },
        {
          clienteId, ciclo: 1, reservaId: `PA-${clienteId}-1`, cnpj: '0', razaoSocial: clienteId, emailContato: 'bench@plac.local', qtdEnvioFate: 100_000_000, qtdMonitoramentoDe: 0, qtdRegistroCessao: 0,
          valor, faixaId: 'bench', mes, situacao: 'A', dtVencimento: hoje, numeroDae: 1, codigoBarras: '0', linhaDigitavel: '0', chavePdf: 'x', createdAt: agora, createdBy: 'bench', lista: 'reservas',
        },
        null,
        hoje,
        1,
      );
      await store.creditar((await store.lerReserva(clienteId, 1))!, { pagoEm: hoje, codigoBarras: '0', prazoConsumo: addDays(hoje, 365), agora, valores: { envioFate: UNIT, monitoramento: 25, registroCessao: 350 } });
      return valor * 10;
    }

    async function run(label: string, contas: readonly string[]) {
      const inicial = new Map<string, number>();
      for (const c of contas) inicial.set(c, await conta(c));
      let next = 0;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < USES) {
            const i = next++;
            const clienteId = contas[i % contas.length]!;
            const r = await medirUso({ chave: `bench:${label}:${i}`, clienteId, servico: SERVICO.envioFate, uf: 'GO', documento: `doc-${i}` });
            if (r !== 'cobrada') throw new Error(`use ${i}: ${r}`);
          }
        }),
      );
      const seconds = (performance.now() - t0) / 1000;
      // Exactness: every use debited once, from the right account, and none billed monthly.
      for (const c of contas) {
        const usos = Math.floor(USES / contas.length) + (contas.indexOf(c) < USES % contas.length ? 1 : 0);
        const saldo = (await store.lerConta(c))!.saldoMilesimos;
        if ((await store.lerShards(c)).some((s) => s.saldoMilesimos < 0)) throw new Error(`${c}: a shard below zero`);
        if (saldo !== inicial.get(c)! - usos * UNIT) throw new Error(`${c}: balance ${saldo}, expected ${inicial.get(c)! - usos * UNIT}`);
        const linha = (await store.extratoDoMes(c, mes)).find((l) => l.servico === SERVICO.envioFate);
        if (linha?.requisicoes !== usos) throw new Error(`${c}: statement ${linha?.requisicoes}, expected ${usos}`);
        if ((await consumoDoCliente(c, mes)).length > 0) throw new Error(`${c}: billed monthly`);
      }
      return { uses: USES, accounts: contas.length, seconds: round(seconds, 2), debitsPerSecond: round(USES / seconds, 1) };
    }

    const hot = await run('hot', ['bench-pre-hot']);
    const spread = await run('spread', Array.from({ length: ACCOUNTS }, (_, i) => `bench-pre-${String(i).padStart(2, '0')}`));
    return { concurrency: CONCURRENCY, shards: SALDO_SHARDS, hot, spread, ratio: round(hot.debitsPerSecond / spread.debitsPerSecond, 3) };
  } finally {
    await twin.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('prepago.ts')) {
  console.log(JSON.stringify(await prepaidDebits(fileURLToPath(new URL('..', import.meta.url)))));
  process.exit(0);
}
