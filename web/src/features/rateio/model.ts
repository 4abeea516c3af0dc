import type { rateio, ResponseOf } from '@plac/shared/contracts';
import { formatDate, formatMonth, type TipoBeneficiado } from '@plac/shared/domain';

/** Types and text helpers of the revenue-sharing screens. */

export type GrupoResumo = ResponseOf<typeof rateio.listGrupos>[number];
export type Grupo = ResponseOf<typeof rateio.getGrupo>;
export type Beneficiado = Grupo['beneficiados'][number];
export type Participante = ResponseOf<typeof rateio.listParticipantes>[number];
/** A beneficiary's account; `nomeBanco` (the bank's name, for display) comes with a saved one. */
export type Conta = { banco: string; agencia: string; dvAgencia: string; conta: string; dvConta: string; contaAtiva: boolean; nomeBanco?: string | null };

/** A beneficiary as the editor holds it (new ones have no idBeneficiado yet). */
export interface Linha {
  key: string;
  idBeneficiado: string | null;
  idParticipante: string | null;
  nomeParticipante: string;
  tipo: TipoBeneficiado;
  percentualRateio: number;
  vigenciaInicial: string | null;
  vigenciaFinal: string | null;
  convenioAtivo: boolean;
  conta: Conta | null;
}

/** 'MM/YYYY – MM/YYYY' (an open end: 'MM/YYYY – sem fim'). */
export function periodoMeses(inicio: string, fim: string | null): string {
  return `${formatMonth(inicio)} – ${fim ? formatMonth(fim) : 'sem fim'}`;
}

/** 'DD/MM/YYYY – DD/MM/YYYY' (an open end: '… – sem fim'). */
export function periodoDias(inicio: string | null, fim: string | null): string {
  if (!inicio) return '–';
  // A Sefaz added without an agreement (or deactivated before its start) ends the day before it starts
  // (functions/grupos-rateio/grupos.ts): it was never in force, which a reversed period would not say.
  if (fim && fim < inicio) return 'Sem vigência';
  return `${formatDate(inicio)} – ${fim ? formatDate(fim) : 'sem fim'}`;
}

/** The cooperation agreement in words: only a Sefaz has one (null: 'Não se aplica'). */
export function convenioTexto(convenioAtivo: boolean | null): string {
  if (convenioAtivo === null) return 'Não se aplica';
  return convenioAtivo ? 'Ativo' : 'Inativo';
}

/** 'YYYY-MM' → the Calendar's Date (local first day). */
export function mesParaData(mes: string | null): Date | null {
  if (!mes) return null;
  const [y, m] = mes.split('-').map(Number);
  return new Date(y!, m! - 1, 1);
}

export function linhaDe(b: Beneficiado): Linha {
  return {
    key: b.idBeneficiado,
    idBeneficiado: b.idBeneficiado,
    idParticipante: b.idParticipante,
    nomeParticipante: b.nomeParticipante,
    tipo: b.tipo,
    percentualRateio: b.percentualRateio,
    vigenciaInicial: b.vigenciaInicial,
    vigenciaFinal: b.vigenciaFinal,
    convenioAtivo: b.convenioAtivo ?? true,
    conta: b.conta ? { banco: b.conta.banco, agencia: b.conta.agencia, dvAgencia: b.conta.dvAgencia, conta: b.conta.conta, dvConta: b.conta.dvConta, contaAtiva: b.conta.contaAtiva, nomeBanco: b.conta.nomeBanco } : null,
  };
}

/** The payload item of a beneficiary (spec 3, 3.9 / 3.10). */
export function entradaDe(l: Linha, percentualSefaz: number) {
  return {
    idParticipante: l.idParticipante,
    nomeParticipante: l.nomeParticipante,
    percentualRateio: l.tipo === 'SEFAZ' ? percentualSefaz : l.percentualRateio,
    tipo: l.tipo,
    ...(l.tipo === 'SEFAZ' ? { convenioAtivo: l.convenioAtivo } : {}),
    conta: l.conta,
  };
}
