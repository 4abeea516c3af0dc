/**
 * `npx tsx bench/export-requests.ts`: issue 38's `exportRequests` at a client's month of 1 M lines. One
 * client's request log of this month is written in bulk (BatchWriteItem through the store's
 * `gravarRequisicoes`, with the counters the charges would have left: `cobrar`'s transaction per line
 * would take most of an hour), at each size of BENCH_EXPORT_LINES ("100000,1000000" by default), and the
 * client's consumption report of the month is written by the report job's own steps in a process of their
 * own (bench/relatorio-passos.ts, its memory sampled every 20 ms), as the Relatorio state machine runs
 * them. Prints one JSON object: for each size, the lines written and expected (the counters), the steps,
 * parts, bytes, seconds, and peak rss/heap/array buffers of the job's process. bench/README.md quotes it;
 * docs/data-model.md ("Exports at any size") projects 10 M and 650 M lines from it.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { monthOf, todayInBahia } from '@plac/shared/domain';
import { freePort } from '../infra/local/emulators/ports';
import { startTwin } from '../infra/local/twin';

const root = fileURLToPath(new URL('..', import.meta.url));
const TAMANHOS = (process.env.BENCH_EXPORT_LINES ?? '100000,1000000').split(',').map(Number);
/** A client of its own (the demo clients have request-log lines of their own this month). */
const CLIENTE = 'bench-export';
/** Lines written per store call (the store sends them 25 a BatchWriteItem, 8 at once). */
const LOTE = 5_000;
const SERVICOS = [1, 2, 3];
const UFS = ['BA', 'SP', 'MG', 'RJ'];

const dataDir = await mkdtemp(join(tmpdir(), 'plac-bench-export-'));
const ports = { http: await freePort(), https: await freePort(), dynamodb: await freePort(), aws: await freePort(), mail: await freePort(), sefaz: await freePort() };
const twin = await startTwin({ dataDir, ports, web: 'none', webDir: join(root, 'web'), schedules: false, accessLog: false, dynamodbInMemory: true, sefaz: { backlog: 0, trickle: false } });
try {
  const { gravarContadores, gravarRequisicoes } = await import('../functions/consumo/store');
  const { registrar } = await import('../functions/consumo/relatorio-job');
  const { lerJob } = await import('../functions/consumo/relatorio-job-store');
  const cliente = { razaoSocial: 'Cliente Exportação Bench Ltda', cnpj: '11222333000181' };
  const hoje = todayInBahia();
  const mes = monthOf(new Date());
  const dias = Number(hoje.slice(8, 10));

  /** Line i: one of 3 services and 4 UFs, on one of the month's days so far, several a second. */
  const linha = (i: number) => {
    const dia = 1 + (i % dias);
    const segundo = Math.floor(i / dias) % 86_400;
    const createdAt = new Date(Date.parse(`${mes}-${String(dia).padStart(2, '0')}T03:00:00.000Z`) + segundo * 1000).toISOString();
    return { requestId: `${CLIENTE}:bench-export-${i}`, clienteId: CLIENTE, mes, servico: SERVICOS[i % 3]!, uf: UFS[Math.floor(i / 3) % 4]!, chave: `${String(i).padStart(44, '0')}`, createdAt };
  };

  const resultados = [];
  let escritas = 0;
  for (const tamanho of TAMANHOS) {
    const t0 = performance.now();
    const porServicoUf = new Map<string, number>();
    for (let i = escritas; i < tamanho; i += LOTE) {
      const lote = Array.from({ length: Math.min(LOTE, tamanho - i) }, (_, k) => linha(i + k));
      await gravarRequisicoes(lote);
      for (const l of lote) porServicoUf.set(`${l.servico}|${l.uf}`, (porServicoUf.get(`${l.servico}|${l.uf}`) ?? 0) + 1);
      if ((i / LOTE) % 20 === 0) console.error(`export bench: ${i + lote.length} lines written`);
    }
    // The counters as the charges would have left them (each in a shard of its own: they add up).
    const shard = resultados.length;
    await gravarContadores([...porServicoUf].map(([k, requisicoes]) => ({ clienteId: CLIENTE, mes, servico: Number(k.split('|')[0]), uf: k.split('|')[1]!, shard, requisicoes })));
    escritas = tamanho;
    const seedS = Math.round((performance.now() - t0) / 100) / 10;

    const nomeArquivo = `relatorio-consumo-bench-${mes}.csv`;
    const { job } = await registrar({ tipo: 'consumo', clienteId: CLIENTE, cliente: { razaoSocial: cliente.razaoSocial, cnpj: cliente.cnpj }, mes, chave: `consumo/${CLIENTE}/bench-${randomUUID()}/${nomeArquivo}`, nomeArquivo });
    const t1 = performance.now();
    const filho = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(root, 'bench/relatorio-passos.ts'), job.jobId], { cwd: root, env: process.env, maxBuffer: 1024 * 1024 });
    const ms = performance.now() - t1;
    const medida = JSON.parse(filho.stdout.trim().split('\n').at(-1)!) as { passos: number; segundos: number; picoRssMb: number; picoHeapMb: number; picoArrayBuffersMb: number };
    const fim = (await lerJob(job.jobId))!;
    const progresso = JSON.parse(fim.progresso) as { bytes: number; partes: unknown[] };
    const r = {
      lines: fim.linhas,
      linesByCounters: fim.total,
      complete: fim.estado === 'CONCLUIDO' && fim.linhas === fim.total && fim.total === tamanho,
      seedS,
      s: Math.round(ms / 100) / 10,
      linesPerS: Math.round(fim.linhas / (ms / 1000)),
      steps: medida.passos,
      parts: progresso.partes.length,
      mb: Math.round((progresso.bytes / 1024 / 1024) * 10) / 10,
      peakRssMb: medida.picoRssMb,
      peakHeapMb: medida.picoHeapMb,
      peakArrayBuffersMb: medida.picoArrayBuffersMb,
    };
    console.error(`export bench: ${JSON.stringify(r)}`);
    resultados.push(r);
  }
  console.log(JSON.stringify({ exportRequests: resultados }, null, 2));
} finally {
  await twin.stop();
  await rm(dataDir, { recursive: true, force: true });
}
