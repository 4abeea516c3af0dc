import { createHash, randomUUID } from 'node:crypto';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  UploadPartCommand,
} from '../platform/aws-direto/s3';
import { s3Client } from '../platform/aws';
import { presignDownload, safeFileName } from '../platform/documents';
import { config, env } from '../platform/env';
import { startExecution } from '../platform/step-functions';
import * as servicos from '../servicos';
import { cabecalhoDoRelatorio, chaveDoTotal, linhaDaRequisicao, pedacoCsv, rodapeDoRelatorio } from './relatorio-csv';
import * as jobs from './relatorio-job-store';
import * as store from './store';
import type { paginaDoArquivo } from './relatorio-arquivo';
import { abrirEntrada, diretorioCentral, escreverNaEntrada, fecharEntrada, type EntradaZip } from './zip-stream';

/**
 * Report jobs: the consumption report (CSV) and the invoice's detail (a ZIP with one CSV per service)
 * are written by the Relatorio state machine (infra/lib/constructs/relatorio.ts), one Task invocation
 * (`passo`) after another, each reading at most PAGINAS_POR_PASSO pages of the request log and
 * appending what they make to one S3 multipart upload. What a step needs from the one before is in
 * the job's item (relatorio-job-store.ts) and, for the bytes not yet uploaded (less than one part),
 * in a small object of the step (`relatorios-pendentes/<job>/<passo>`): memory is one part plus one page, whatever
 * the month's size. The totals by service and UF that close each CSV are counted as its lines pass (a
 * map of service × UF: bounded). A step run again (Retry, a crash) reads the same item and the same
 * pending object, uploads the same part number again and writes its result only if no other run did.
 *
 * Any size (issue 38): a ZIP entry that may pass 4 GiB is written as ZIP64 (zip-stream.ts); a job of
 * more than PASSOS_POR_EXECUCAO steps goes on in a new execution of the machine, so that no execution
 * meets Step Functions' 25,000 events of history (`continuar`, below); one service's lines are key
 * reads of its own log partitions (store.ts `paginaDeRequisicoes`).
 */

/** S3's smallest part but the last is 5 MiB; a part here is at least this (one page more at most). */
export const parteBytes = () => Math.max(Number(process.env.PLAC_RELATORIO_PARTE_BYTES ?? 8 * 1024 * 1024), 1);
/**
 * A multipart upload has at most 10,000 parts: at 8 MiB that is 78 GiB, less than a CSV of 650 M lines
 * (about 85 GB). So the part doubles every PARTES_POR_TAMANHO parts (8, 16, 32, 64, 128 MiB: 484 GiB in
 * 10,000 parts), whatever the month's size, and a step's memory stays one part (at most 128 MiB, past
 * 234 GiB written) plus one page.
 */
export const PARTES_POR_TAMANHO = 2_000;
export const parteDoPasso = (partesFeitas: number) => parteBytes() * 2 ** Math.min(Math.floor(partesFeitas / PARTES_POR_TAMANHO), 4);
/** Pages of the request log per step: bounds a step's time and memory, whatever the month. */
export const paginasPorPasso = () => Math.max(Number(process.env.PLAC_RELATORIO_PAGINAS_POR_PASSO ?? 25), 1);
/** Items per page of the request log (a DynamoDB Query page stays below its 1 MB either way). */
export const itensPorPagina = () => Math.max(Number(process.env.PLAC_RELATORIO_ITENS_POR_PAGINA ?? 1000), 1);
/** A consumption report's job and file are kept a week; an invoice's detail as long as the invoice. */
export const CONSUMO_TTL_SECONDS = 7 * 86_400;
/**
 * Steps of one execution of the state machine: each loop Passo → Concluido is about 7 history events
 * (Task entered, scheduled, started, succeeded, exited; Choice entered, exited), more with a Retry, and a
 * Standard execution stops at 25,000: 1,000 steps (~7,000 events) leave room for retries. The job's
 * next step then runs in a new execution (`<jobId>-<attempt>-<n>`). Fixed in the job when it starts.
 */
export const passosPorExecucao = () => Math.max(Number(process.env.PLAC_RELATORIO_PASSOS_POR_EXECUCAO ?? 1000), 1);
/**
 * A ZIP entry is opened as ZIP64 when its lines (the month's counters of its service) at this many
 * bytes each could reach 4 GiB: a line is about 130 bytes (instant, service, UF, 44-digit key, the
 * client's request id), so 1 KiB is a bound that leaves the non-ZIP64 form to every entry below about
 * 4 M lines. PLAC_RELATORIO_ZIP64=sempre forces it on every entry and the archive's end (tests).
 */
const BYTES_POR_LINHA_NO_MAXIMO = 1024;
const QUATRO_GIB = 0xffffffff;

/** One CSV of the output: the whole report, or one service's entry of the ZIP. */
interface Secao {
  /** Only the requests of this service (its own log partitions). */
  servico?: number;
  /** The ZIP entry's name. */
  nome: string;
  /** Lines the counters expect in it: whether its ZIP entry is opened as ZIP64. */
  previstas?: number;
}

/** What a step hands to the next, through the job's item (JSON). */
export interface Progresso {
  zip: boolean;
  cliente: { razaoSocial: string; cnpj: string };
  /** Service id → description, for the lines (a handful of services). */
  descricoes: Record<string, string>;
  secoes: Secao[];
  /** The month's services and their requests (counters), for a section of every service: whose log partitions it merges. */
  servicos?: [servico: number, requisicoes: number][];
  /** Every ZIP entry and the archive's end in ZIP64 (PLAC_RELATORIO_ZIP64=sempre when the job started). */
  zip64?: boolean;
  /** The evidence (issue 41): the lines come from the archive's parts of the month's request log, not the table. */
  arquivo?: { partes: number };
  /** Steps per execution of the state machine, fixed when the job started (absent: the default). */
  passosPorExecucao?: number;
  /** The section being written, and whether its heading is written yet. */
  secao: number;
  aberta: boolean;
  /** The log's cursor within the section (null: its start). */
  cursor: string | null;
  /** The section's totals so far: [service\0UF, requests]. */
  totais: [string, number][];
  linhasSecao: number;
  uploadId?: string;
  /** Uploaded parts (at 8 MiB, a 1 GB report has about 120). */
  partes: { n: number; etag: string }[];
  /** Bytes of the output so far, uploaded or pending (the ZIP's offsets). */
  bytes: number;
  /** Bytes waiting in the pending object of the last step (less than one part). */
  pendente: number;
  entradas: EntradaZip[];
  entrada?: EntradaZip;
}

export interface NovoRelatorio {
  jobId?: string;
  tipo: 'consumo' | 'detalhamento' | 'evidencia';
  clienteId: string;
  cliente: { razaoSocial: string; cnpj: string };
  mes: string;
  idModuloServico?: number | undefined;
  faturaId?: string;
  chave: string;
  nomeArquivo: string;
  /** The evidence's source: the archived request log's parts and rows (the invoice's `arquivo`). */
  arquivo?: { partes: number; linhas: number };
}

/** What the API answers about a job: its real progress and, once done, the file's short-lived URL. */
export interface VistaRelatorio {
  id: string;
  estado: jobs.EstadoRelatorio;
  linhas: number;
  total: number;
  nomeArquivo: string;
  url?: string;
}

export async function vista(job: jobs.RelatorioJobRecord): Promise<VistaRelatorio> {
  return {
    id: job.jobId,
    estado: job.estado,
    linhas: job.linhas,
    total: job.total,
    nomeArquivo: job.nomeArquivo,
    ...(job.estado === 'CONCLUIDO' ? { url: await presignDownload(job.chave, job.contentType, { fileName: job.nomeArquivo }) } : {}),
  };
}

/**
 * Records the job and starts its execution (named `<jobId>-<attempt>`: a retried start starts nothing
 * twice). A job already running or done is answered as it is: an invoice's detail is made once.
 * `antes` runs once the job is recorded by this call, before its execution starts (the consumption
 * report takes one of its client's places there); if it throws, the job is failed and nothing runs.
 */
export async function iniciar(novo: NovoRelatorio, antes?: (job: jobs.RelatorioJobRecord) => Promise<void>): Promise<jobs.RelatorioJobRecord> {
  const { job, criado } = await registrar(novo);
  if (!criado) return job;
  try {
    if (antes) await antes(job);
    await startExecution(env('RELATORIO_STATE_MACHINE_ARN'), nomeDaExecucao(job.jobId, job.tentativa), { jobId: job.jobId });
  } catch (error) {
    // Never a job PROCESSANDO that nothing runs: failed, so the next request starts it again.
    await jobs.marcarFalha(job.jobId, `start: ${(error as Error).message}`.slice(0, 1000));
    throw error;
  }
  return job;
}

/**
 * The job's record with its plan: the sections (one CSV, or one ZIP entry per service the month's
 * counters name), the expected lines (the counters' sum) and an empty progress. `criado` false: the
 * job was already there, running or done; one that stopped is started again.
 */
export async function registrar(novo: NovoRelatorio): Promise<{ job: jobs.RelatorioJobRecord; criado: boolean }> {
  const jobId = novo.jobId ?? randomUUID();
  const existente = await jobs.lerJob(jobId);
  // A job whose steps stopped (its process died: no step for PARADO_MS) is failed here and started
  // again as a new attempt, so an invoice's detail never stays PROCESSANDO for ever (issue 42).
  if (existente?.estado === 'PROCESSANDO' && !jobs.emProducao(existente)) await jobs.marcarFalha(jobId, 'parado: nenhum passo gravado em 15 minutos');
  else if (existente && existente.estado !== 'FALHA') return { job: existente, criado: false };
  const zip = novo.tipo === 'detalhamento';
  // The evidence reads the archive: the table's counters and log may have expired; its total is the archive's.
  const contadores = novo.arquivo
    ? []
    : (await store.contadoresPorServico(novo.clienteId, novo.mes)).filter((c) => novo.idModuloServico === undefined || c.servico === novo.idModuloServico);
  const descricoes = Object.fromEntries((await servicos.todos()).map((s) => [String(s.idModuloServico), s.descricao]));
  const descricao = (id: number) => descricoes[String(id)] ?? `Serviço ${id}`;
  const doMes = contadores.map((c): [servico: number, requisicoes: number] => [c.servico, c.requisicoes]);
  const secoes: Secao[] = zip
    ? doMes.map(([id, previstas]) => ({ servico: id, nome: `${String(id).padStart(2, '0')}-${safeFileName(descricao(id))}.csv`, previstas }))
    : [{ ...(novo.idModuloServico === undefined ? {} : { servico: novo.idModuloServico }), nome: novo.nomeArquivo }];
  // A month without charged requests (the minimum subscription only): one report saying so, never an empty archive.
  if (secoes.length === 0) secoes.push({ ...(novo.idModuloServico === undefined ? {} : { servico: novo.idModuloServico }), nome: 'detalhamento.csv' });
  const progresso: Progresso = {
    zip,
    cliente: novo.cliente,
    descricoes,
    secoes,
    servicos: doMes,
    ...(novo.arquivo ? { arquivo: { partes: novo.arquivo.partes } } : {}),
    ...(process.env.PLAC_RELATORIO_ZIP64 === 'sempre' ? { zip64: true } : {}),
    passosPorExecucao: passosPorExecucao(),
    secao: 0,
    aberta: false,
    cursor: null,
    totais: [],
    linhasSecao: 0,
    partes: [],
    bytes: 0,
    pendente: 0,
    entradas: [],
  };
  const agora = new Date();
  const job: jobs.RelatorioJobRecord = {
    jobId,
    tipo: novo.tipo,
    clienteId: novo.clienteId,
    mes: novo.mes,
    ...(novo.idModuloServico === undefined ? {} : { idModuloServico: novo.idModuloServico }),
    ...(novo.faturaId ? { faturaId: novo.faturaId } : {}),
    chave: novo.chave,
    nomeArquivo: novo.nomeArquivo,
    contentType: zip ? 'application/zip' : 'text/csv; charset=utf-8',
    estado: 'PROCESSANDO',
    passo: 0,
    tentativa: (existente?.tentativa ?? 0) + 1,
    linhas: 0,
    total: novo.arquivo ? novo.arquivo.linhas : contadores.reduce((sum, c) => sum + c.requisicoes, 0),
    progresso: JSON.stringify(progresso),
    criadoEm: agora.toISOString(),
    ...(zip ? {} : { expiresAt: Math.floor(agora.getTime() / 1000) + CONSUMO_TTL_SECONDS }),
  };
  if (!(await jobs.criarJob(job))) return { job: (await jobs.lerJob(jobId))!, criado: false };
  return { job, criado: true };
}

/**
 * The name of an attempt's `n`th execution: `<jobId>-<attempt>` (n = 0), `<jobId>-<attempt>-<n>` after it,
 * or with a hash of the job id past Step Functions' 80 characters of a name.
 */
export function nomeDaExecucao(jobId: string, tentativa: number, n = 0): string {
  const hash = createHash('sha256').update(jobId).digest('hex');
  if (n === 0) {
    const nome = `${jobId}-${tentativa}`;
    return nome.length <= 80 ? nome : `${hash.slice(0, 64)}-${tentativa}`;
  }
  const nome = `${jobId}-${tentativa}-${n}`;
  return nome.length <= 80 ? nome : `${hash.slice(0, 48)}-${tentativa}-${n}`;
}

/** The execution a step answers from (`$$.Execution.Id` and `.Name`, in relatorio-run.ts's event). */
export interface Execucao {
  id: string;
  nome: string;
}

/**
 * Which of the job's executions this one is (its n), or undefined when it is none of this attempt's (a
 * test running the machine under a name of its own, an execution of a definition of before): such an
 * execution runs the job to its end, as before.
 */
function indiceDaExecucao(job: jobs.RelatorioJobRecord, execucao: Execucao | undefined): number | undefined {
  if (!execucao) return undefined;
  if (execucao.nome === nomeDaExecucao(job.jobId, job.tentativa)) return 0;
  const n = Number(/-(\d+)$/.exec(execucao.nome)?.[1]);
  return Number.isInteger(n) && n > 0 && execucao.nome === nomeDaExecucao(job.jobId, job.tentativa, n) ? n : undefined;
}

/**
 * The state machine's ARN: from the execution's (`arn:…:execution:<machine>:<name>` in AWS: the task
 * cannot have it in its environment, since the machine's definition names the task), else the
 * environment's (the twin, whose execution ids are not ARNs).
 */
export function maquinaDa(execucao: Execucao): string {
  const partes = execucao.id.split(':');
  if (partes[0] === 'arn' && partes[5] === 'execution' && partes.length >= 8) return [...partes.slice(0, 5), 'stateMachine', partes[6]].join(':');
  return env('RELATORIO_STATE_MACHINE_ARN');
}

/**
 * When the job's next step belongs to a later execution than this one (every PASSOS_POR_EXECUCAO
 * steps), that execution is started — idempotent: the same name and input start nothing twice, in AWS
 * as in the twin (platform/step-functions.ts) — and this one answers `continuar`, which ends it
 * (Continuado). Called after a step's write, and before a step (a Retry after a start that failed, a
 * late duplicate), so a job never runs in two executions for long and never stops between two.
 */
async function continuarEmOutra(job: jobs.RelatorioJobRecord, proximoPasso: number, execucao: Execucao | undefined): Promise<boolean> {
  const minha = indiceDaExecucao(job, execucao);
  if (minha === undefined) return false;
  const porExecucao = (JSON.parse(job.progresso) as Partial<Progresso>).passosPorExecucao ?? passosPorExecucao();
  const dona = Math.floor(proximoPasso / porExecucao);
  if (dona <= minha) return false;
  await startExecution(maquinaDa(execucao!), nomeDaExecucao(job.jobId, job.tentativa, dona), { jobId: job.jobId });
  return true;
}

/**
 * The bytes a step leaves for the next, under a prefix of their own: the documents bucket's lifecycle
 * expires them after a week (infra/lib/stacks/data-stack.ts, 'report-job-pending'), so the parts of a
 * finished job (only its last is deleted) and of a failed one never stay.
 */
const PENDENTES_PREFIX = 'relatorios-pendentes/';
const pendenteKey = (jobId: string, passo: number) => `${PENDENTES_PREFIX}${jobId}/${passo}`;

/**
 * One step: the pending bytes of the step before, then up to PAGINAS_POR_PASSO pages of the log
 * (sections opened and closed as they come), uploaded as one part once they reach PARTE_BYTES;
 * what is less than a part waits in this step's pending object. At the end of the last section the
 * ZIP's central directory, the last part and the upload's completion.
 */
/**
 * Where an evidence job's lines come from (relatorio-arquivo.ts): given by the step's function
 * (relatorio-run.ts), so that the APIs that start and answer jobs carry no Parquet reader.
 */
export interface Leitores {
  paginaDoArquivo?: typeof paginaDoArquivo;
}

export async function passo(jobId: string, execucao?: Execucao, leitores: Leitores = {}): Promise<{ jobId: string; concluido: boolean; continuar: boolean }> {
  const job = await jobs.lerJob(jobId);
  if (!job) throw new Error(`report job ${jobId} does not exist`);
  if (job.estado !== 'PROCESSANDO') return { jobId, concluido: true, continuar: false };
  // This step is a later execution's (this one's start of it failed, or another run crossed over): handed on.
  if (await continuarEmOutra(job, job.passo, execucao)) return { jobId, concluido: false, continuar: true };
  const p = JSON.parse(job.progresso) as Progresso;
  const s3 = s3Client();
  const Bucket = config.documentsBucket;
  const agora = new Date(job.criadoEm);
  const saida: Buffer[] = [];
  let tamanho = 0;
  const escrever = (b: Buffer) => {
    if (b.length === 0) return;
    saida.push(b);
    tamanho += b.length;
    p.bytes += b.length;
  };
  const texto = (t: string) => escrever(p.zip ? escreverNaEntrada(p.entrada!, t) : Buffer.from(t, 'utf8'));

  if (p.pendente > 0) {
    const anterior = await s3.send(new GetObjectCommand({ Bucket, Key: pendenteKey(jobId, job.passo - 1) }));
    const bytes = Buffer.from(await anterior.Body!.transformToByteArray());
    saida.push(bytes);
    tamanho += bytes.length;
  }
  if (!p.uploadId) {
    const criado = await s3.send(
      new CreateMultipartUploadCommand({ Bucket, Key: job.chave, ContentType: job.contentType, ContentDisposition: `attachment; filename="${job.nomeArquivo}"` }),
    );
    p.uploadId = criado.UploadId!;
  }

  let linhas = job.linhas;
  let fim = false;
  const tamanhoDaParte = parteDoPasso(p.partes.length);
  // A section of every service merges LOG_SHARDS partitions per service: its pages are that many times
  // larger (and a step has that many times fewer), so each partition is read in batches as large as
  // one service's section reads, and a step still writes about PAGINAS_POR_PASSO × ITENS_POR_PAGINA lines.
  const servicosDaSecao = () => (p.secoes[p.secao]?.servico === undefined ? Math.max(p.servicos?.length ?? 1, 1) : 1);
  for (let lidas = 0; lidas < paginasPorPasso() && tamanho < tamanhoDaParte; ) {
    lidas += servicosDaSecao();
    const secao = p.secoes[p.secao]!;
    if (!p.aberta) {
      if (p.zip) {
        const zip64 = p.zip64 === true || (secao.previstas ?? 0) * BYTES_POR_LINHA_NO_MAXIMO >= QUATRO_GIB;
        const aberta = abrirEntrada(secao.nome, p.bytes, agora, { zip64 });
        p.entrada = aberta.entrada;
        escrever(aberta.bytes);
      }
      texto(pedacoCsv(cabecalhoDoRelatorio(p.cliente, job.mes), true));
      p.aberta = true;
    }
    const pagina = p.arquivo
      ? await lerDoArquivo(leitores)(job.clienteId, job.mes, p.arquivo.partes, p.cursor, itensPorPagina())
      : await store.paginaDeRequisicoes(job.clienteId, job.mes, {
          cursor: p.cursor,
          limite: itensPorPagina() * servicosDaSecao(),
          servico: secao.servico,
          // A job of before issue 38 has no list: the store reads the counters for it.
          servicos: p.servicos?.map(([servico, requisicoes]) => ({ servico, requisicoes })),
        });
    const totais = new Map(p.totais);
    const linhasDaPagina = pagina.data.map((q) => {
      const servico = p.descricoes[String(q.servico)] ?? `Serviço ${q.servico}`;
      totais.set(chaveDoTotal(servico, q.uf), (totais.get(chaveDoTotal(servico, q.uf)) ?? 0) + 1);
      // The log's id is '<client>:<idempotency key>': the client sees its own key.
      const requestId = q.requestId.startsWith(`${job.clienteId}:`) ? q.requestId.slice(job.clienteId.length + 1) : q.requestId;
      return linhaDaRequisicao({ createdAt: q.createdAt, servico, uf: q.uf, chave: q.chave, requestId });
    });
    texto(pedacoCsv(linhasDaPagina, false));
    p.totais = [...totais];
    p.linhasSecao += linhasDaPagina.length;
    linhas += linhasDaPagina.length;
    p.cursor = pagina.cursor;
    if (pagina.cursor) continue;
    // The section's log is read: its totals, the entry's end, the next section.
    texto(pedacoCsv(rodapeDoRelatorio(p.totais, p.linhasSecao), false));
    if (p.zip) {
      escrever(fecharEntrada(p.entrada!));
      p.entradas.push(p.entrada!);
      delete p.entrada;
    }
    Object.assign(p, { secao: p.secao + 1, aberta: false, cursor: null, totais: [], linhasSecao: 0 });
    if (p.secao >= p.secoes.length) {
      if (p.zip) escrever(diretorioCentral(p.entradas, p.bytes, agora, { zip64: p.zip64 === true }));
      fim = true;
      break;
    }
  }

  if (tamanho >= tamanhoDaParte || (fim && (tamanho > 0 || p.partes.length === 0))) {
    const n = p.partes.length + 1;
    const parte = await s3.send(new UploadPartCommand({ Bucket, Key: job.chave, UploadId: p.uploadId, PartNumber: n, Body: Buffer.concat(saida) }));
    p.partes.push({ n, etag: parte.ETag! });
    p.pendente = 0;
  } else {
    await s3.send(new PutObjectCommand({ Bucket, Key: pendenteKey(jobId, job.passo), Body: Buffer.concat(saida) }));
    p.pendente = tamanho;
  }
  if (fim) {
    await s3.send(
      new CompleteMultipartUploadCommand({
        Bucket,
        Key: job.chave,
        UploadId: p.uploadId,
        MultipartUpload: { Parts: p.partes.map((parte) => ({ PartNumber: parte.n, ETag: parte.etag })) },
      }),
    );
  }
  const gravado = await jobs.gravarPasso(jobId, job.passo, { linhas, progresso: JSON.stringify(p), estado: fim ? 'CONCLUIDO' : 'PROCESSANDO' });
  if (!gravado) {
    // Another run of this step wrote first: its result stands, this one's upload (if it made one) goes.
    if (p.uploadId !== (JSON.parse(job.progresso) as Progresso).uploadId && !fim) {
      await s3.send(new AbortMultipartUploadCommand({ Bucket, Key: job.chave, UploadId: p.uploadId })).catch(() => undefined);
    }
    const atual = await jobs.lerJob(jobId);
    if (atual?.estado !== 'PROCESSANDO') return { jobId, concluido: true, continuar: false };
    return { jobId, concluido: false, continuar: await continuarEmOutra(atual, atual.passo, execucao) };
  }
  // The step before's pending bytes are in this step's output now.
  if (job.passo > 0) await s3.send(new DeleteObjectCommand({ Bucket, Key: pendenteKey(jobId, job.passo - 1) })).catch(() => undefined);
  // After the write, so the next execution's first step reads this one's result.
  return { jobId, concluido: fim, continuar: !fim && (await continuarEmOutra(job, job.passo + 1, execucao)) };
}

function lerDoArquivo(leitores: Leitores): typeof paginaDoArquivo {
  if (!leitores.paginaDoArquivo) throw new Error('an evidence job step needs the archive reader (relatorio-run.ts)');
  return leitores.paginaDoArquivo;
}

/** The state machine's Catch: the job is failed (a new request starts it again). */
export async function falhou(jobId: string, erro?: { Error?: string; Cause?: string }): Promise<void> {
  await jobs.marcarFalha(jobId, `${erro?.Error ?? 'Error'}: ${erro?.Cause ?? ''}`);
}
