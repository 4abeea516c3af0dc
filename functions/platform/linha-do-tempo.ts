import { nextMonth, porCodigo } from '@plac/shared/domain';
import type { MessageKey } from '@plac/shared/messages';
import { conflict, invalid } from './errors';

/**
 * The versioned monthly timeline that tariffs (functions/tarifas) and revenue-sharing groups
 * (functions/rateio) both keep: versions by start month, each starting the month after the one before
 * ends, only the last open; what has been in force never rewritten; at most one version still to come.
 * A change is planned on a fresh read, checked here and written on the condition that the timeline did
 * not move; when another change won the race it is read, planned and checked again, at most
 * TENTATIVAS times. Each context names its versions and its catalogue's answers (`Regras`).
 */
export interface Versao {
  /** 'YYYY-MM', the first month in force. */
  inicio: string;
  /** 'YYYY-MM', the last month in force; absent or null: open. */
  fim?: string | null | undefined;
}

export interface Regras<V extends Versao> {
  id: (v: V) => string;
  /** What else a version that has been in force keeps (the tariffs' band group); its start it keeps always. */
  mesmaBase?: (antes: V, depois: V) => boolean;
  erros: {
    /** A gap, an overlap, or an end before the start (400). */
    vigencia: MessageKey;
    /** A version of the past, or the current one's start, changed (400). */
    imutavel: MessageKey;
    /** The current version ended before this month (400). */
    fimDaVigente: MessageKey;
    /** A second version to come (409). */
    emElaboracao: MessageKey;
    /** Another change kept winning the race (409). */
    alterada: MessageKey;
  };
}

/** Where a version stands in `mes`: past, in force, or to come. */
export function faseDe(v: Versao, mes: string): 'PASSADA' | 'VIGENTE' | 'FUTURA' {
  if (v.inicio > mes) return 'FUTURA';
  if (v.fim && v.fim < mes) return 'PASSADA';
  return 'VIGENTE';
}

/** No gap, no overlap: in start order, each version starts the month after the one before ends; only the last is open. */
export function conferirContiguidade<V extends Versao>(depois: readonly V[], vigencia: MessageKey): V[] {
  const versoes = [...depois].sort((a, b) => porCodigo(a.inicio, b.inicio));
  versoes.forEach((v, i) => {
    const proxima = versoes[i + 1];
    if (v.fim && v.fim < v.inicio) throw invalid(vigencia);
    if (proxima && (!v.fim || nextMonth(v.fim) !== proxima.inicio)) throw invalid(vigencia);
  });
  return versoes;
}

/** The planned timeline, in start order, if the rules hold; the catalogue's answer of the first rule broken otherwise. */
export function conferirLinhaDoTempo<V extends Versao>(antes: readonly V[], depois: readonly V[], mes: string, regras: Regras<V>): V[] {
  const versoes = conferirContiguidade(depois, regras.erros.vigencia);
  for (const v of antes.filter((x) => x.inicio <= mes)) {
    const novo = versoes.find((x) => regras.id(x) === regras.id(v));
    const fase = faseDe(v, mes);
    if (!novo || novo.inicio !== v.inicio || (regras.mesmaBase && !regras.mesmaBase(v, novo))) throw invalid(regras.erros.imutavel);
    if (fase === 'PASSADA' && novo.fim !== v.fim) throw invalid(regras.erros.imutavel);
    if (fase === 'VIGENTE' && novo.fim && novo.fim < mes) throw invalid(regras.erros.fimDaVigente);
  }
  if (versoes.filter((v) => faseDe(v, mes) === 'FUTURA').length > 1) throw conflict(regras.erros.emElaboracao);
  return versoes;
}

export const TENTATIVAS = 4;

/** Runs `tentar` (read, plan, check, conditional write: true when written) until it writes, at most TENTATIVAS times. */
export async function mudarComReleitura(tentar: () => Promise<boolean>, alterada: MessageKey): Promise<void> {
  for (let tentativa = 1; tentativa <= TENTATIVAS; tentativa++) {
    if (await tentar()) return;
  }
  throw conflict(alterada);
}
