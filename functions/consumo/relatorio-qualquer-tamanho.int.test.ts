import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand } from '../platform/aws-direto/s3';
import { unzipSync } from 'fflate';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { localStateMachineArn, startStepFunctionsEndpoint, type StepFunctionsEndpoint } from '../../infra/local/emulators/step-functions';
import { localStateMachines } from '../../infra/local/state-machines';
import { relatorioStateMachine } from '../../infra/lib/topology';
import { dynamoDb, s3Client } from '../platform/aws';
import { config } from '../platform/env';
import { iniciar } from './relatorio-job';
import { lerJob, type RelatorioJobRecord } from './relatorio-job-store';
import { formaAntiga, gravarContadores, gravarRequisicoes, paginaDeRequisicoes, requisicoesDoCliente, shardDoLog, type RequisicaoRecord } from './store';

/**
 * Issue 38, "Exports of any size", against the twin's DynamoDB and S3:
 * - a job of many steps goes on in new executions every PLAC_RELATORIO_PASSOS_POR_EXECUCAO steps (3
 *   here), each started by the job itself (`<jobId>-<attempt>-<n>`), and its file is complete and right;
 * - the detail ZIP written with ZIP64 forced opens in ordinary readers with the same entries, byte for
 *   byte, as the one without;
 * - one service's lines are key reads of its own log partitions, and the lines logged before the
 *   service was in the key (and before the shards) are read beside them, in order.
 * The machine runs in this process behind a Step Functions endpoint of this file's own (the twin's
 * emulator), so the job's steps read this file's small step sizes.
 */
const mes = '2026-07';
const cliente = { razaoSocial: 'CLIENTE QUALQUER TAMANHO', cnpj: '12345678000195' };
const clienteId = `tam-${randomUUID()}`;
const inicio = Date.parse(`${mes}-02T03:00:00Z`);
/** Lines of the month: service 1 and 9 in the new keys, some in the two forms of before. */
const linhas = Array.from({ length: 1_200 }, (_, i) => ({
  requestId: `${clienteId}:${randomUUID()}`,
  clienteId,
  mes,
  servico: i % 4 === 0 ? 9 : 1,
  uf: i % 2 ? 'SP' : 'BA',
  chave: `3526071234567800019055001${String(i).padStart(19, '0')}`,
  // Several a second: the log's order (instant, then id) is not the order written.
  createdAt: new Date(inicio + Math.floor(i / 3) * 1000).toISOString(),
  forma: i % 50 === 7 ? ('semServico' as const) : i % 97 === 5 ? ('semShard' as const) : ('nova' as const),
}));
const ordenadas = [...linhas].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.requestId < b.requestId ? -1 : 1));
const semCliente = (id: string) => id.slice(clienteId.length + 1);

/** How the log was indexed before issue 38 (the service not in the index key): written here as it was then. */
const requisicaoDeAntes = formaAntiga.requisicaoSemServico();

const VARIAVEIS = ['PLAC_RELATORIO_PASSOS_POR_EXECUCAO', 'PLAC_RELATORIO_PAGINAS_POR_PASSO', 'PLAC_RELATORIO_ITENS_POR_PAGINA', 'PLAC_RELATORIO_ZIP64', 'AWS_ENDPOINT_URL_SFN', 'RELATORIO_STATE_MACHINE_ARN'];
const envAntes = Object.fromEntries(VARIAVEIS.map((k) => [k, process.env[k]]));
let endpoint: StepFunctionsEndpoint;

async function gravarMes(linhasDoMes: typeof linhas): Promise<void> {
  await gravarRequisicoes(linhasDoMes.filter((l) => l.forma === 'nova').map(({ forma: _, ...l }) => l));
  for (const { forma, ...l } of linhasDoMes) {
    if (forma === 'semServico') await requisicaoDeAntes.put({ ...l, expiresAt: 4_000_000_000, shard: shardDoLog(l.requestId) }).go();
    if (forma === 'semShard') await formaAntiga.requisicao().put({ ...l, expiresAt: 4_000_000_000, shard: 0 }).go();
  }
  const porServicoUf = new Map<string, number>();
  for (const l of linhasDoMes) porServicoUf.set(`${l.servico}|${l.uf}`, (porServicoUf.get(`${l.servico}|${l.uf}`) ?? 0) + 1);
  await gravarContadores([...porServicoUf].map(([k, requisicoes]) => ({ clienteId: linhasDoMes[0]!.clienteId, mes, servico: Number(k.split('|')[0]), uf: k.split('|')[1]!, shard: 0, requisicoes })));
}

beforeAll(async () => {
  await gravarMes(linhas);
  // Tiny steps (one page of 50 lines a service: 100 for the whole month's 2 services) and executions of
  // 3 steps: the report's 12 steps span 4 executions, the ZIP's 24 span 8.
  Object.assign(process.env, { PLAC_RELATORIO_PASSOS_POR_EXECUCAO: '3', PLAC_RELATORIO_PAGINAS_POR_PASSO: '1', PLAC_RELATORIO_ITENS_POR_PAGINA: '50' });
  const machine = localStateMachines().get(relatorioStateMachine.id)!;
  endpoint = await startStepFunctionsEndpoint(new Map([[relatorioStateMachine.localName, machine]]));
  process.env.AWS_ENDPOINT_URL_SFN = endpoint.url;
  process.env.RELATORIO_STATE_MACHINE_ARN = localStateMachineArn(relatorioStateMachine.localName);
}, 240_000);

afterAll(async () => {
  await endpoint?.stop();
  for (const k of VARIAVEIS) {
    if (envAntes[k] === undefined) delete process.env[k];
    else process.env[k] = envAntes[k];
  }
});

async function objeto(key: string): Promise<Buffer> {
  const got = await s3Client().send(new GetObjectCommand({ Bucket: config.documentsBucket, Key: key }));
  return Buffer.from(await got.Body!.transformToByteArray());
}

/** Starts the job as the API does, waits for it, and answers it with the names of the executions it ran in. */
async function executarAteOFim(novo: Parameters<typeof iniciar>[0]): Promise<{ job: RelatorioJobRecord; execucoes: string[] }> {
  const iniciado = await iniciar(novo);
  await expect.poll(async () => (await lerJob(iniciado.jobId))?.estado, { timeout: 180_000, interval: 250 }).toBe('CONCLUIDO');
  const job = (await lerJob(iniciado.jobId))!;
  const execucoes: string[] = [];
  for (let n = 0; ; n++) {
    const nome = n === 0 ? `${job.jobId}-${job.tentativa}` : `${job.jobId}-${job.tentativa}-${n}`;
    const feita = endpoint.execution(nome);
    if (!feita) break;
    await feita;
    execucoes.push(nome);
  }
  return { job, execucoes };
}

describe('a report job longer than one execution', () => {
  it('goes on in a new execution every 3 steps, started by itself, and writes every line once, in order', async () => {
    const jobId = `tam-consumo-${randomUUID()}`;
    const { job, execucoes } = await executarAteOFim({ jobId, tipo: 'consumo', clienteId, cliente, mes, chave: `consumo/${clienteId}/${jobId}/r.csv`, nomeArquivo: 'r.csv' });
    expect(job).toMatchObject({ linhas: linhas.length, total: linhas.length });
    // 1,200 lines at 100 a step: every execution but the last ran 3 steps, then handed on.
    expect(job.passo).toBeGreaterThanOrEqual(12);
    expect(execucoes).toHaveLength(Math.ceil(job.passo / 3));
    expect(execucoes.length).toBeGreaterThanOrEqual(4);

    const texto = (await objeto(job.chave)).toString('utf8').slice(1);
    const csv = Papa.parse<string[]>(texto, { delimiter: ';', newline: '\r\n' }).data;
    const cabecalho = csv.findIndex((l) => l[0] === 'Data/Hora');
    const detalhe = csv.slice(cabecalho + 1, csv.findIndex((l, i) => i > cabecalho && l.length === 1 && l[0] === ''));
    // The month's order (instant, then request id), the lines of the keys of before among the new ones.
    expect(detalhe.map((l) => l[4])).toEqual(ordenadas.map((l) => semCliente(l.requestId)));
    expect(csv.at(-1)).toEqual(['Total', '', String(linhas.length)]);
  }, 240_000);

  it('writes the detail ZIP with ZIP64 forced: ordinary readers open it, each entry byte for byte the one written without ZIP64', async () => {
    const semZip64 = `tam-det-${randomUUID()}`;
    const comZip64 = `tam-det64-${randomUUID()}`;
    const detalhe = (jobId: string) => ({ jobId, tipo: 'detalhamento' as const, clienteId, cliente, mes, chave: `faturas/${clienteId}/${jobId}/detalhamento.zip`, nomeArquivo: 'detalhamento_fatura.zip' });
    const normal = await executarAteOFim(detalhe(semZip64));
    process.env.PLAC_RELATORIO_ZIP64 = 'sempre';
    const forcado = await executarAteOFim(detalhe(comZip64));
    delete process.env.PLAC_RELATORIO_ZIP64;
    expect(forcado.execucoes.length).toBeGreaterThanOrEqual(4);

    const [a, b] = [await objeto(normal.job.chave), await objeto(forcado.job.chave)];
    // Only the forced one has the zip64 end of central directory record (and its locator).
    expect(a.indexOf(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(-1);
    expect(b.indexOf(Buffer.from([0x50, 0x4b, 0x06, 0x07]))).toBeGreaterThan(0);
    const [entradasA, entradasB] = [unzipSync(a), unzipSync(b)];
    expect(Object.keys(entradasB)).toEqual(['01-Consulta_Fat-e_por_Chave_de_Acesso.csv', '09-Envio_de_Fat-e.csv']);
    expect(Object.keys(entradasA)).toEqual(Object.keys(entradasB));
    for (const nome of Object.keys(entradasA)) expect(Buffer.from(entradasB[nome]!).equals(Buffer.from(entradasA[nome]!))).toBe(true);
    // Each service's entry: its lines only, in the month's order, the old keys' among them.
    for (const [nome, servico] of [['01-Consulta_Fat-e_por_Chave_de_Acesso.csv', 1], ['09-Envio_de_Fat-e.csv', 9]] as const) {
      const texto = Buffer.from(entradasB[nome]!).toString('utf8').split('\r\n');
      const primeira = texto.indexOf('Data/Hora;Serviço;UF;Chave;Requisição') + 1;
      const ids = texto.slice(primeira, texto.indexOf('', primeira)).map((l) => l.split(';')[4]);
      expect(ids).toEqual(ordenadas.filter((l) => l.servico === servico).map((l) => semCliente(l.requestId)));
    }

    // Ordinary tools, where the machine has them: Info-ZIP's unzip and Python's zipfile.
    const arquivo = join(mkdtempSync(join(tmpdir(), 'tam-zip64-')), 'd.zip');
    writeFileSync(arquivo, b);
    const rodar = (comando: string, args: string[]) => {
      try {
        return execFileSync(comando, args, { maxBuffer: 64 * 1024 * 1024 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    };
    const teste = rodar('unzip', ['-t', arquivo]);
    if (teste) expect(teste.toString('utf8')).toContain('No errors detected');
    const pedaco = rodar('unzip', ['-p', arquivo, '09-Envio_de_Fat-e.csv']);
    if (pedaco) expect(pedaco.equals(Buffer.from(entradasA['09-Envio_de_Fat-e.csv']!))).toBe(true);
    const python = rodar('python3', ['-m', 'zipfile', '-t', arquivo]);
    if (python) expect(python.toString('utf8')).toContain('Done testing');
  }, 300_000);
});

describe('the request log by service', () => {
  it('reads one service by its own keys: a service of 30 lines reads about 30 items, not the month of 3,000 more', async () => {
    const outro = `tam-chave-${randomUUID()}`;
    const doOutro = Array.from({ length: 3_030 }, (_, i) => ({
      ...linhas[0]!,
      requestId: `${outro}:${i}`,
      clienteId: outro,
      servico: i % 101 === 0 ? 9 : 1,
      createdAt: new Date(inicio + i * 1000).toISOString(),
      forma: 'nova' as const,
    }));
    await gravarMes(doOutro);
    let lidos = 0;
    const enviar = dynamoDb().send.bind(dynamoDb());
    const espiao = vi.spyOn(dynamoDb(), 'send').mockImplementation(async (command, opcoes) => {
      const r = await enviar(command, opcoes);
      lidos += (r as { ScannedCount?: number }).ScannedCount ?? 0;
      return r;
    });
    const paginas: RequisicaoRecord[][] = [];
    try {
      let cursor: string | null = null;
      do {
        const pagina = await paginaDeRequisicoes(outro, mes, { cursor, limite: 7, servico: 9 });
        paginas.push(pagina.data);
        cursor = pagina.cursor;
      } while (cursor);
    } finally {
      espiao.mockRestore();
    }
    const esperadas = doOutro.filter((l) => l.servico === 9).map((l) => l.requestId);
    expect(paginas.flat().map((r) => r.requestId)).toEqual(esperadas);
    // Pages of 7 read through the cursor: each item read at most a few times over, never service 1's 3,000.
    expect(paginas.length).toBeGreaterThanOrEqual(5);
    expect(lidos).toBeGreaterThanOrEqual(esperadas.length);
    expect(lidos).toBeLessThan(esperadas.length * 4);
    // The whole month merges both services' partitions, in order.
    expect((await requisicoesDoCliente(outro, mes)).map((r) => r.requestId)).toEqual(doOutro.map((l) => l.requestId));
  }, 180_000);

  it('reads the lines logged before the service was in the key (and before the shards) beside the new ones, by service and whole', async () => {
    expect((await requisicoesDoCliente(clienteId, mes)).map((r) => r.requestId)).toEqual(ordenadas.map((l) => l.requestId));
    const servico9: string[] = [];
    let cursor: string | null = null;
    do {
      const pagina = await paginaDeRequisicoes(clienteId, mes, { cursor, limite: 50, servico: 9 });
      servico9.push(...pagina.data.map((r) => r.requestId));
      cursor = pagina.cursor;
    } while (cursor);
    expect(servico9).toEqual(ordenadas.filter((l) => l.servico === 9).map((l) => l.requestId));
    expect(linhas.filter((l) => l.forma !== 'nova' && l.servico === 9).length).toBeGreaterThan(0);
  }, 60_000);
});
