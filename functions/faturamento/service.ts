import { randomUUID } from 'node:crypto';
import type { Principal } from '@plac/shared/access';
import { monthOf, nextMonth, previousMonth, todayInBahia, vencimentoPadraoDae } from '@plac/shared/domain';
import { clientePorCnpj, idsEmAvaliacao, todosClientes } from '../clientes';
import { consumoDoCliente } from '../consumo';
import { conflict, forbidden, HttpError, invalid, notFound } from '../platform/errors';
import { logger } from '../platform/observability';
import { paginaComCursor, vinculoDoCursor, type Pagina } from '../platform/paginas';
import { todos as servicosDoCatalogo } from '../servicos';
import { tabelaPrecoDoMes } from '../tarifas';
import { daeDoCodigoBarras } from '../dae';
import { pagaParcialmente, recebimentosDaFatura, saldoDaFatura } from './recebimentos';
import { decidir, faturaIdDe, itemDaFatura, numeroDeShards, shardDoCliente, valoresDaFatura } from './regras';
import { acrescimoDevido, taxasConfiguradas } from './retorno/acrescimo';
import * as store from './store';
import type { ExecucaoRecord, FaturaRecord, ProgressoRecord } from './store';

/**
 * Monthly billing (docs/faturamento.md): the billing run's tasks (ListShards → Map over shards of
 * clients → Summarise, functions/faturamento/run.ts), the admin's start and its progress, and the
 * audited re-price. Reads clients, usage, prices and services through their contexts' services.
 */

/** The state machine stops a run after this long (infra/lib/constructs/faturamento.ts); a run still "running" past it was interrupted. */
export const DURACAO_MAXIMA_MS = 60 * 60 * 1000;
/** Tries of one client inside a shard before it is recorded as a failure (the run goes on). */
const TENTATIVAS_POR_CLIENTE = 3;
/** The shard's progress item is rewritten every this many clients. */
const PROGRESSO_A_CADA = 10;

export interface ShardRef {
  execucaoId: string;
  mes: string;
  shard: number;
  shards: number;
}

export interface ResultadoShard {
  shard: number;
  clientes: number;
  emitidas: number;
  jaEmitidas: number;
  semFatura: number;
  emAvaliacao: number;
  falhas: number;
}

/** The month a run bills: the one asked, else the month before `agora` (the schedule runs on the 1st). */
export function mesDoFaturamento(agora: Date = new Date()): string {
  return previousMonth(monthOf(agora));
}

const mesBr = (mes: string) => `${mes.slice(5)}/${mes.slice(0, 4)}`;

function assertMesEncerrado(mes: string, agora: Date) {
  if (mes >= monthOf(agora)) throw invalid('faturamentoMesInvalido');
}

// ---- the state machine's tasks ----------------------------------------------------------------------

/**
 * ListShards: the run's record (created here for a scheduled run; the admin's is created by
 * `iniciar`), its clients counted and split into shards. Throws, with the run marked FALHA, when the
 * month has no tariff version in force: nothing can be priced.
 */
export async function listarShards(input: { mes?: string; execucaoId?: string; execucao?: string }, agora: Date = new Date()): Promise<{ execucaoId: string; mes: string; shards: ShardRef[] }> {
  let execucao = input.execucaoId ? await store.lerExecucao(input.execucaoId) : null;
  if (!execucao) {
    const mes = input.mes ?? mesDoFaturamento(agora);
    assertMesEncerrado(mes, agora);
    execucao = {
      execucaoId: input.execucaoId ?? randomUUID(),
      mes,
      origem: 'agendamento',
      iniciadaPor: 'EventBridge Scheduler',
      iniciadaEm: agora.toISOString(),
      situacao: 'EM_ANDAMENTO',
      ...(input.execucao ? { execucao: input.execucao } : {}),
    };
    // The same month's lock as the admin's start: a scheduled run of a month that already has a run
    // going records nothing and fails (the Catch logs it; no second run bills the month at once).
    if (!(await store.criarExecucao(execucao, agora.getTime() + DURACAO_MAXIMA_MS, agora.getTime()))) {
      throw new Error(`faturamentoEmAndamento: ${mes}`);
    }
  }
  const { execucaoId, mes } = execucao;
  if (!(await tabelaPrecoDoMes(mes))) {
    const erro = `faturamentoSemTarifacao: ${mes}`;
    await store.encerrarExecucao(execucaoId, { situacao: 'FALHA', concluidaEm: new Date().toISOString(), erro });
    throw new Error(erro);
  }
  const clientes = (await todosClientes()).length;
  const shards = numeroDeShards(clientes);
  await store.atualizarExecucao(execucaoId, { totalClientes: clientes, shards });
  return { execucaoId, mes, shards: Array.from({ length: shards }, (_, shard) => ({ execucaoId, mes, shard, shards })) };
}

/**
 * One shard: each of its clients decided (decidir), priced and invoiced by a conditional create, so
 * an invoice already issued is left as it is ('jaEmitida'), whoever issued it. A client that fails
 * three times is recorded as a failure and the shard goes on; a crash of the whole task is retried by
 * the state machine and simply finds the invoices it had already written.
 */
/**
 * `aposEmitir`: what follows an invoice issued (or found issued) by the run — the billing run's task
 * queues its detail ZIP (run.ts); given from there so that the billing service, which the revenue
 * sharing reads invoices through, does not carry the report job's code.
 */
export interface GanchosDoShard {
  antesDoCliente?: (clienteId: string) => void;
  aposEmitir?: (fatura: FaturaRecord) => Promise<unknown>;
}

export async function faturarShard(ref: ShardRef, hooks: GanchosDoShard = {}): Promise<ResultadoShard> {
  const tabela = await tabelaPrecoDoMes(ref.mes);
  if (!tabela) throw new Error(`faturamentoSemTarifacao: ${ref.mes}`);
  const servicos = await servicosDoCatalogo();
  const clientes = (await todosClientes()).filter((c) => shardDoCliente(c.id, ref.shards) === ref.shard).sort((a, b) => (a.id < b.id ? -1 : 1));
  const progresso: ProgressoRecord = {
    execucaoId: ref.execucaoId,
    shard: ref.shard,
    clientes: clientes.length,
    feitos: 0,
    emitidas: 0,
    jaEmitidas: 0,
    semFatura: 0,
    emAvaliacao: 0,
    falhas: [],
    atualizadoEm: new Date().toISOString(),
  };
  const gravar = () => store.gravarProgresso({ ...progresso, atualizadoEm: new Date().toISOString() });
  await gravar();
  for (const cliente of clientes) {
    hooks.antesDoCliente?.(cliente.id);
    let erro: unknown;
    for (let tentativa = 1; tentativa <= TENTATIVAS_POR_CLIENTE; tentativa++) {
      try {
        const resultado = await faturarCliente(cliente, ref, tabela, servicos, hooks);
        progresso[resultado]++;
        erro = undefined;
        break;
      } catch (e) {
        erro = e;
        await new Promise((r) => setTimeout(r, 50 * tentativa));
      }
    }
    if (erro !== undefined) {
      logger.error('billing a client failed', { clienteId: cliente.id, mes: ref.mes, error: erro as Error });
      progresso.falhas.push({ clienteId: cliente.id, erro: String((erro as Error)?.message ?? erro).slice(0, 300) });
    }
    progresso.feitos++;
    if (progresso.feitos % PROGRESSO_A_CADA === 0) await gravar();
  }
  await gravar();
  const { clientes: n, emitidas, jaEmitidas, semFatura, emAvaliacao } = progresso;
  return { shard: ref.shard, clientes: n, emitidas, jaEmitidas, semFatura, emAvaliacao, falhas: progresso.falhas.length };
}

type Cliente = Awaited<ReturnType<typeof todosClientes>>[number];

async function faturarCliente(
  cliente: Cliente,
  ref: ShardRef,
  tabela: NonNullable<Awaited<ReturnType<typeof tabelaPrecoDoMes>>>,
  servicos: { idModuloServico: number; descricao: string }[],
  hooks: GanchosDoShard,
): Promise<'emitidas' | 'jaEmitidas' | 'semFatura' | 'emAvaliacao'> {
  if (cliente.situacao === 'E') return 'emAvaliacao';
  const consumo = await consumoDoCliente(cliente.id, ref.mes);
  const requisicoes = consumo.reduce((s, c) => s + c.requisicoes, 0);
  const decisao = decidir(cliente.situacao, requisicoes);
  if (decisao !== 'faturar') return decisao;
  const valores = valoresDaFatura(tabela, consumo, servicos);
  // Nothing to pay (no usage and no minimum subscription): no invoice.
  if (valores.valorTotal === 0) return 'semFatura';
  const fatura: FaturaRecord = {
    faturaId: faturaIdDe(cliente.id, ref.mes),
    clienteId: cliente.id,
    cnpj: cliente.cnpj,
    razaoSocial: cliente.razao_social,
    mes: ref.mes,
    situacao: 'A',
    ...valores,
    execucaoId: ref.execucaoId,
    emitidaEm: new Date().toISOString(),
    revisao: 1,
  };
  const resultado = (await store.emitirFatura(fatura)) === 'emitida' ? 'emitidas' : 'jaEmitidas';
  // The invoice's detail ZIP is made once, now, by a report job (one per invoice, so a shard of at most
  // 100 clients starts at most 100); a retried shard finds the job there and starts nothing twice. A job
  // that cannot be queued leaves the invoice as it is: the detail's route starts it when first asked.
  if (hooks.aposEmitir) {
    try {
      await hooks.aposEmitir(fatura);
    } catch (error) {
      logger.warn('queueing the invoice detail failed', { faturaId: fatura.faturaId, error: error as Error });
    }
  }
  return resultado;
}

/** Summarise: the run's figures, and the run CONCLUIDA. */
export async function resumir(execucaoId: string, results: readonly ResultadoShard[]) {
  const soma = (k: keyof Omit<ResultadoShard, 'shard'>) => results.reduce((s, r) => s + (r?.[k] ?? 0), 0);
  const resumo = {
    execucaoId,
    shards: results.length,
    clientes: soma('clientes'),
    emitidas: soma('emitidas'),
    jaEmitidas: soma('jaEmitidas'),
    semFatura: soma('semFatura'),
    emAvaliacao: soma('emAvaliacao'),
    falhas: soma('falhas'),
  };
  await store.encerrarExecucao(execucaoId, { situacao: 'CONCLUIDA', concluidaEm: new Date().toISOString() });
  logger.info('billing run finished', resumo);
  return resumo;
}

/** The Catch of the state machine: the run FALHA with the error's name (its shards' progress stays). */
export async function falhou(execucaoId: string | undefined, erro: { Error?: string; Cause?: string } | undefined) {
  const texto = [erro?.Error, erro?.Cause].filter(Boolean).join(': ').slice(0, 500) || 'falha';
  logger.error('billing run failed', { execucaoId, erro: texto });
  if (execucaoId) await store.encerrarExecucao(execucaoId, { situacao: 'FALHA', concluidaEm: new Date().toISOString(), erro: texto });
  return { execucaoId: execucaoId ?? null, erro: texto };
}

// ---- the admin's start and the progress -------------------------------------------------------------

export type SituacaoExecucao = 'EM_ANDAMENTO' | 'CONCLUIDA' | 'FALHA' | 'INTERROMPIDA';

export interface ExecucaoView {
  execucaoId: string;
  mes: string;
  origem: 'agendamento' | 'admin';
  iniciadaPor: string;
  iniciadaEm: string;
  concluidaEm: string | null;
  situacao: SituacaoExecucao;
  erro: string | null;
  totalClientes: number | null;
  feitos: number;
  emitidas: number;
  jaEmitidas: number;
  semFatura: number;
  emAvaliacao: number;
  falhas: { clienteId: string; erro: string }[];
}

function situacaoDe(e: ExecucaoRecord, agora: number): SituacaoExecucao {
  if (e.situacao === 'EM_ANDAMENTO' && agora - Date.parse(e.iniciadaEm) > DURACAO_MAXIMA_MS) return 'INTERROMPIDA';
  return e.situacao;
}

async function view(e: ExecucaoRecord, agora = Date.now()): Promise<ExecucaoView> {
  const shards = await store.progressoDaExecucao(e.execucaoId);
  const soma = (k: 'feitos' | 'emitidas' | 'jaEmitidas' | 'semFatura' | 'emAvaliacao') => shards.reduce((s, p) => s + p[k], 0);
  return {
    execucaoId: e.execucaoId,
    mes: e.mes,
    origem: e.origem,
    iniciadaPor: e.iniciadaPor,
    iniciadaEm: e.iniciadaEm,
    concluidaEm: e.concluidaEm ?? null,
    situacao: situacaoDe(e, agora),
    erro: e.erro ?? null,
    totalClientes: e.totalClientes ?? null,
    feitos: soma('feitos'),
    emitidas: soma('emitidas'),
    jaEmitidas: soma('jaEmitidas'),
    semFatura: soma('semFatura'),
    emAvaliacao: soma('emAvaliacao'),
    falhas: shards.flatMap((p) => p.falhas),
  };
}

/** The runs of a month, newest first, each with its progress. */
export async function execucoes(mes: string): Promise<ExecucaoView[]> {
  const runs = (await store.execucoesDoMes(mes)).sort((a, b) => (a.iniciadaEm < b.iniciadaEm ? 1 : -1));
  return Promise.all(runs.map((r) => view(r)));
}

export async function execucao(execucaoId: string): Promise<ExecucaoView> {
  const e = await store.lerExecucao(execucaoId);
  if (!e) throw notFound();
  return view(e);
}

/** Starts the state machine (the handler wires the AWS call in). */
export type IniciarMaquina = (execucaoId: string, input: { mes: string; execucaoId: string }) => Promise<void>;
/** Whether a run's execution still runs (the handler wires DescribeExecution in). */
export type ExecucaoAtiva = (execucaoId: string) => Promise<boolean>;

/** A run is judged by its execution only this long after it was recorded (its start follows the record). */
export const CARENCIA_DO_INICIO_MS = 60_000;

/**
 * The runs of the month recorded as going whose execution no longer runs (its process was killed, the
 * twin restarted, an operator stopped it) are ended as FALHA here, which releases the month's lock, so a
 * new start does not wait for the lock to expire (issue 42: it waited the state machine's hour). A run is
 * judged by its execution's name: an administrator's is its id; a scheduled one's is the scheduler's,
 * recorded by its first step (`execucao`; a scheduled run recorded before that field is left to its
 * lock's expiry). Only once CARENCIA_DO_INICIO_MS have passed since it was recorded, so a start in
 * progress is never taken for dead.
 */
async function encerrarRunsMortas(em: ExecucaoRecord[], execucaoAtiva: ExecucaoAtiva, agora: Date): Promise<void> {
  await Promise.all(
    em.map(async (e) => {
      const nome = e.origem === 'admin' ? e.execucaoId : e.execucao;
      if (!nome || agora.getTime() - Date.parse(e.iniciadaEm) < CARENCIA_DO_INICIO_MS) return;
      if (await execucaoAtiva(nome)) return;
      await store.encerrarExecucao(e.execucaoId, { situacao: 'FALHA', concluidaEm: new Date().toISOString(), erro: 'A execução foi interrompida sem concluir; o faturamento pode ser iniciado de novo.' });
    }),
  );
}

/**
 * An admin's run of a closed month: refused with 409 while another run of that month is going
 * (re-running a finished month is allowed, and changes no invoice already issued). A run recorded as
 * going whose execution is gone is ended first (encerrarRunsMortas), so it holds nothing. The month's lock,
 * taken with the run's record in one transaction (store.criarExecucao), is what decides between starts
 * at the same moment; the look-up of the month's runs only answers early (and covers runs recorded
 * before the lock existed).
 */
export async function iniciar(mes: string, principal: Principal, iniciarMaquina: IniciarMaquina, execucaoAtiva: ExecucaoAtiva, agora: Date = new Date()): Promise<ExecucaoView> {
  assertMesEncerrado(mes, agora);
  if (!(await tabelaPrecoDoMes(mes))) throw invalid('faturamentoSemTarifacao', { mes: mesBr(mes) });
  const emAndamento = (await store.execucoesDoMes(mes)).filter((e) => situacaoDe(e, agora.getTime()) === 'EM_ANDAMENTO');
  await encerrarRunsMortas(emAndamento, execucaoAtiva, agora);
  const vivas = emAndamento.length === 0 ? [] : (await store.execucoesDoMes(mes)).filter((e) => situacaoDe(e, agora.getTime()) === 'EM_ANDAMENTO');
  if (vivas.length > 0) throw new HttpError(409, 'faturamentoEmAndamento', undefined, { mes: mesBr(mes) });
  const record: ExecucaoRecord = {
    execucaoId: randomUUID(),
    mes,
    origem: 'admin',
    iniciadaPor: principal.name,
    iniciadaEm: agora.toISOString(),
    situacao: 'EM_ANDAMENTO',
  };
  if (!(await store.criarExecucao(record, agora.getTime() + DURACAO_MAXIMA_MS, agora.getTime()))) {
    throw new HttpError(409, 'faturamentoEmAndamento', undefined, { mes: mesBr(mes) });
  }
  try {
    await iniciarMaquina(record.execucaoId, { mes, execucaoId: record.execucaoId });
  } catch (error) {
    await store.encerrarExecucao(record.execucaoId, { situacao: 'FALHA', concluidaEm: new Date().toISOString(), erro: String((error as Error).message).slice(0, 500) });
    throw error;
  }
  return view(record);
}

// ---- the audited re-price -----------------------------------------------------------------------------

/**
 * A deliberate re-price of an open invoice after a tariff correction: priced again from the month's
 * counters with the version now in force for that month, written on the condition that the invoice is
 * still open and at the revision the admin saw, with an audit item (who, when, why, before, after).
 */
export async function reprecificar(faturaId: string, body: { revisao: number; justificativa: string }, principal: Principal) {
  const antes = await store.lerFatura(faturaId);
  if (!antes) throw notFound();
  if (antes.situacao !== 'A') throw invalid('faturaNaoReprecificavel');
  if (antes.revisao !== body.revisao) throw conflict('faturaAlterada');
  const tabela = await tabelaPrecoDoMes(antes.mes);
  if (!tabela) throw invalid('faturamentoSemTarifacao', { mes: mesBr(antes.mes) });
  const valores = valoresDaFatura(tabela, await consumoDoCliente(antes.clienteId, antes.mes), await servicosDoCatalogo());
  const em = new Date().toISOString();
  const ok = await store.reprecificar(antes, { ...valores, atualizadaEm: em, atualizadaPor: principal.name }, { em, por: principal.name, justificativa: body.justificativa });
  if (!ok) throw conflict('faturaAlterada');
  return { revisao: antes.revisao + 1, valorServicos: valores.valorServicos, valorAssinatura: valores.valorAssinatura, valorTotal: valores.valorTotal };
}

export async function reprecificacoes(faturaId: string) {
  return store.reprecificacoesDaFatura(faturaId);
}

// ---- invoices: the list and the detail (spec 2, 2.9 and 2.10) -----------------------------------------

/** The longest period a list covers (ours: the spec sets none). */
export const MESES_MAXIMOS_LISTA = 12;

function mesesEntre(de: string, ate: string): string[] {
  const meses: string[] = [];
  for (let m = de; m <= ate; m = nextMonth(m)) meses.push(m);
  return meses;
}

function resumo(f: FaturaRecord) {
  return {
    id: f.faturaId,
    mes: Number(f.mes.slice(5)),
    ano: Number(f.mes.slice(0, 4)),
    valorTotal: f.valorTotal,
    situacao: f.situacao,
    cliente: { razaoSocial: f.razaoSocial, cnpj: f.cnpj },
    // The latest DAE's due date (the next one's default); urlDae is not stored (a presigned URL expires):
    // POST …/dae answers a fresh one for the same DAE.
    dae: f.dae ? { urlDae: null, dtVencimento: f.dae.dtVencimento, valorPago: f.pagamento?.valorPago ?? null } : null,
    pagamentosParciais: pagamentosParciais(f),
    ...saldo(f),
    nomePdfFile: f.nomePdfFile ?? null,
    nomeXmlFile: f.nomeXmlFile ?? null,
  };
}

/**
 * The short payments the bank-return import recorded (retorno/service.ts, recebimentos.ts), as the
 * screens show them: every payment received but the one that closed the invoice.
 */
function pagamentosParciais(f: FaturaRecord) {
  const rs = recebimentosDaFatura(f);
  return (f.situacao === 'P' ? rs.slice(0, -1) : rs).map((p) => ({ valorPago: p.valorPago, dataPagamento: p.dataPagamento }));
}

function saldo(f: FaturaRecord) {
  const { valorRecebido, saldoDevedor, valorExcedente } = saldoDaFatura(f);
  return { valorRecebido, saldoDevedor, valorExcedente };
}

/**
 * The invoices of a period, a page at a time (docs/architecture.md, "Lists"): a client user only its
 * own client's (a CNPJ of another client is 403), one key-range Query of its months (gsi2), newest
 * first; the admin any client's the same way, or every client's month by month (newest first, one
 * Query of each month's partition, by client), leaving out the clients in evaluation (spec 2, section 6).
 * The status is checked on the invoices read, in the bounded loop.
 */
export async function listarFaturas(
  filtro: { cnpj?: string | undefined; dataInicio: string; dataFim: string; situacao?: 'A' | 'P' | undefined; cursor?: string | undefined; perPage: number },
  principal: Principal,
  agora: Date = new Date(),
) {
  if (filtro.dataInicio > filtro.dataFim) throw invalid('dataInicioMaiorDataFim');
  if (filtro.dataFim > monthOf(agora)) throw invalid('faturamentoMesFuturo');
  const meses = mesesEntre(filtro.dataInicio, filtro.dataFim);
  if (meses.length > MESES_MAXIMOS_LISTA) throw invalid('periodoMaximoDozeMeses');
  const { situacao } = filtro;
  const daSituacao = situacao ? (f: FaturaRecord) => f.situacao === situacao : undefined;
  let ler: (posicao: string | undefined) => Promise<Pagina<FaturaRecord>>;
  if (principal.tipo !== 'S') {
    if (!principal.clienteId) throw forbidden('clienteNaoPermitido');
    if (filtro.cnpj) {
      const c = await clientePorCnpj(filtro.cnpj.toUpperCase());
      if (c?.id !== principal.clienteId) throw forbidden('clienteNaoPermitido');
    }
    const clienteId = principal.clienteId;
    ler = (posicao) => store.paginaDeFaturasDoCliente(clienteId, filtro.dataInicio, filtro.dataFim, { perPage: filtro.perPage, posicao, aceita: daSituacao });
  } else if (filtro.cnpj) {
    const c = await clientePorCnpj(filtro.cnpj.toUpperCase());
    ler = async (posicao) =>
      c && c.situacao !== 'E' ? store.paginaDeFaturasDoCliente(c.id, filtro.dataInicio, filtro.dataFim, { perPage: filtro.perPage, posicao, aceita: daSituacao }) : { items: [], posicao: null };
  } else {
    const emAvaliacao = new Set(await idsEmAvaliacao());
    ler = (posicao) =>
      store.paginaDeFaturasDosMeses([...meses].reverse(), {
        perPage: filtro.perPage,
        posicao,
        aceita: (f) => !emAvaliacao.has(f.clienteId) && (!daSituacao || daSituacao(f)),
      });
  }
  const vinculo = vinculoDoCursor(principal, 'faturamento.faturas', { cnpj: filtro.cnpj?.toUpperCase(), de: filtro.dataInicio, ate: filtro.dataFim, situacao, perPage: filtro.perPage });
  const pagina = await paginaComCursor(vinculo, filtro.cursor, ler);
  return { ...pagina, items: pagina.items.map(resumo) };
}

/**
 * An invoice as a user may see it (its detail, its tax note, its detail ZIP): a client user only its
 * own client's (another's is 403 clienteNaoPermitido); the admin none of a client now in evaluation (404).
 */
export async function faturaVisivel(faturaId: string, principal: Principal): Promise<FaturaRecord> {
  const f = await store.lerFatura(faturaId);
  if (!f) throw notFound();
  if (principal.tipo !== 'S') {
    if (f.clienteId !== principal.clienteId) throw forbidden('clienteNaoPermitido');
  } else if ((await idsEmAvaliacao()).includes(f.clienteId)) {
    throw notFound();
  }
  return f;
}

/**
 * The DAE an invoice is filed with: once paid, the one the bank read (the payment's barcode); else the
 * latest generated (the invoice's `dae`). Its number and due date are its barcode's free field (dae/config.ts).
 */
function daeDaFatura(f: FaturaRecord): { numero: number; dtVencimento: string } | null {
  const codigoBarras = f.pagamento?.codigoBarras ?? f.dae?.codigoBarras;
  return codigoBarras ? daeDoCodigoBarras(codigoBarras) : null;
}

/** One invoice with its lines: a client user only its own client's; the admin none of a client in evaluation. */
/**
 * The surcharge the balance would owe paid today: counted from the latest DAE's due date, or from the
 * default one (the 15th of the month after the reference month) when none was issued (retorno/acrescimo.ts).
 */
function acrescimoSobreSaldo(f: FaturaRecord, hoje: string): number {
  const { saldoDevedor } = saldoDaFatura(f);
  if (saldoDevedor === 0) return 0;
  return acrescimoDevido(saldoDevedor, vencimentoPadraoDae(f.mes, f.dae?.dtVencimento), hoje, taxasConfiguradas());
}

export async function detalheFatura(faturaId: string, principal: Principal, agora: Date = new Date()) {
  const f = await faturaVisivel(faturaId, principal);
  return {
    id: f.faturaId,
    cliente: { cnpj: f.cnpj, razaoSocial: f.razaoSocial },
    mes: Number(f.mes.slice(5)),
    ano: Number(f.mes.slice(0, 4)),
    situacao: f.situacao,
    valorServicos: f.valorServicos,
    valorAssinatura: f.valorAssinatura,
    valorTotal: f.valorTotal,
    dae: daeDaFatura(f),
    pagamento: f.pagamento ? { dataPagamento: f.pagamento.dataPagamento, valorPago: f.pagamento.valorPago } : null,
    pagamentosParciais: pagamentosParciais(f),
    ...saldo(f),
    acrescimoSobreSaldo: acrescimoSobreSaldo(f, todayInBahia(agora)),
    recebimentos: recebimentosDaFatura(f).map((r) => ({
      dataPagamento: r.dataPagamento,
      banco: r.banco,
      nomeBanco: r.nomeBanco,
      nomeArquivo: r.nomeArquivo,
      valorPago: r.valorPago,
      valorAcrescimo: r.valorAcrescimo,
      valorAmortizado: r.valorAmortizado,
      valorExcedente: r.valorExcedente,
    })),
    itens: f.itens.map(itemDaFatura),
    arquivo: f.arquivo ? { arquivadoEm: f.arquivo.arquivadoEm, requisicoes: f.arquivo.linhasRequisicoes } : null,
  };
}

// ---- revenue sharing (functions/rateio calls these) ---------------------------------------------

/** What the repasse needs of a month's paid invoices: amount, items' value per UF, status. */
export async function faturasPagasDoMes(mes: string) {
  return (await store.faturasDoMes(mes))
    .filter((f) => f.situacao === 'P')
    .map((f) => ({
      faturaId: f.faturaId,
      clienteId: f.clienteId,
      cnpj: f.cnpj,
      razaoSocial: f.razaoSocial,
      mes: f.mes,
      valorTotal: f.valorTotal,
      itens: f.itens.map((i) => ({ uf: i.uf, valor: i.valor })),
      situacaoRepasse: f.situacaoRepasse ?? null,
    }));
}

/** Sets the revenue-sharing status of paid invoices (a distributed one never changes again). */
export async function marcarRepasse(faturaIds: readonly string[], situacao: store.SituacaoRepasse): Promise<void> {
  await store.marcarRepasse(faturaIds, situacao);
}

/** An invoice as the payment detail of functions/rateio shows it: its payment and lines; null when there is none. */
export async function faturaDoPagamento(faturaId: string) {
  const f = await store.lerFatura(faturaId);
  return f && vistaDoPagamento(f);
}

const vistaDoPagamento = (f: FaturaRecord) => ({
  faturaId: f.faturaId,
  clienteId: f.clienteId,
  cnpj: f.cnpj,
  razaoSocial: f.razaoSocial,
  mes: f.mes,
  situacao: f.situacao,
  pagaParcialmente: pagaParcialmente(f),
  situacaoRepasse: f.situacaoRepasse ?? null,
  valorServicos: f.valorServicos,
  valorAssinatura: f.valorAssinatura,
  valorTotal: f.valorTotal,
  // The surcharges received, of every payment (recebimentos.ts).
  valorAcrescimo: saldoDaFatura(f).valorAcrescimo,
  dataRetornoBanco: f.pagamento?.dataRetornoBanco ?? null,
  itens: f.itens.map((i) => ({ servico: i.servico, descricao: i.descricao, uf: i.uf, requisicoes: i.requisicoes, valorUnitario: i.valorUnitario, valor: i.valor })),
});

/**
 * Pagamento de Serviços by key (linhas-pagamento.ts): the rows per invoice and origin UF a page at a
 * time, one client's rows, and a month's counters; the paid rows carry the shares of the sharing
 * rule (functions/grupos-rateio).
 */
export { valoresPorUf } from './linhas-pagamento';
export type { LinhaPagamento } from './store';
