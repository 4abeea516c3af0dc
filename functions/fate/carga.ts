import { isUf, type Fluxo, type Uf } from '@plac/shared/domain';
import { logger } from '../platform/observability';
import { consultarDistribuicao, SefazIndisponivel, type RespostaDistribuicao } from './distribuicao';
import { FalhaSoap } from './soap';
import { cursorDe, ingerir, registrarConsulta, type Ingestao, type IngestaoHooks } from './service';
import * as store from './carga-store';

/**
 * The scheduled load of one stream of one Sefaz: ask for the documents after the UF's cursor, ingest
 * them, and ask again until the answer's ultNSU reaches its maxNSU or the run's time budget ends (a
 * long backlog is then spread over the next runs instead of outliving the Lambda). The distribution's
 * rules (NT 2014.002): after a 656 (too many requests), and after being told the stream is caught up
 * (ultNSU = maxNSU), the UF is not asked again for an hour. A Sefaz that cannot be reached is recorded
 * and tried next run; a SOAP Fault is recorded as a refusal with its text.
 */

/** How long the platform waits after a 656 before asking that Sefaz again (the service asks for one hour). */
export const ESPERA_APOS_656_MS = 60 * 60_000;
/**
 * How long after a caught-up answer (ultNSU = maxNSU) before asking again: the hour the service asks,
 * unless PLAC_SEFAZ_ESPERA_EM_DIA_MIN says otherwise (the local twin sets 0, so a file dropped in its
 * simulator shows at the next load).
 */
const esperaEmDiaPadrao = () => Number(process.env.PLAC_SEFAZ_ESPERA_EM_DIA_MIN ?? 60) * 60_000;
/** A run stops asking after this long (PLAC_SEFAZ_ORCAMENTO_S): below the task's timeout by one call and its ingestion. */
export const orcamentoPadraoMs = () => Number(process.env.PLAC_SEFAZ_ORCAMENTO_S ?? 240) * 1000;
/** SOAP Faults have no cStat: the platform records them under its own code (shared/src/domain/cargas.ts). */
export const CSTAT_FALHA_SOAP = '998';

/** 'ocupada': another run of the same UF and stream holds its lease; this one did nothing. */
export type SituacaoCarga = 'carregada' | 'aguardando' | 'recusada' | 'indisponivel' | 'ocupada';

export interface ResultadoCarga {
  uf: Uf;
  fluxo: Fluxo;
  situacao: SituacaoCarga;
  chamadas: number;
  cStat: string | null;
  ultNSU: string;
  maxNSU: string | null;
  fate: number;
  eventos: number;
  resumos: number;
  erros: number;
  ignorados: number;
  repetidos: number;
}

/** Loads one stream of a UF's Sefaz: goods (NF-e) unless `fluxo` says transport (CT-e). */
export async function carregarUf(
  uf: Uf,
  options: {
    fluxo?: Fluxo;
    /** At most this many calls (a test's stop); by default only the time budget ends a run. */
    maxChamadas?: number;
    /** The run asks no more after this long (default orcamentoPadraoMs()). */
    orcamentoMs?: number;
    /** The wait after a caught-up answer (default one hour, or PLAC_SEFAZ_ESPERA_EM_DIA_MIN). */
    esperaEmDiaMs?: number;
    hooks?: Omit<IngestaoHooks, 'fluxo'>;
    agora?: () => Date;
  } = {},
): Promise<ResultadoCarga> {
  if (!isUf(uf)) throw new RangeError(`unknown UF ${String(uf)}`);
  const fluxo = options.fluxo ?? 'nfe';
  const agora = options.agora ?? (() => new Date());
  const resultado: ResultadoCarga = { ...vazio(uf, fluxo), ultNSU: await cursorDe(uf, fluxo) };

  const resumo = await store.resumoProcessamentoDa(uf, fluxo);
  if (resumo?.aguardarAte && Date.parse(resumo.aguardarAte) > agora().getTime()) {
    return { ...resultado, situacao: 'aguardando', cStat: resumo.cStat };
  }

  const maxChamadas = options.maxChamadas ?? Number.POSITIVE_INFINITY;
  // Measured on the wall clock, not `agora` (a test's clock may stand still).
  const fim = Date.now() + (options.orcamentoMs ?? orcamentoPadraoMs());
  const esperaEmDiaMs = options.esperaEmDiaMs ?? esperaEmDiaPadrao();
  while (resultado.chamadas < maxChamadas && (resultado.chamadas === 0 || Date.now() < fim)) {
    let resposta: RespostaDistribuicao;
    resultado.chamadas += 1;
    try {
      resposta = await consultarDistribuicao(uf, { ultNSU: Number(resultado.ultNSU) }, fluxo);
    } catch (error) {
      if (error instanceof FalhaSoap) {
        logger.warn('Sefaz answered a SOAP Fault', { uf, fluxo, codigo: error.codigo, texto: error.texto });
        await registrarConsulta(uf, { cStat: CSTAT_FALHA_SOAP, xMotivo: `${error.codigo}: ${error.texto}`.slice(0, 200) }, { agora: agora(), fluxo });
        return { ...resultado, situacao: 'recusada', cStat: CSTAT_FALHA_SOAP };
      }
      if (!(error instanceof SefazIndisponivel)) throw error;
      logger.warn('Sefaz unavailable', { uf, fluxo, reason: error.message });
      await registrarConsulta(uf, { cStat: '999', xMotivo: error.message.slice(0, 200) }, { agora: agora(), fluxo });
      return { ...resultado, situacao: 'indisponivel', cStat: '999' };
    }
    resultado.cStat = resposta.cStat;

    if (resposta.cStat === '656') {
      const aguardarAte = new Date(agora().getTime() + ESPERA_APOS_656_MS).toISOString();
      logger.warn('Sefaz answered 656: waiting before asking again', { uf, fluxo, aguardarAte });
      await registrarConsulta(uf, { cStat: resposta.cStat, xMotivo: resposta.xMotivo }, { aguardarAte, agora: agora(), fluxo });
      return { ...resultado, situacao: 'aguardando' };
    }
    if (resposta.cStat !== '137' && resposta.cStat !== '138') {
      // 9501, 215, …: the Sefaz refused; its code is what the monitoring shows.
      await registrarConsulta(uf, { cStat: resposta.cStat, xMotivo: resposta.xMotivo }, { agora: agora(), fluxo });
      return { ...resultado, situacao: 'recusada' };
    }

    let ingestao: Ingestao | null = null;
    if (resposta.documentos.length > 0) {
      ingestao = await ingerir(uf, resposta.documentos, { ...options.hooks, fluxo });
      for (const key of ['fate', 'eventos', 'resumos', 'erros', 'ignorados', 'repetidos'] as const) resultado[key] += ingestao[key];
    }
    const emDia = resposta.cStat === '137' || resposta.ultNSU >= resposta.maxNSU;
    const aguardarAte = emDia && esperaEmDiaMs > 0 ? new Date(agora().getTime() + esperaEmDiaMs).toISOString() : null;
    await registrarConsulta(
      uf,
      { cStat: resposta.cStat, xMotivo: resposta.xMotivo, ultNSU: resposta.ultNSU, maxNSU: resposta.maxNSU },
      { publicadoEm: ingestao?.publicadoEm ?? null, agora: agora(), fluxo, aguardarAte },
    );
    resultado.maxNSU = resposta.maxNSU;
    const proximo = await cursorDe(uf, fluxo);
    // Caught up, or an answer that did not move the cursor (it would be asked the same again).
    if (emDia || proximo === resultado.ultNSU) {
      resultado.ultNSU = proximo;
      break;
    }
    resultado.ultNSU = proximo;
  }
  return resultado;
}

/** A lease outlives the run's budget by the longest call (20 s) and its ingestion, with room to spare. */
const FOLGA_DA_TRAVA_MS = 90_000;

/**
 * One scheduled run of one UF's stream, alone: it holds the stream's lease (functions/fate/store-entities.ts
 * travaCarga) while it loads, so a run started while the previous one still works (a backlog longer
 * than a run, a retry) does nothing instead of reading the same NSUs twice. Each UF and stream is its
 * own run, so a backlog in one never delays another.
 */
export async function carregarComTrava(
  uf: Uf,
  fluxo: Fluxo,
  dono: string,
  options: Omit<Parameters<typeof carregarUf>[1] & object, 'fluxo'> = {},
): Promise<ResultadoCarga> {
  const orcamentoMs = options.orcamentoMs ?? orcamentoPadraoMs();
  const agora = new Date();
  if (!(await store.tomarTravaCarga(uf, fluxo, dono, new Date(agora.getTime() + orcamentoMs + FOLGA_DA_TRAVA_MS), agora))) {
    const resumo = await store.resumoProcessamentoDa(uf, fluxo);
    return { ...vazio(uf, fluxo), situacao: 'ocupada', cStat: resumo?.cStat ?? null, ultNSU: await cursorDe(uf, fluxo), maxNSU: resumo?.nsuMax ?? null };
  }
  try {
    return await carregarUf(uf, { ...options, orcamentoMs, fluxo });
  } finally {
    await store.soltarTravaCarga(uf, fluxo, dono);
  }
}

function vazio(uf: Uf, fluxo: Fluxo): ResultadoCarga {
  return { uf, fluxo, situacao: 'carregada', chamadas: 0, cStat: null, ultNSU: '', maxNSU: null, fate: 0, eventos: 0, resumos: 0, erros: 0, ignorados: 0, repetidos: 0 };
}

export interface ResultadoLote {
  cStat: string;
  xMotivo: string;
  maxNSU: string;
  ingestao: Ingestao;
}

/**
 * Re-reads the NSUs after `ultNSU` up to `nsuFin` from the Sefaz and ingests them with the same code
 * as the scheduled load, without moving the cursor (the scheduled load still reads them in order).
 * What is already stored stays as it is, so running it twice changes nothing.
 */
export async function importarLote(uf: Uf, ultNSU: number, nsuFin: number, fluxo: Fluxo = 'nfe'): Promise<ResultadoLote> {
  const resposta = await consultarDistribuicao(uf, { ultNSU }, fluxo);
  const documentos = resposta.documentos.filter((d) => Number(d.nsu) > ultNSU && Number(d.nsu) <= nsuFin);
  const ingestao = await ingerir(uf, documentos, { moverCursor: false, fluxo });
  return { cStat: resposta.cStat, xMotivo: resposta.xMotivo, maxNSU: resposta.maxNSU, ingestao };
}
