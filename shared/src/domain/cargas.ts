/**
 * Rules of the Sefaz loads that the monitoring screens show and the loader records: the status text
 * of each distribution answer code, the stalled-load classes and the loaded share of an authority.
 */

/**
 * pt-BR status text per cStat. The first group is the platform's historical table of the loads screen;
 * the second the codes the NF-e distribution service (NFeDistribuicaoDFe) answers today; 998 and 999 are
 * ours: 998 a SOAP Fault (the web service refused the call; its text is the xMotivo), 999 a call that got
 * no valid answer (network, certificate, a body that is not a distribution answer).
 */
export const STATUS_SEFAZ: Readonly<Record<string, string>> = {
  '117': 'Nenhum registro encontrado para distribuição',
  '118': 'Registro encontrado para distribuição',
  '143': 'NSU final deve ser maior que o ultNSU',
  '146': 'NSU solicitado menor que o último disponível',
  '252': 'Ambiente informado diverge do ambiente de recebimento',
  '410': 'UF não atendida pelo Web Service',
  '415': 'CNPJ do transmissor não autorizado para a UF',
  '9501': 'UF não compartilha dados com a Sefaz Virtual',
  '137': 'Nenhum documento localizado para distribuição',
  '138': 'Documento(s) localizado(s) para distribuição',
  '215': 'Falha no schema XML da consulta',
  '656': 'Consumo indevido: aguardando para consultar novamente',
  '998': 'Chamada recusada pelo Web Service (SOAP Fault)',
  '999': 'Falha de comunicação com a Sefaz',
};

export function statusSefaz(cStat: string | null | undefined): string {
  if (!cStat) return 'Ainda não consultada';
  return STATUS_SEFAZ[cStat] ?? `Situação ${cStat}`;
}

/** Stalled-load classes, in hours since the authority's last update, largest first. */
export const CARGA_INTERROMPIDA_HORAS = [24, 12, 3] as const;
export type ClasseInterrupcao = (typeof CARGA_INTERROMPIDA_HORAS)[number];

/**
 * The class of a load whose last update was at `updatedAt`: over 24 hours, over 12, over 3, or null
 * (not stalled). Each authority is in one class only, the largest it passed.
 */
export function classeInterrupcao(updatedAt: string | null | undefined, now: Date = new Date()): ClasseInterrupcao | null {
  if (!updatedAt) return null;
  const at = Date.parse(updatedAt);
  if (Number.isNaN(at)) return null;
  const hours = (now.getTime() - at) / 3_600_000;
  return CARGA_INTERROMPIDA_HORAS.find((limit) => hours > limit) ?? null;
}

/**
 * Since when an authority's load has not moved. Caught up (ultNSU = nsuMax): since its newest document
 * was authorised, so a Sefaz that stopped publishing shows. Behind (ultNSU < nsuMax): since the platform
 * last asked it, so a backlog being loaded is not "stalled" while the loads run, and a load that stopped
 * running is.
 */
export function ultimaAtualizacao(resumo: { ultNSU: string; nsuMax: string; updatedAt?: string | null; consultadoEm?: string | null }): string | null {
  const atrasada = Number(resumo.ultNSU) < Number(resumo.nsuMax);
  return (atrasada ? resumo.consultadoEm : resumo.updatedAt) ?? null;
}

/** Share of the authority's documents already loaded, 0-100 with one decimal (100 when it has none). */
export function percentualCarregado(ultNSU: string | number, nsuMax: string | number): number {
  const loaded = Number(ultNSU);
  const max = Number(nsuMax);
  if (!Number.isFinite(loaded) || !Number.isFinite(max) || max <= 0) return 100;
  return Math.round((Math.min(loaded, max) / max) * 1000) / 10;
}

/**
 * The distribution streams of each Sefaz: goods (NF-e, NFeDistribuicaoDFe) and transport (CT-e,
 * CTeDistribuicaoDFe), each with its own NSU sequence, cursor, summary and history.
 */
export const FLUXOS = ['nfe', 'cte'] as const;
export type Fluxo = (typeof FLUXOS)[number];
export const FLUXO_LABELS: Readonly<Record<Fluxo, string>> = { nfe: 'Mercadorias (NF-e)', cte: 'Transporte (CT-e)' };

/** A distribution NSU as the services write it: 15 digits, zero-padded (throws on anything else). */
export function nsu15(nsu: string | number): string {
  const text = String(nsu).trim();
  if (!/^\d{1,15}$/.test(text)) throw new RangeError(`NSU must be up to 15 digits, got "${text}"`);
  return text.padStart(15, '0');
}

/** The batch import re-reads at most this many NSUs at once. */
export const LOTE_MAXIMO_NSU = 50;
/** The error-document search spans at most this many days. */
export const DOCUMENTOS_ERRO_MAXIMO_DIAS = 90;
