import { createHash } from 'node:crypto';
import {
  addDays,
  FATURAMENTO_PERIODO_MAXIMO_DIAS,
  FATURAMENTO_TIPOS,
  SERVICO,
  splitChaveAcesso,
  UFS,
  validateDateRange,
  type StatusNaoEncontrada,
  type TipoFaturamento,
} from '@plac/shared/domain';
import { comCessoes } from '../cessao';
import { consentimentoVigente } from '../consentimento';
import * as consumo from '../consumo';
import * as fate from '../fate';
import { autorizacaoVigente } from '../instituicoes';
import { TRANSPORTADORA_PAGINA } from '@plac/shared/contracts/consulta';
import { abrirCursor, selarCursor } from '../platform/cursor';
import { HttpError } from '../platform/errors';
import { exigirServico, type Chamador } from './chamador';
import { evidenciaDe, recebivelView } from './view';

/**
 * The look-ups. Each checks the service for the caller, reads the Fat-e context's service, and charges
 * the client exactly once when it found data (functions/consumo: a counter of client, service, origin
 * UF of the document and month, and the request log). A key that is not found is recorded for the
 * not-found screens and not charged; an invalid request is refused before anything is read. The
 * authority's staff look up without a client: nothing is charged or recorded for them.
 *
 * No charge without an answer (issue 37): the charge is each look-up's last step, written once the
 * whole answer is built (the assignments, the evidence, the page's cursor read or sealed). A read that
 * fails after the data was found answers an error and charges nothing, so the client's retry (with
 * the same Idempotency-Key or without one) is charged once. What is charged (service, UF, key or
 * line, month of `agora`) is what it was when the charge came first: all of it is known once the
 * data is found.
 */

export interface Pedido {
  chamador: Chamador;
  /** Who asks, for binding page cursors: `cliente:<id>` or `usuario:<id>`. */
  titular: string;
  /** The Idempotency-Key header: a retry with the same key and the same look-up is charged once. */
  idempotencyKey?: string | undefined;
  agora?: Date;
  /**
   * A CSV batch's lines' charges (functions/consulta/lote.ts): when present, a look-up adds its charge
   * here instead of writing it, and the batch writes them all once every line is answered, so a batch
   * that fails on a later line has charged none of the earlier ones.
   */
  cobrancasAdiadas?: (() => Promise<unknown>)[];
}

/** What a look-up that found data is charged: the service, the origin UF and the key (or line) logged. */
interface Cobranca {
  servico: number;
  uf: string;
  chave: string;
}


/** Charges the client for a look-up whose answer is built (the last step of every look-up); the staff are never charged. */
async function cobrar(p: Pedido, { servico, uf, chave }: Cobranca): Promise<void> {
  const cliente = p.chamador.cliente;
  if (!cliente) return;
  const escrever = () =>
    consumo.cobrarConsulta({
      clienteId: cliente.id,
      servico,
      uf,
      chave,
      // The key counts once per look-up it was sent with: the same key reused for another key or line is
      // another request (charged), never a free one.
      idempotencyKey: p.idempotencyKey ? `${p.idempotencyKey}:${digest(`${servico}|${chave}`)}` : undefined,
      ...(p.agora ? { agora: p.agora } : {}),
    });
  if (p.cobrancasAdiadas) p.cobrancasAdiadas.push(escrever);
  else await escrever();
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}

/**
 * A key not found (NAO_ENCONTRADA), or a batch line that is not a valid key (CHAVE_INVALIDA): recorded
 * under the UF of its first two digits for the client's not-found list; a text without a UF code there
 * cannot be listed by UF and is only answered.
 */
export async function registrarNaoEncontrada(p: Pedido, servico: number, chave: string, status: StatusNaoEncontrada = 'NAO_ENCONTRADA'): Promise<void> {
  const cliente = p.chamador.cliente;
  const cuf = splitChaveAcesso(chave)?.cUF ?? chave.slice(0, 2);
  const uf = UFS.find((u) => String(u.codigo) === cuf)?.uf;
  if (!cliente || !uf) return;
  await consumo.registrarNaoEncontrada({
    uf,
    chnfe: chave.slice(0, 60),
    servico,
    status,
    clienteId: cliente.id,
    cnpj: cliente.cnpj,
    razaoSocial: cliente.razao_social,
    ...(p.agora ? { agora: p.agora } : {}),
  });
}

const naoEncontrada = () => new HttpError(404, 'fateNaoEncontrada');

/** A charge's UF when the counters name none (never for counters written by this version). */
const UF_SEM_ORIGEM = 'BA';

/** The Fat-e of a key, or 404 recorded as not found. Not charged here: the caller charges once its answer is built. */
async function fateDaChave(p: Pedido, servico: number, chave: string) {
  await exigirServico(p.chamador, servico);
  const f = await fate.fatePorChave(chave);
  if (!f) {
    await registrarNaoEncontrada(p, servico, chave);
    throw naoEncontrada();
  }
  return f;
}

/**
 * Service 1: the Fat-e of an access key (a cancelled one is answered, with situacao CANCELADA), each
 * instalment with its registered assignment (functions/cessao) or null. Charged after the assignments
 * are read.
 */
export async function fatePorChave(p: Pedido, chave: string) {
  const f = await fateDaChave(p, SERVICO.fatePorChave, chave);
  const resposta = await comCessoes(fate.fateView(f));
  await cobrar(p, { servico: SERVICO.fatePorChave, uf: f.uf, chave });
  return resposta;
}

/**
 * Service 3: a receivable under evaluation with its evidence, its instalments as of today
 * (docs/recebivel.md). Charged after the evidence (facts and assignments) is read.
 */
export async function recebivel(p: Pedido, chave: string) {
  const agora = p.agora ?? new Date();
  const f = await fateDaChave(p, SERVICO.recebivelAvaliacao, chave);
  const resposta = recebivelView(f, await evidenciaDe(f, agora), agora);
  await cobrar(p, { servico: SERVICO.recebivelAvaliacao, uf: f.uf, chave });
  return resposta;
}

export interface ChaveComposta {
  cnpjEmissor: string;
  cnpjDestinatario: string;
  dataVencimentoParcela: string;
  valorParcela: number;
  numeroParcela?: string | undefined;
}

/** The composite key as one line, the way the request log and the CSV batch keep it. */
export function linhaComposta(c: ChaveComposta): string {
  return [c.cnpjEmissor, c.cnpjDestinatario, c.dataVencimentoParcela, c.valorParcela, c.numeroParcela ?? ''].join(';');
}

/**
 * Service 2: the Fat-e with an instalment of that issuer, recipient, due date, value (and number), with
 * their assignments. Charged once, under the first Fat-e's UF, after every Fat-e's assignments are read.
 */
export async function porChaveComposta(p: Pedido, c: ChaveComposta) {
  await exigirServico(p.chamador, SERVICO.fatePorChaveComposta);
  const fates = await fate.fatesPorChaveComposta({
    emitenteCnpj: c.cnpjEmissor,
    destinatarioDoc: c.cnpjDestinatario,
    vencimento: c.dataVencimentoParcela,
    valor: c.valorParcela,
    numero: c.numeroParcela,
  });
  if (fates.length === 0) throw naoEncontrada();
  // Each with its instalments' assignments (one Query per Fat-e; a composite key matches very few).
  const resposta = await Promise.all(fates.map((f) => comCessoes(fate.fateView(f))));
  await cobrar(p, { servico: SERVICO.fatePorChaveComposta, uf: fates[0]!.uf, chave: linhaComposta(c) });
  return resposta;
}

/** The period rule of the billing and carrier look-ups: start ≤ end, at most a year. */
function exigirPeriodo(dataInicio: string, dataFim: string): void {
  const erro = validateDateRange(dataInicio, dataFim, { maxDays: FATURAMENTO_PERIODO_MAXIMO_DIAS });
  if (erro === 'dataInicioMaiorDataFim') throw new HttpError(400, erro);
  if (erro) throw new HttpError(400, 'periodoMaximoUmAno');
}

/** A period of Bahia days (UTC-3, no daylight saving) as the instants [start of first day, start of the day after the last). */
function instantes(dataInicio: string, dataFim: string): [string, string] {
  return [`${dataInicio}T03:00:00.000Z`, `${addDays(dataFim, 1)}T03:00:00.000Z`];
}

export interface Faturamento {
  cnpjBaseInstFin: string;
  cnpjEmitente: string;
  dataInicio: string;
  dataFim: string;
}

/**
 * Services 4 and 5: an issuer's billing (NFC-e, model 65, or NF-e, model 55) in a period of at most a
 * year, month by month, for a financial institution the client holds an AUTORIZADO ESF authorisation
 * for, and only while the issuer has an active consent naming that institution (base CNPJ) and that
 * branch (functions/consentimento: otherwise 403 semConsentimento, not charged). Cancelled documents
 * do not count. Nothing in the period: 404, not charged.
 */
export async function faturamento(p: Pedido, tipo: TipoFaturamento, f: Faturamento) {
  const { modelo, servico } = FATURAMENTO_TIPOS[tipo];
  await exigirServico(p.chamador, servico);
  exigirPeriodo(f.dataInicio, f.dataFim);
  const cliente = p.chamador.cliente;
  if (cliente && !(await autorizacaoVigente(cliente.id, f.cnpjBaseInstFin))) {
    throw new HttpError(403, 'instituicaoNaoAutorizada', undefined, { cnpj: f.cnpjBaseInstFin });
  }
  // The issuer's consent (docs/consentimento.md): read on every call, never cached, whoever asks.
  if (!(await consentimentoVigente(f.cnpjEmitente, f.cnpjBaseInstFin, p.agora ?? new Date()))) {
    throw new HttpError(403, 'semConsentimento', undefined, { cnpj: f.cnpjEmitente, cnpjInst: f.cnpjBaseInstFin });
  }
  // The issuer's counters kept at ingestion (functions/fate): whole months and the cut days at the ends.
  const contagem = await fate.contagemDoEmitente(f.cnpjEmitente, modelo, f.dataInicio, f.dataFim);
  if (contagem.meses.length === 0) throw new HttpError(404, 'faturamentoNaoEncontrado');
  const resposta = {
    cnpjEmitente: f.cnpjEmitente,
    nomeEmitente: contagem.emitenteNome ?? '',
    modelo,
    dataInicio: f.dataInicio,
    dataFim: f.dataFim,
    quantidade: contagem.meses.reduce((s, m) => s + m.quantidade, 0),
    valorTotal: contagem.meses.reduce((s, m) => s + m.valor, 0),
    meses: contagem.meses.map((m) => ({ mes: m.mes, quantidade: m.quantidade, valorTotal: m.valor })),
  };
  await cobrar(p, { servico, uf: contagem.uf ?? UF_SEM_ORIGEM, chave: `${tipo};${f.cnpjBaseInstFin};${f.cnpjEmitente};${f.dataInicio};${f.dataFim}` });
  return resposta;
}

/**
 * Service 7: the Fat-e naming a carrier, issued in a period of at most a year, oldest first, at most
 * TRANSPORTADORA_PAGINA per call: one Query of the carrier's links and one BatchGet. More to come:
 * `nextCursor`, sealed for this caller and this query. Each page with Fat-e is one charged request (its
 * request line names the page's position, so the same page retried with the same Idempotency-Key is
 * charged once), after its cursor is sealed; the first page without any Fat-e is 404, not charged.
 */
export async function transportadora(p: Pedido, documento: string, dataInicio: string, dataFim: string, cursor?: string) {
  await exigirServico(p.chamador, SERVICO.fateTransportadora);
  exigirPeriodo(dataInicio, dataFim);
  const vinculo = `${p.titular}|transportadora|${documento}|${dataInicio}|${dataFim}`;
  const posicao = cursor ? await abrirCursor(cursor, vinculo) : null;
  const [de, ate] = instantes(dataInicio, dataFim);
  const pagina = await fate.fatesDoTransportadorPagina(documento, de, ate, TRANSPORTADORA_PAGINA, posicao);
  if (pagina.fates.length === 0 && !posicao) throw new HttpError(404, 'transportadoraSemFate');
  const ultima = pagina.fates[pagina.fates.length - 1];
  const resposta = {
    documento,
    nome: ultima?.transportadorNome ?? null,
    dataInicio,
    dataFim,
    fates: pagina.fates.map(fate.fateView),
    ...(pagina.posicao ? { nextCursor: await selarCursor(pagina.posicao, vinculo) } : {}),
  };
  if (ultima) {
    const linha = `${documento};${dataInicio};${dataFim}${posicao ? `;pagina=${digest(posicao)}` : ''}`;
    await cobrar(p, { servico: SERVICO.fateTransportadora, uf: ultima.uf, chave: linha });
  }
  return resposta;
}
