import { foldText, isValidChaveAcesso, porCodigo } from '@plac/shared/domain';
import * as fate from '../fate';
import { abrirCursor, proximoCursor } from '../platform/cursor';
import { HttpError, invalid } from '../platform/errors';
import { totalFiltrado, type SituacaoTotal } from './total-transportadoras';
import { evidenciaDe } from './view';

/** The administrator's free look-up and the carrier quantity report: not charged, not recorded. */

/** Type 1 is an NF-e's key; type 2 an MDF-e's, whose documents the platform does not load. The instalments carry their assignments. */
export async function consultaLivre(tipo: '1' | '2', chave: string) {
  if (tipo === '1' && !isValidChaveAcesso(chave)) throw invalid('campoInvalido', { field: 'chave de acesso' });
  const f = tipo === '1' ? await fate.fatePorChave(chave) : null;
  if (!f) throw new HttpError(404, 'fateNaoEncontrada');
  // Each instalment with its registered assignment (functions/cessao), shown in the screen's instalment
  // table, and the receivable's evidence with its timeline (docs/recebivel.md).
  const evidencia = await evidenciaDe(f, new Date());
  return { ...fate.fateView(f), duplicatas: evidencia.parcelas.map(({ situacao: _situacao, ...parcela }) => parcela), evidencia };
}

const PAGINA_TRANSPORTADORES = 100;

/** The carrier registry by name, a page at a time; `nome` matches any part of the folded name. */
export async function listaTransportadores(q: { nome?: string | undefined; cursor?: string | undefined }, binding: string) {
  const nomeContem = foldText(q.nome ?? '').toUpperCase() || undefined;
  const vinculo = `${binding}|transportadoras|${nomeContem ?? ''}`;
  const desde = q.cursor ? (JSON.parse(await abrirCursor(q.cursor, vinculo)) as { n: string; d: string }) : undefined;
  const { itens, fim, ultimo } = await fate.transportadoresPagina({ limite: PAGINA_TRANSPORTADORES + 1, nomeContem, desde: desde && { nomeFolded: desde.n, documento: desde.d } });
  const pagina = itens.slice(0, PAGINA_TRANSPORTADORES);
  const seguinte = itens[PAGINA_TRANSPORTADORES];
  // The next page starts at the first carrier not shown (inclusive); without one, more may still follow
  // past what was read (a name filter matching none of it), so the position is just past the last read.
  const proximo = seguinte ? { n: seguinte.nomeFolded, d: seguinte.documento } : !fim && ultimo ? depois(ultimo) : null;
  return {
    items: pagina.map((t) => ({ documento: t.documento, nome: t.nome })),
    nextCursor: await proximoCursor(proximo && JSON.stringify(proximo), vinculo),
  };
}

/** Just past a carrier read: its document followed by the highest character. */
const depois = (t: { nomeFolded: string; documento: string }) => ({ n: t.nomeFolded, d: `${t.documento}~` });

export interface FiltroQtd {
  cnpjTransportadora?: string | undefined;
  razaoSocialTransportadora?: string | undefined;
  /** MM/AAAA */
  dataFaturaIni: string;
  dataFaturaFim: string;
  cursor?: string | undefined;
  perPage: number;
}

const mes = (mmAaaa: string) => `${mmAaaa.slice(3)}-${mmAaaa.slice(0, 2)}`;

/** Carriers examined per call at most (a name filter that matches few of them still answers in bounded time). */
const TRANSPORTADORES_POR_CHAMADA = 400;
/** Carriers read per Query of the registry, and read in parallel. */
const LOTE_TRANSPORTADORES = 40;
/** A document filter's carriers read at once (by the start of the document), then ordered by name. */
const MAXIMO_POR_DOCUMENTO = 2000;

/** Where a report page starts: a carrier (name and document, inclusive) and how many of its rows were shown. */
interface PosicaoQtd {
  n: string;
  d: string;
  k: number;
}

/**
 * Fat-e per carrier and receipt day (the day, in Bahia, the document was issued) in the months asked
 * (at most 12), each carrier's total on its rows and the grand total; rows by carrier name and day, a
 * page at a time with a cursor. Everything comes from counters kept at ingestion: a carrier's days are
 * one Query of its day counters, the grand total the month counters. Carriers are filtered by document
 * (its start) and name (any part, accents ignored). With a filter the grand total is computed by a job
 * when its carriers do not fit in one bounded step (total-transportadoras.ts): until it is ready the
 * answer says so (`situacaoTotalGeral` PROCESSANDO, no `totalGeral`) and the screen asks again.
 */
export async function qtdFateTransportadora(f: FiltroQtd, binding: string) {
  const de = mes(f.dataFaturaIni);
  const ate = mes(f.dataFaturaFim);
  if (de > ate) throw invalid('dataInicioMaiorDataFim');
  const meses = (Number(ate.slice(0, 4)) - Number(de.slice(0, 4))) * 12 + Number(ate.slice(5)) - Number(de.slice(5)) + 1;
  if (meses > 12) throw invalid('periodoMaximoUmAno');

  const documento = f.cnpjTransportadora?.replace(/[^0-9A-Z]/g, '') || undefined;
  const nome = foldText(f.razaoSocialTransportadora ?? '').toUpperCase() || undefined;
  const vinculo = `${binding}|qtd-fate-transportadora|${documento ?? ''}|${nome ?? ''}|${de}|${ate}|${f.perPage}`;
  const posicao = f.cursor ? (JSON.parse(await abrirCursor(f.cursor, vinculo)) as PosicaoQtd) : null;

  const linhas: { cnpj: string; nome: string; dhRecbto: string; qtdFate: number; total: number }[] = [];
  let proximo: PosicaoQtd | null = null;
  let desde = posicao ? { nomeFolded: posicao.n, documento: posicao.d } : undefined;
  let examinados = 0;
  for (;;) {
    const { itens, fim, ultimo } = await lerTransportadores(documento, nome, desde);
    const dias = await Promise.all(itens.map((t) => fate.contagemDiariaDoTransportador(t.documento, de, ate)));
    for (const [i, t] of itens.entries()) {
      const doTransportador = dias[i]!;
      const total = doTransportador.reduce((s, d) => s + d.quantidade, 0);
      const pular = posicao && t.documento === posicao.d && t.nomeFolded === posicao.n ? posicao.k : 0;
      const restantes = doTransportador.slice(pular);
      const cabem = f.perPage - linhas.length;
      linhas.push(...restantes.slice(0, cabem).map((d) => ({ cnpj: t.documento, nome: t.nome, dhRecbto: d.dia, qtdFate: d.quantidade, total })));
      if (restantes.length >= cabem && linhas.length === f.perPage) {
        // The page is full: the next starts at this carrier, past the rows shown (or at the next carrier).
        proximo = { n: t.nomeFolded, d: t.documento, k: pular + cabem };
        break;
      }
    }
    // A read of the registry examines up to LOTE_TRANSPORTADORES carriers per shard, matching or not.
    examinados += LOTE_TRANSPORTADORES;
    if (proximo || fim || !ultimo) break;
    // On past the last carrier read, even when none of them matched the name (the page is not over).
    desde = { nomeFolded: ultimo.nomeFolded, documento: `${ultimo.documento}~` };
    if (examinados >= TRANSPORTADORES_POR_CHAMADA) {
      // Bounded work per call: the caller goes on from here with the cursor (the page may be short).
      proximo = { n: desde.nomeFolded, d: desde.documento, k: 0 };
      break;
    }
  }
  const total = await totalGeralDoRelatorio(documento, nome, de, ate);
  return {
    linhas,
    nextCursor: await proximoCursor(proximo && JSON.stringify(proximo), vinculo),
    situacaoTotalGeral: total.situacao,
    ...(total.situacao === 'CONCLUIDO' ? { totalGeral: total.total, ...(total.calculadoEm ? { totalGeralCalculadoEm: total.calculadoEm } : {}) } : {}),
  };
}

/** The next carriers of the report in name order, from `desde` (inclusive). */
async function lerTransportadores(documento: string | undefined, nome: string | undefined, desde: { nomeFolded: string; documento: string } | undefined) {
  if (!documento) return fate.transportadoresPagina({ limite: LOTE_TRANSPORTADORES, nomeContem: nome, desde });
  // A document filter selects few carriers (by the start of the document): read them, then order by name.
  const { itens } = await fate.transportadoresPagina({ limite: MAXIMO_POR_DOCUMENTO, documentoPrefixo: documento, nomeContem: nome });
  const ordem = (t: { nomeFolded: string; documento: string }) => `${t.nomeFolded}\u0000${t.documento}`;
  const seguintes = itens.filter((t) => !desde || ordem(t) >= ordem(desde)).sort((a, b) => porCodigo(ordem(a), ordem(b)));
  const fim = seguintes.length <= LOTE_TRANSPORTADORES;
  return { itens: seguintes.slice(0, LOTE_TRANSPORTADORES), fim, ultimo: fim ? null : seguintes[LOTE_TRANSPORTADORES - 1]! };
}

/**
 * The grand total: without a filter, the month counters of all carriers (at most 12 × 16 items), always
 * ready; with one, the matching carriers' month counters added up, inline or by a job (total-transportadoras.ts).
 */
async function totalGeralDoRelatorio(documento: string | undefined, nome: string | undefined, de: string, ate: string): Promise<SituacaoTotal> {
  if (!documento && !nome) return { situacao: 'CONCLUIDO', total: await fate.totalTransporte(de, ate) };
  return totalFiltrado({ documento, nome, de, ate });
}
