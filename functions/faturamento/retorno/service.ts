import { createHash } from 'node:crypto';
import type { Principal } from '@plac/shared/access';
import { formatDate, todayInBahia } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { RETORNO_MAX_BYTES, RETORNO_MAX_PAGAMENTOS } from '@plac/shared/contracts/faturamento';
import { HttpError, invalid, notFound } from '../../platform/errors';
import { paginaComCursor, vinculoDoCursor } from '../../platform/paginas';
import { codigoBarrasValido } from '../../dae';
import { daePorCodigoBarras } from '../dae-fatura';
import { chaveDoRecebimento, imputar, recebimentosDaFatura, saldoDaFatura, type Recebimento } from '../recebimentos';
import { lerFatura, registrarRecebimento } from '../store';
import { acrescimoDevido, taxasConfiguradas } from './acrescimo';
import { pagamentoPosteriorAoArquivo, recusaDaData, recusaDaVersao } from './conferencia';
import { lerRetorno, type Pagamento } from './layout';
import * as store from './store';
import type { ImportacaoRecord } from './store';

/**
 * The import of a bank's arrecadação return file (issue 14 item 4, issue 26 item 4; docs/faturamento.md
 * "Payments"): the file is read whole and refused whole when it is malformed (a truncated or altered
 * file, whose trailer no longer matches, is never half imported), when its layout version is not one we
 * read, or when it is dated after today (conferencia.ts). The import is then started under the file's
 * SHA-256 (a conditional create: one import per file), each G line is matched to its DAE by the barcode
 * and recorded in its invoice's ledger of receipts (recebimentos.ts: surcharge first, then the balance,
 * the rest an overpayment reported for refund; the invoice P once nothing is owed; conditional, and once
 * per payment whatever file repeats it) — a line dated after the file is reported and not paid —
 * every line's outcome is written as an item of its own, and the import is closed with its totals.
 *
 * Thousands of payments fit in the route's time: lines are matched CONCORRENCIA at a time, the lines of
 * one barcode one after another in file order (a DAE paid twice in a file: the second is JA_PAGA).
 * Importing the same file again answers the stored report and changes nothing; an import that stopped
 * mid-way (its function timed out) is taken over by the next attempt after RETOMADA_MS and redone
 * safely: a payment this file already recorded is found by its key and reported as then, never recorded twice.
 */

/** At most this many payments per file, and bytes (150-position records, with room to spare). */
export const MAX_PAGAMENTOS = RETORNO_MAX_PAGAMENTOS;
export const MAX_BYTES = RETORNO_MAX_BYTES;
/** Lines matched at once (each a few keyed reads and one conditional write). */
const CONCORRENCIA = 32;
/**
 * Lines matched, written and counted together: what a stop mid-way redoes at most. 250: the route checks
 * its 15 s between batches, and a batch must end well inside the gateway's 29 s on a busy machine (each
 * payment also writes its Pagamento de Serviços rows since issue 38; 500 a batch overran it).
 */
const LOTE = 250;
/**
 * The route's own share of its 29 s (PLAC_RETORNO_PRAZO_ROTA_MS for a test): past it, the route starts
 * the job for the rest and answers 202 with the import PROCESSANDO.
 */
const prazoNaRotaMs = () => Number(process.env.PLAC_RETORNO_PRAZO_ROTA_MS ?? 15_000);
/**
 * And at most this many payments in the route (two batches), whatever the time: a larger file always goes
 * on as its job, so the same file takes the same path on a fast or a busy machine (the screen follows
 * the job's progress either way).
 */
const MAXIMO_NA_ROTA = 2 * LOTE;
/** An attempt that started this long ago and is still PROCESSANDO has stopped (the route's timeout is 29 s). */
export const RETOMADA_MS = 60_000;

type Linha = store.LinhaRecord;

/**
 * Who settles a DAE that is not an invoice's: a prepaid reservation's (functions/prepago/pagamento.ts),
 * wired in by the handler, so that billing does not import the prepaid context (which the metering,
 * read by billing, imports).
 */
export interface QuitacaoReserva {
  registrarPagamentoDae(documentoId: string, p: { codigoBarras: string; dataPagamento: string }): Promise<'paga' | 'jaPaga' | 'naoEncontrada'>;
  razaoSocialDaReserva(documentoId: string): Promise<string>;
}

/** Where a payment line came from: the file's header and name (kept on the invoice's receipt). */
export interface OrigemDoArquivo {
  dataRetornoBanco: string;
  banco: string;
  nomeBanco: string;
  nomeArquivo: string;
}

/** Attempts at recording one payment when other payments of the same invoice are recorded at the same moment. */
const TENTATIVAS_RECEBIMENTO = 8;

async function conciliar(p: Pagamento, origem: OrigemDoArquivo, importacaoId: string, prepago: QuitacaoReserva | undefined): Promise<Linha> {
  const base = { linha: p.linha, codigoBarras: p.codigoBarras, dataPagamento: p.dataPagamento, valorRecebido: p.valorRecebido };
  if (pagamentoPosteriorAoArquivo(p, { dataGeracao: origem.dataRetornoBanco })) {
    return { ...base, situacao: 'INCONSISTENTE', motivo: message('retornoPagamentoPosteriorAoArquivo', { pagamento: formatDate(p.dataPagamento), arquivo: formatDate(origem.dataRetornoBanco) }) };
  }
  if (!codigoBarrasValido(p.codigoBarras)) return { ...base, situacao: 'INCONSISTENTE', motivo: 'Código de barras com dígito verificador inválido.' };
  // A line of no money pays nothing and is no receipt: reported, never recorded.
  if (p.valorRecebido <= 0) return { ...base, situacao: 'INCONSISTENTE', motivo: 'Pagamento sem valor recebido: nada foi registrado.' };
  const dae = await daePorCodigoBarras(p.codigoBarras);
  if (!dae) return { ...base, situacao: 'NAO_ENCONTRADA', motivo: 'Nenhum DAE emitido com este código de barras.' };
  if (dae.origem === 'PREPAGO') {
    if (!prepago) throw new Error('a prepaid DAE, and no prepaid settlement wired in');
    return conciliarReserva(p, dae, base, prepago);
  }
  // A balance's DAE (functions/faturamento/dae-fatura.ts) names the invoice it pays; the others are keyed by it.
  const faturaId = dae.faturaCobrada ?? dae.faturaId;
  for (let tentativa = 0; tentativa < TENTATIVAS_RECEBIMENTO; tentativa++) {
    const fatura = await lerFatura(faturaId);
    const alvo = { ...base, faturaId, cliente: fatura?.razaoSocial ?? '' };
    if (!fatura) return { ...alvo, situacao: 'NAO_ENCONTRADA', motivo: 'A fatura do DAE não existe mais.' };
    const anteriores = recebimentosDaFatura(fatura);
    const recebimento = {
      codigoBarras: p.codigoBarras,
      dataPagamento: p.dataPagamento,
      dataRetornoBanco: origem.dataRetornoBanco,
      banco: origem.banco,
      nomeBanco: origem.nomeBanco,
      nomeArquivo: origem.nomeArquivo.slice(0, 200),
      importacaoId,
      linha: p.linha,
      autenticacao: p.autenticacao,
      valorPago: p.valorRecebido,
    };
    const chave = chaveDoRecebimento(recebimento);
    const ja = anteriores.find((r) => mesmoPagamento(r, recebimento, chave));
    // Recorded before: by another file (JA_PAGA); by this very file in an attempt that stopped, as then.
    if (ja) return ja.importacaoId === importacaoId ? linhaDoRecebimento(alvo, ja) : { ...alvo, situacao: 'JA_PAGA', motivo: message('retornoPagamentoJaRegistrado', { arquivo: ja.nomeArquivo ? ` (arquivo ${ja.nomeArquivo})` : '' }) };
    if (fatura.situacao === 'A' && dae.revisao !== fatura.revisao) {
      return { ...alvo, situacao: 'INCONSISTENTE', motivo: 'A fatura foi recalculada depois da emissão deste DAE.' };
    }
    // What is owed that day: the balance, and the surcharge on it counted from the DAE's due date (a
    // balance's DAE has its own, issue 37); a paid invoice owes nothing, so all of it is overpaid.
    const { saldoDevedor } = saldoDaFatura(fatura);
    const acrescimo = saldoDevedor > 0 ? acrescimoDevido(saldoDevedor, dae.dtVencimento, p.dataPagamento, taxasConfiguradas()) : 0;
    const novo: Recebimento = { ...recebimento, saldoAnterior: saldoDevedor, acrescimoDevido: acrescimo, ...imputar(p.valorRecebido, saldoDevedor, acrescimo) };
    const quitou = saldoDevedor > 0 && novo.valorAmortizado === saldoDevedor;
    const r = await registrarRecebimento(
      faturaId,
      { revisao: fatura.revisao, versao: fatura.versaoRecebimentos ?? 0 },
      {
        recebimentos: [...anteriores, novo],
        chave,
        quitada: quitou
          ? { codigoBarras: novo.codigoBarras, dataPagamento: novo.dataPagamento, dataRetornoBanco: novo.dataRetornoBanco, valorPago: novo.valorPago, valorAcrescimo: novo.valorAcrescimo, importacaoId }
          : null,
      },
    );
    if (r === 'gravado') return linhaDoRecebimento(alvo, novo);
    if (r === 'revisaoDiferente') return { ...alvo, situacao: 'INCONSISTENTE', motivo: 'A fatura foi recalculada depois da emissão deste DAE.' };
    // 'jaRegistrado' (a line of another file at the same moment) and 'conflito': read again.
  }
  throw new Error(`payment of ${p.codigoBarras} not recorded after ${TENTATIVAS_RECEBIMENTO} attempts: too many payments of one invoice at once`);
}

/**
 * Whether a receipt is this payment: the same key; or, for a payment recorded before the ledger (no
 * authentication kept), the same barcode, day and amount.
 */
function mesmoPagamento(r: Recebimento, novo: Pick<Recebimento, 'codigoBarras' | 'dataPagamento' | 'valorPago' | 'autenticacao'>, chave: string): boolean {
  if (r.autenticacao === '') return r.codigoBarras === novo.codigoBarras && r.dataPagamento === novo.dataPagamento && r.valorPago === novo.valorPago;
  return chaveDoRecebimento(r) === chave;
}

/**
 * The report line of a payment recorded on an invoice: on an invoice already paid, JA_PAGA; paying all
 * that was owed, PAGA; short, INCONSISTENTE with what was owed and the balance left. An overpayment is
 * said with its amount, to be refunded.
 */
function linhaDoRecebimento(alvo: Pick<Linha, 'linha' | 'codigoBarras' | 'dataPagamento' | 'valorRecebido' | 'faturaId' | 'cliente'>, r: Recebimento): Linha {
  const excedente = r.valorExcedente > 0 ? message('retornoPagoAMaior', { excedente: brl(r.valorExcedente) }) : null;
  if (r.saldoAnterior === 0) return { ...alvo, situacao: 'JA_PAGA', motivo: ['A fatura já estava paga.', excedente].filter(Boolean).join(' ') };
  const restante = r.saldoAnterior - r.valorAmortizado;
  if (restante > 0) {
    const motivo = `${pagoAMenor(r.saldoAnterior, r.acrescimoDevido)} ${message('retornoParcialRegistrado')} ${message('retornoSaldoDevedor', { saldo: brl(restante) })}`;
    return { ...alvo, situacao: 'INCONSISTENTE', motivo };
  }
  return { ...alvo, situacao: 'PAGA', valorAcrescimo: r.valorAcrescimo, ...(excedente ? { motivo: excedente } : {}) };
}

/** The report's reason for a short payment: what was due, and the surcharge among it when late. */
function pagoAMenor(valor: number, acrescimo: number): string {
  return acrescimo > 0
    ? message('retornoPagoAMenorComAcrescimo', { devido: brl(valor + acrescimo), acrescimo: brl(acrescimo) })
    : message('retornoPagoAMenor', { devido: brl(valor) });
}

/** A prepaid reservation's DAE: paid in full (late-payment surcharge included), the account is credited once. */
async function conciliarReserva(p: Pagamento, dae: NonNullable<Awaited<ReturnType<typeof daePorCodigoBarras>>>, base: Pick<Linha, 'linha' | 'codigoBarras' | 'dataPagamento' | 'valorRecebido'>, prepago: QuitacaoReserva): Promise<Linha> {
  const alvo = { ...base, faturaId: dae.faturaId, cliente: await prepago.razaoSocialDaReserva(dae.faturaId) };
  const devido = acrescimoDevido(dae.valor, dae.dtVencimento, p.dataPagamento, taxasConfiguradas());
  if (p.valorRecebido < dae.valor + devido) return { ...alvo, situacao: 'INCONSISTENTE', motivo: pagoAMenor(dae.valor, devido) };
  const r = await prepago.registrarPagamentoDae(dae.faturaId, { codigoBarras: p.codigoBarras, dataPagamento: p.dataPagamento });
  if (r === 'paga') return { ...alvo, situacao: 'PAGA', valorAcrescimo: p.valorRecebido - dae.valor };
  if (r === 'jaPaga') return { ...alvo, situacao: 'JA_PAGA', motivo: 'O pagamento antecipado já estava pago.' };
  return { ...alvo, situacao: 'NAO_ENCONTRADA', motivo: 'A reserva do DAE não existe mais.' };
}

const brl = (centavos: number) => `R$ ${(centavos / 100).toLocaleString('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

export interface Relatorio extends Omit<ImportacaoRecord, 'lista' | 'linhas' | 'situacao' | 'iniciadoEm' | 'totalPagamentos' | 'processadas'> {
  situacao: 'PROCESSANDO' | 'CONCLUIDA';
  /** The file's payments, and how many are done (the job's progress while PROCESSANDO). */
  totalPagamentos: number;
  processadas: number;
  /** true when this file had been imported before: the stored report, nothing changed. */
  jaImportado: boolean;
}

const relatorio = ({ lista: _lista, linhas, situacao, iniciadoEm: _iniciadoEm, totalPagamentos, processadas, ...r }: ImportacaoRecord, jaImportado: boolean): Relatorio => {
  // Old items (before issue 26) hold their lines and are done.
  const total = totalPagamentos ?? linhas?.length ?? 0;
  return { ...r, situacao: situacao ?? 'CONCLUIDA', totalPagamentos: total, processadas: processadas ?? total, jaImportado };
};

/** One import's report (its progress while its job runs), for the screen to follow. */
export async function uma(importacaoId: string): Promise<Relatorio> {
  const r = await store.lerImportacao(importacaoId);
  if (!r) throw notFound();
  return relatorio(r, false);
}

/** An import that is finished (old items have no situacao: they were written whole). */
const concluida = (r: ImportacaoRecord) => r.situacao !== 'PROCESSANDO';

export async function importar(
  nomeArquivo: string,
  conteudo: string,
  principal: Principal,
  prepago?: QuitacaoReserva,
  agora: Date = new Date(),
  continuar?: Continuacao,
): Promise<Relatorio> {
  if (!/\.(ret|txt)$/i.test(nomeArquivo)) throw invalid('retornoExtensao');
  if (Buffer.byteLength(conteudo, 'utf8') > MAX_BYTES) throw invalid('retornoGrandeDemais');
  const importacaoId = createHash('sha256').update(conteudo.replace(/\r\n/g, '\n'), 'utf8').digest('hex');
  const anterior = await store.lerImportacao(importacaoId);
  if (anterior && concluida(anterior)) return relatorio(anterior, true);

  const lido = lerRetorno(conteudo);
  // The version first: under another version the other records' positions may differ, and their
  // problems would only be noise.
  const versao = lido.cabecalho && recusaDaVersao(lido.cabecalho.versao);
  if (versao) throw invalid(versao.chave, versao.vars);
  if (lido.problemas.length > 0 || !lido.cabecalho || !lido.trailer) {
    const detalhe = lido.problemas.slice(0, 20).map((p) => (p.linha > 0 ? `Linha ${p.linha}: ${p.motivo}` : p.motivo));
    throw new HttpError(400, 'retornoInvalido', { arquivo: detalhe });
  }
  if (lido.pagamentos.length > MAX_PAGAMENTOS) throw invalid('retornoGrandeDemais');
  const futura = recusaDaData(lido.cabecalho, todayInBahia(agora));
  if (futura) throw invalid(futura.chave, futura.vars);

  const inicio = agora.toISOString();
  const cabecalho: ImportacaoRecord = {
    importacaoId,
    nomeArquivo: nomeArquivo.slice(0, 200),
    importadoEm: inicio,
    importadoPor: principal.name,
    banco: lido.cabecalho.banco,
    nomeBanco: lido.cabecalho.nomeBanco,
    nsa: lido.cabecalho.nsa,
    dataGeracao: lido.cabecalho.dataGeracao,
    registros: lido.trailer.totalRegistros,
    valorTotal: lido.trailer.valorTotal,
    pagas: 0,
    jaPagas: 0,
    naoEncontradas: 0,
    inconsistentes: 0,
    iniciadoEm: inicio,
    totalPagamentos: lido.pagamentos.length,
    processadas: 0,
    lista: 'retornos',
  };
  if (!(await assumirImportacao(cabecalho, anterior, agora))) {
    // Another request imports this file right now, or finished meanwhile.
    const atual = (await store.lerImportacao(importacaoId))!;
    if (concluida(atual)) return relatorio(atual, true);
    throw new HttpError(409, 'retornoEmProcessamento');
  }
  const origem = origemDoArquivo(lido.cabecalho, cabecalho.nomeArquivo);
  const fim = await processar(importacaoId, inicio, lido.pagamentos, origem, prepago, Date.now() + prazoNaRotaMs(), MAXIMO_NA_ROTA);
  if (fim === 'tomada') throw new HttpError(409, 'retornoEmProcessamento');
  if (fim === 'prazo') {
    // The rest goes on as a job: the file kept where its steps read it, then the job started (named
    // after the import and this attempt, so a retried start starts nothing twice).
    if (!continuar) throw new Error('a bank return file larger than the route, and no job wired in');
    await continuar.guardarArquivo(chaveDoArquivo(importacaoId), conteudo);
    await continuar.iniciarJob(`retorno-${importacaoId.slice(0, 32)}-${inicio.replace(/\D/g, '')}`, { importacaoId, token: inicio });
  }
  return relatorio((await store.lerImportacao(importacaoId))!, false);
}

/** Where a file whose import goes on as a job is kept for its steps (documents bucket). */
export const chaveDoArquivo = (importacaoId: string) => `retornos/${importacaoId}.ret`;

/** How the rest of a big file goes on (wired in by the handler: the documents bucket and the job's state machine). */
export interface Continuacao {
  guardarArquivo(chave: string, conteudo: string): Promise<void>;
  iniciarJob(nome: string, input: { importacaoId: string; token: string }): Promise<void>;
}

/**
 * One step of the import's job (functions/faturamento/retorno/run.ts): the payments from where the
 * import stands, for up to `prazoMs`; true when there is nothing more for this attempt to do (the import
 * is closed, or another attempt took it over).
 */
export async function passoDoJob(importacaoId: string, token: string, lerArquivo: () => Promise<string>, prepago: QuitacaoReserva, prazoMs: number): Promise<boolean> {
  const atual = await store.lerImportacao(importacaoId);
  if (!atual || atual.situacao !== 'PROCESSANDO' || atual.iniciadoEm !== token) return true;
  const lido = lerRetorno(await lerArquivo());
  if (!lido.cabecalho) throw new Error(`the kept file of import ${importacaoId} no longer reads`);
  return (await processar(importacaoId, token, lido.pagamentos, origemDoArquivo(lido.cabecalho, atual.nomeArquivo), prepago, Date.now() + prazoMs)) !== 'prazo';
}

/**
 * Matches the payments from where the import stands, LOTE lines at a time, each batch's outcomes written
 * and then counted (store.avancarImportacao: conditional on the attempt and the position), until every
 * line is done and the import closed ('concluida'), `prazo` would pass within the next batch ('prazo'),
 * or another attempt took it over ('tomada').
 */
async function processar(
  importacaoId: string,
  token: string,
  pagamentos: readonly Pagamento[],
  origem: OrigemDoArquivo,
  prepago: QuitacaoReserva | undefined,
  prazo: number,
  maximo = Infinity,
): Promise<'concluida' | 'prazo' | 'tomada'> {
  let de = (await store.lerImportacao(importacaoId))?.processadas ?? 0;
  const ate = de + maximo;
  // Another batch starts only if one as long as the last would still end by `prazo`: the route's own
  // timeout follows it, and on a busy machine a second batch begun just before it ran past the timeout
  // (a 503 where the import should have gone on as its job).
  let ultimoLoteMs = 0;
  while (de < pagamentos.length) {
    if (Date.now() + ultimoLoteMs > prazo || de >= ate) return 'prazo';
    const comeco = Date.now();
    const lote = pagamentos.slice(de, de + LOTE);
    const linhas = await conciliarTodas(lote, (p) => conciliar(p, origem, importacaoId, prepago));
    await store.gravarLinhas(importacaoId, linhas);
    const conta = (s: Linha['situacao']) => linhas.filter((l) => l.situacao === s).length;
    const totais = { pagas: conta('PAGA'), jaPagas: conta('JA_PAGA'), naoEncontradas: conta('NAO_ENCONTRADA'), inconsistentes: conta('INCONSISTENTE') };
    if (!(await store.avancarImportacao(importacaoId, token, de, lote.length, totais))) return 'tomada';
    de += lote.length;
    ultimoLoteMs = Date.now() - comeco;
  }
  return (await store.concluirImportacao(importacaoId, token, pagamentos.length)) ? 'concluida' : 'tomada';
}

/**
 * Starts this attempt: the file's first import (conditional create), or the take-over of one that
 * stopped (PROCESSANDO since before RETOMADA_MS; conditional on its start, so one retry takes it).
 */
async function assumirImportacao(cabecalho: ImportacaoRecord, anterior: ImportacaoRecord | null, agora: Date): Promise<boolean> {
  if (!anterior) return store.iniciarImportacao(cabecalho);
  const parada = anterior.situacao === 'PROCESSANDO' && Date.parse(anterior.iniciadoEm ?? '') < agora.getTime() - RETOMADA_MS;
  return parada && store.retomarImportacao(cabecalho.importacaoId, anterior.iniciadoEm!, cabecalho.iniciadoEm!);
}

const origemDoArquivo = (c: { dataGeracao: string; banco: string; nomeBanco: string }, nomeArquivo: string): OrigemDoArquivo => ({
  dataRetornoBanco: c.dataGeracao,
  banco: c.banco,
  nomeBanco: c.nomeBanco,
  nomeArquivo,
});

/** Every payment matched, CONCORRENCIA at a time; the payments of one barcode in file order, one after another. */
async function conciliarTodas(pagamentos: readonly Pagamento[], uma: (p: Pagamento) => Promise<Linha>): Promise<Linha[]> {
  const porCodigo = new Map<string, Pagamento[]>();
  for (const p of pagamentos) {
    const grupo = porCodigo.get(p.codigoBarras);
    if (grupo) grupo.push(p);
    else porCodigo.set(p.codigoBarras, [p]);
  }
  const grupos = [...porCodigo.values()];
  const linhas: Linha[] = [];
  let proximo = 0;
  const trabalhador = async () => {
    while (proximo < grupos.length) {
      const grupo = grupos[proximo++]!;
      for (const p of grupo) linhas.push(await uma(p));
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCORRENCIA, grupos.length) }, trabalhador));
  return linhas.sort((a, b) => a.linha - b.linha);
}

export async function recentes() {
  return (await store.importacoesRecentes(50)).map((r) => relatorio(r, false));
}

/** One page of an import's lines; an old import's lines are read from its header (at most 1,000). */
export async function linhas(importacaoId: string, filtro: { cursor?: string | undefined; perPage: number }, principal: Principal) {
  const importacao = await store.lerImportacao(importacaoId);
  if (!importacao) throw notFound();
  const vinculo = vinculoDoCursor(principal, 'faturamento.retornoLinhas', { importacaoId, perPage: filtro.perPage });
  if (importacao.linhas) {
    const todas = importacao.linhas;
    return paginaComCursor(vinculo, filtro.cursor, async (posicao) => {
      const de = posicao ? Number(posicao) : 0;
      const fim = de + filtro.perPage;
      return { items: todas.slice(de, fim), posicao: fim < todas.length ? String(fim) : null };
    });
  }
  return paginaComCursor(vinculo, filtro.cursor, (posicao) => store.linhasDaImportacao(importacaoId, { perPage: filtro.perPage, posicao }));
}
