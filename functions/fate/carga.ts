import { isUf, UF_SIGLAS, type Fluxo, type Uf } from '@plac/shared/domain';
import { logger } from '../platform/observability';
import { consultarDistribuicao, SefazIndisponivel, type RespostaDistribuicao } from './distribuicao';
import { cursorDe, ingerir, registrarConsulta, type Ingestao, type IngestaoHooks } from './service';
import * as store from './store';

/**
 * The scheduled load of one Sefaz: ask for the documents after the UF's cursor, ingest them, and ask
 * again until the answer's ultNSU reaches its maxNSU (at most `maxChamadas` calls per run, so a long
 * backlog is spread over several runs instead of outliving the Lambda). A 656 (too many requests)
 * stops the UF's loads for an hour; a Sefaz that cannot be reached is recorded and tried next run.
 */

/** How long the platform waits after a 656 before asking that Sefaz again (the service asks for one hour). */
export const ESPERA_APOS_656_MS = 60 * 60_000;
const MAX_CHAMADAS_POR_CARGA = Number(process.env.PLAC_SEFAZ_MAX_CHAMADAS ?? 40);

/** The Sefaz the platform loads from: PLAC_SEFAZ_UFS (comma-separated siglas), all 27 when unset. */
export function sefazAtivas(): Uf[] {
  const configured = (process.env.PLAC_SEFAZ_UFS ?? '')
    .split(',')
    .map((s) => s.trim().toUpperCase())
    .filter(Boolean);
  if (configured.length === 0) return [...UF_SIGLAS];
  return UF_SIGLAS.filter((uf) => configured.includes(uf));
}

export type SituacaoCarga = 'carregada' | 'aguardando' | 'recusada' | 'indisponivel';

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
  options: { fluxo?: Fluxo; maxChamadas?: number; hooks?: Omit<IngestaoHooks, 'fluxo'>; agora?: () => Date } = {},
): Promise<ResultadoCarga> {
  if (!isUf(uf)) throw new RangeError(`unknown UF ${String(uf)}`);
  const fluxo = options.fluxo ?? 'nfe';
  const agora = options.agora ?? (() => new Date());
  const resultado: ResultadoCarga = {
    uf,
    fluxo,
    situacao: 'carregada',
    chamadas: 0,
    cStat: null,
    ultNSU: await cursorDe(uf, fluxo),
    maxNSU: null,
    fate: 0,
    eventos: 0,
    resumos: 0,
    erros: 0,
    ignorados: 0,
    repetidos: 0,
  };

  const resumo = await store.resumoProcessamentoDa(uf, fluxo);
  if (resumo?.aguardarAte && Date.parse(resumo.aguardarAte) > agora().getTime()) {
    return { ...resultado, situacao: 'aguardando', cStat: resumo.cStat };
  }

  const maxChamadas = options.maxChamadas ?? MAX_CHAMADAS_POR_CARGA;
  while (resultado.chamadas < maxChamadas) {
    let resposta: RespostaDistribuicao;
    resultado.chamadas += 1;
    try {
      resposta = await consultarDistribuicao(uf, { ultNSU: Number(resultado.ultNSU) }, fluxo);
    } catch (error) {
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
    await registrarConsulta(
      uf,
      { cStat: resposta.cStat, xMotivo: resposta.xMotivo, ultNSU: resposta.ultNSU, maxNSU: resposta.maxNSU },
      { publicadoEm: ingestao?.publicadoEm ?? null, agora: agora(), fluxo },
    );
    resultado.maxNSU = resposta.maxNSU;
    const proximo = await cursorDe(uf, fluxo);
    // Caught up, or an answer that did not move the cursor (it would be asked the same again).
    if (resposta.cStat === '137' || resposta.ultNSU >= resposta.maxNSU || proximo === resultado.ultNSU) {
      resultado.ultNSU = proximo;
      break;
    }
    resultado.ultNSU = proximo;
  }
  return resultado;
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
