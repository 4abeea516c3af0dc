import {
  addDays,
  FATURAMENTO_PERIODO_MAXIMO_DIAS,
  FATURAMENTO_TIPOS,
  SERVICO,
  validateDateRange,
  type TipoFaturamento,
} from '@plac/shared/domain';
import { comCessoes } from '../cessao';
import { consentimentoVigente } from '../consentimento';
import * as fate from '../fate';
import { autorizacaoVigente } from '../instituicoes';
import { TRANSPORTADORA_PAGINA } from '@plac/shared/contracts/consulta';
import { abrirCursor, selarCursor } from '../platform/cursor';
import { HttpError } from '../platform/errors';
import { exigirServico } from './chamador';
import { cobrar, digest, fateDaChave, naoEncontrada, type Pedido } from './por-chave';
import { evidenciaDe, recebivelView } from './view';

/** The look-ups but the one by key (por-chave.ts, with the charge they share): services 2 to 7. */

/** A charge's UF when the counters name none (never for counters written by this version). */
const UF_SEM_ORIGEM = 'BA';

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
