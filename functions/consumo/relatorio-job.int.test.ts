import { randomUUID } from 'node:crypto';
import { GetObjectCommand } from '../platform/aws-direto/s3';
import { unzipSync } from 'fflate';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relatorioStateMachine } from '../../infra/lib/topology';
import { RELATORIO_STATES } from '../../infra/lib/state-machines';
import { localStateMachines, type LocalStateMachine } from '../../infra/local/state-machines';
import { s3Client } from '../platform/aws';
import { config } from '../platform/env';
import { registrar } from './relatorio-job';
import { lerJob } from './relatorio-job-store';
import { gravarContadores, gravarRequisicoes } from './store';

/**
 * The report job against the twin (DynamoDB Local, fauxqs' S3 with its 5 MiB smallest part), its state
 * machine run here by aws-local-stepfunctions with small steps: a month of 40,000 request-log lines
 * (about 5.6 MB of CSV, more than one part) is written over many steps and two parts, and the CSV
 * read back has every request exactly once; the ZIP of the same month, one CSV per service.
 */
const LINHAS = 40_000;
const mes = '2026-09';
const clienteId = `rel-${randomUUID()}`;
const cliente = { razaoSocial: 'CLIENTE RELATÓRIO GRANDE', cnpj: '12345678000195' };
const ids = Array.from({ length: LINHAS }, () => randomUUID());
const servicoDe = (i: number) => (i % 3 === 0 ? 9 : 1);
const ufDe = (i: number) => (i % 2 ? 'SP' : 'BA');

let machine: LocalStateMachine;
const envAntes = { ...process.env };

beforeAll(async () => {
  // Small steps: 4 pages of 250 lines a service; S3's smallest part (fauxqs refuses less but for the last one).
  Object.assign(process.env, { PLAC_RELATORIO_PARTE_BYTES: String(5 * 1024 * 1024), PLAC_RELATORIO_PAGINAS_POR_PASSO: '4', PLAC_RELATORIO_ITENS_POR_PAGINA: '250' });
  // 250 a page and service: the whole month's pages (both services) are 500 lines, so the 5 MiB part fills a page before the month's last (issue 38: a page of every service is one per service larger).
  const inicio = Date.parse(`${mes}-01T03:00:00Z`);
  await gravarRequisicoes(
    ids.map((id, i) => ({
      requestId: `${clienteId}:${id}`,
      clienteId,
      mes,
      servico: servicoDe(i),
      uf: ufDe(i),
      chave: `3526091234567800019055001${String(i).padStart(19, '0')}`,
      // Several lines a second: the log's order (time, then id) is not the order written here.
      createdAt: new Date(inicio + Math.floor(i / 4) * 1000).toISOString(),
    })),
  );
  const porServicoUf = new Map<string, number>();
  ids.forEach((_, i) => porServicoUf.set(`${servicoDe(i)}|${ufDe(i)}`, (porServicoUf.get(`${servicoDe(i)}|${ufDe(i)}`) ?? 0) + 1));
  await gravarContadores(
    [...porServicoUf].map(([k, requisicoes]) => {
      const [servico, uf] = k.split('|');
      return { clienteId, mes, servico: Number(servico), uf: uf!, shard: 0, requisicoes };
    }),
  );
  machine = localStateMachines().get(relatorioStateMachine.id)!;
}, 240_000);

afterAll(() => {
  for (const k of ['PLAC_RELATORIO_PARTE_BYTES', 'PLAC_RELATORIO_PAGINAS_POR_PASSO', 'PLAC_RELATORIO_ITENS_POR_PAGINA']) {
    if (envAntes[k] === undefined) delete process.env[k];
    else process.env[k] = envAntes[k];
  }
});

async function objeto(key: string): Promise<Buffer> {
  const got = await s3Client().send(new GetObjectCommand({ Bucket: config.documentsBucket, Key: key }));
  return Buffer.from(await got.Body!.transformToByteArray());
}

/** Runs the job's machine; after each step, the job's progress as the API would read it. */
async function executar(jobId: string, duplicar?: number) {
  const progresso: number[] = [];
  let passos = 0;
  const { output, events } = await machine.execute(
    { jobId },
    {
      wrap: (state, invoke) => async (input) => {
        if (state !== RELATORIO_STATES.step) return invoke(input);
        passos++;
        // A step delivered twice at once (a retry racing a slow first try): one write wins, nothing doubles.
        const answer = passos === duplicar ? (await Promise.all([invoke(input), invoke(input)]))[0] : await invoke(input);
        progresso.push((await lerJob(jobId))!.linhas);
        return answer;
      },
    },
  );
  return { output, events, progresso, passos };
}

describe('the report job', () => {
  it('writes a month larger than one part over many steps and parts: every request exactly once, its progress reported', async () => {
    const { job } = await registrar({ tipo: 'consumo', clienteId, cliente, mes, chave: `consumo/${clienteId}/teste/relatorio.csv`, nomeArquivo: 'relatorio.csv' });
    expect(job).toMatchObject({ estado: 'PROCESSANDO', total: LINHAS, linhas: 0 });
    const { progresso, passos } = await executar(job.jobId, 2);

    const fim = (await lerJob(job.jobId))!;
    expect(fim).toMatchObject({ estado: 'CONCLUIDO', linhas: LINHAS });
    expect(passos).toBeGreaterThanOrEqual(LINHAS / 2000);
    expect(JSON.parse(fim.progresso).partes.length).toBe(2);
    // Progress only goes forward, and is real: it reached the total at the last step only.
    expect(progresso).toEqual([...progresso].sort((a, b) => a - b));
    expect(progresso.filter((n) => n === LINHAS)).toHaveLength(1);

    const bytes = await objeto(job.chave);
    expect(bytes.length).toBeGreaterThan(5 * 1024 * 1024);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const linhas = Papa.parse<string[]>(bytes.toString('utf8').slice(1), { delimiter: ';', newline: '\r\n' }).data;
    const cabecalho = linhas.findIndex((l) => l[0] === 'Data/Hora');
    const vazia = linhas.findIndex((l, i) => i > cabecalho && l.length === 1 && l[0] === '');
    const detalhe = linhas.slice(cabecalho + 1, vazia);
    const lidos = detalhe.map((l) => l[4]!);
    expect(lidos).toHaveLength(LINHAS);
    expect(new Set(lidos).size).toBe(LINHAS);
    expect([...lidos].sort()).toEqual([...ids].sort());
    // Oldest first, as the log reads.
    const instantes = detalhe.map((l) => l[0]!.replace(/^(\d{2})\/(\d{2})\/(\d{4}) /, '$3-$2-$1 '));
    expect(instantes).toEqual([...instantes].sort());
    // The totals by service and UF, counted as the lines passed.
    const totais = linhas.slice(vazia + 2).map((l) => l.join(';'));
    expect(totais.at(-1)).toBe(`Total;;${LINHAS}`);
    expect(totais.slice(0, -1).reduce((s, l) => s + Number(l.split(';')[2]), 0)).toBe(LINHAS);
  }, 240_000);

  it('writes the detail ZIP of the month over many steps: one CSV per service, each line once', async () => {
    const { job } = await registrar({
      jobId: `det-teste-${clienteId}`,
      tipo: 'detalhamento',
      clienteId,
      cliente,
      mes,
      chave: `faturas/${clienteId}/teste/detalhamento.zip`,
      nomeArquivo: 'detalhamento_fatura.zip',
    });
    const { passos } = await executar(job.jobId);
    expect(passos).toBeGreaterThan(10);
    expect((await lerJob(job.jobId))!).toMatchObject({ estado: 'CONCLUIDO', linhas: LINHAS });
    // Made once: asked again, the job is the one done, nothing starts.
    expect(await registrar({ jobId: job.jobId, tipo: 'detalhamento', clienteId, cliente, mes, chave: job.chave, nomeArquivo: job.nomeArquivo })).toMatchObject({
      criado: false,
      job: { estado: 'CONCLUIDO' },
    });

    const entradas = unzipSync(new Uint8Array(await objeto(job.chave)));
    expect(Object.keys(entradas)).toEqual(['01-Consulta_Fat-e_por_Chave_de_Acesso.csv', '09-Envio_de_Fat-e.csv']);
    const porServico = Object.values(entradas).map((bytes) => {
      const texto = Buffer.from(bytes).toString('utf8');
      const linhas = texto.split('\r\n');
      const inicio = linhas.indexOf('Data/Hora;Serviço;UF;Chave;Requisição') + 1;
      return linhas.slice(inicio, linhas.indexOf('', inicio)).map((l) => l.split(';')[4]!);
    });
    expect(porServico.map((l) => l.length)).toEqual([ids.filter((_, i) => servicoDe(i) === 1).length, ids.filter((_, i) => servicoDe(i) === 9).length]);
    expect(new Set(porServico.flat()).size).toBe(LINHAS);
  }, 240_000);
});
