import {
  addDays,
  classeInterrupcao,
  daysBetween,
  isBusinessMonth,
  nsu15,
  nextMonth,
  percentualCarregado,
  statusSefaz,
  ultimaAtualizacao,
  UFS,
  type Fluxo,
  type Uf,
} from '@plac/shared/domain';
import type { Principal } from '@plac/shared/access';
import { forbidden, invalid } from '../platform/errors';
import { sefazAtivas } from './sefaz-ativas';
import { resumosProcessamento } from './carga-store';
import { historicoDaUf } from './historico-store';
import type { HistoricoProcessamentoRecord } from './store-entities';

/**
 * The loads as the monitoring screens show them: the active Sefaz, each one's processing summary with
 * the loaded share and its stalled class, and the history of what the loads stored per day or month.
 */

const ZERO = nsu15(0);

export function listaSefaz(): { cuf: number; sigla: string; nome: string }[] {
  const ativas = new Set<string>(sefazAtivas());
  return UFS.filter((u) => ativas.has(u.uf)).map((u) => ({ cuf: u.codigo, sigla: u.uf, nome: u.nome }));
}

export async function monitoramento(fluxo: Fluxo = 'nfe', agora: Date = new Date()) {
  const sefaz = listaSefaz();
  const porUf = new Map((await resumosProcessamento(fluxo)).map((r) => [r.uf, r]));
  const resumo = sefaz.map(({ cuf, sigla }) => {
    const r = porUf.get(sigla);
    const ultNSU = r?.ultNSU ?? ZERO;
    const nsuMax = r?.nsuMax ?? ZERO;
    return {
      cuf,
      sigla,
      updatedAt: r?.updatedAt ?? null,
      consultadoEm: r?.consultadoEm ?? null,
      cStat: r?.cStat ?? null,
      status: statusSefaz(r?.cStat),
      ultNSU,
      nsuMax,
      carregado: percentualCarregado(ultNSU, nsuMax),
      aguardarAte: r?.aguardarAte && Date.parse(r.aguardarAte) > agora.getTime() ? r.aguardarAte : null,
    };
  });
  const interrompidas = { mais24h: [] as string[], mais12h: [] as string[], mais3h: [] as string[] };
  for (const r of resumo) {
    const classe = classeInterrupcao(ultimaAtualizacao(r), agora);
    if (classe === 24) interrompidas.mais24h.push(r.sigla);
    if (classe === 12) interrompidas.mais12h.push(r.sigla);
    if (classe === 3) interrompidas.mais3h.push(r.sigla);
  }
  return { resumo, sefaz, interrompidas, agora: agora.toISOString() };
}

export type TipoMonitoramento = 'documentos' | 'eventos';

/** The events' monitoring is the administrator's only; the documents' is also the monitoring clients'. */
export function tipoPermitido(tipo: TipoMonitoramento, principal: Principal): TipoMonitoramento {
  if (tipo === 'eventos' && !principal.roles.includes('sefaz_admin')) throw forbidden();
  return tipo;
}

/** Days from `de` to `ate` inclusive, 'YYYY-MM-DD'. */
function dias(de: string, ate: string): string[] {
  return Array.from({ length: daysBetween(de, ate) + 1 }, (_, i) => addDays(de, i));
}

function lastDayOf(month: string): string {
  return addDays(`${nextMonth(month)}-01`, -1);
}

/**
 * The history between two days, per active Sefaz, at each point of `pontos` ('YYYY-MM-DD' days or
 * 'YYYY-MM' months: a day counts in the point it starts with). One key query per Sefaz.
 */
async function historico(de: string, ate: string, pontos: string[], tipo: TipoMonitoramento, fluxo: Fluxo) {
  const sefaz = listaSefaz();
  const indice = new Map(pontos.map((p, i) => [p, i]));
  const porSefaz = await Promise.all(sefaz.map(async ({ sigla }) => ({ sigla, dias: await historicoDaUf(sigla as Uf, de, ate, fluxo) })));
  // Each day's record adds to the point it falls in: loaded documents to `serie`, errors to `serie_erro`.
  const somar = (registros: HistoricoProcessamentoRecord[], valor: (r: HistoricoProcessamentoRecord) => number) => {
    const valores = pontos.map(() => 0);
    for (const r of registros) {
      const i = indice.get(r.dia) ?? indice.get(r.dia.slice(0, 7));
      if (i !== undefined) valores[i]! += valor(r);
    }
    return valores;
  };
  const carregados = (r: HistoricoProcessamentoRecord) => (tipo === 'eventos' ? (r.eventos ?? 0) : (r.fate ?? 0) + (r.resumos ?? 0));
  const serie = porSefaz.map(({ sigla, dias: registros }) => ({ sigla, valores: somar(registros, carregados) }));
  const serie_erro = porSefaz.map(({ sigla, dias: registros }) => ({ sigla, valores: somar(registros, (r) => r.erros ?? 0) }));
  return { dias: pontos, serie, serie_erro, sefaz };
}

export function historicoMes(mes: string, tipo: TipoMonitoramento, fluxo: Fluxo = 'nfe') {
  const de = `${mes}-01`;
  const ate = lastDayOf(mes);
  return historico(de, ate, dias(de, ate), tipo, fluxo);
}

/** Months from `a` to `b` (YYYY-MM), at most 24. */
export function historicoPeriodo(a: string, b: string, tipo: TipoMonitoramento, fluxo: Fluxo = 'nfe') {
  if (!isBusinessMonth(a) || !isBusinessMonth(b)) throw invalid('dataInvalida');
  if (a > b) throw invalid('dataInicioMaiorDataFim');
  const meses = [a];
  while (meses.at(-1)! < b) meses.push(nextMonth(meses.at(-1)!));
  if (meses.length > 24) throw invalid('campoInvalido', { field: 'período (no máximo 24 meses)' });
  return historico(`${a}-01`, lastDayOf(b), meses, tipo, fluxo);
}

/** Days from `a` to `b` (YYYY-MM-DD), at most 90 days apart. */
export function historicoDia(a: string, b: string, tipo: TipoMonitoramento, fluxo: Fluxo = 'nfe') {
  const span = daysBetween(a, b);
  if (span < 0) throw invalid('dataInicioMaiorDataFim');
  if (span > 90) throw invalid('faixaDataInvalida');
  return historico(a, b, dias(a, b), tipo, fluxo);
}
