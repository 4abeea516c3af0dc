import { asCentavos, type Centavos } from './money';

/**
 * Revenue sharing (rateio) arithmetic (docs/repasse.md). Pure: no I/O, no clock, no floats.
 *
 * `ratear(valor, pesos)` splits an amount of centavos among shares proportional to integer weights
 * (the beneficiaries' percentages) by the largest-remainder rule (Hamilton's method):
 * 1. each share gets floor(valor × peso / Σpesos);
 * 2. the centavos left over (fewer than the number of shares with a fractional part) go one each to
 *    the shares with the largest fractional parts, ties to the earlier share.
 * So the shares are whole, never negative, add up to `valor` exactly, and each differs from its exact
 * proportional value by less than one centavo.
 */
export function ratear(valor: Centavos, pesos: readonly number[]): Centavos[] {
  if (!Number.isSafeInteger(valor) || valor < 0) throw new RangeError(`valor must be a non-negative integer, got ${valor}`);
  if (pesos.length === 0) throw new RangeError('at least one weight');
  for (const p of pesos) if (!Number.isSafeInteger(p) || p < 0) throw new RangeError(`weights must be non-negative integers, got ${p}`);
  const total = pesos.reduce((s, p) => s + BigInt(p), 0n);
  if (total === 0n) throw new RangeError('weights must not all be zero');
  const v = BigInt(valor);
  const partes = pesos.map((p, i) => {
    const produto = v * BigInt(p);
    return { i, base: produto / total, resto: produto % total };
  });
  let sobra = v - partes.reduce((s, x) => s + x.base, 0n);
  const ordem = [...partes].sort((a, b) => (a.resto === b.resto ? a.i - b.i : a.resto > b.resto ? -1 : 1));
  const extra = new Set<number>();
  for (const x of ordem) {
    if (sobra === 0n) break;
    extra.add(x.i);
    sobra -= 1n;
  }
  return partes.map((x) => asCentavos(Number(x.base + (extra.has(x.i) ? 1n : 0n))));
}

// ---- sharing groups (spec 3, 3.6-3.10, 4.2, 5.2) -----------------------------------------------------

/** Beneficiary types (spec 3, 3.7: 0 SEFAZ, 1 Participante, 2 Resíduo Distribuição). */
export const TIPOS_BENEFICIADO = ['SEFAZ', 'PARTICIPANTE', 'RESIDUO'] as const;
export type TipoBeneficiado = (typeof TIPOS_BENEFICIADO)[number];
export const TIPO_BENEFICIADO_LABEL: Record<TipoBeneficiado, string> = {
  SEFAZ: 'SEFAZ',
  PARTICIPANTE: 'Participante',
  RESIDUO: 'Resíduo Distribuição',
};
export const TIPO_BENEFICIADO_CODIGO: Record<TipoBeneficiado, 0 | 1 | 2> = { SEFAZ: 0, PARTICIPANTE: 1, RESIDUO: 2 };

/** Kinds of a sharing group in a month (spec 3, 4.2): in force, a draft (starts later), deactivated. */
export const SITUACOES_GRUPO_RATEIO = ['VIGENTE', 'ELABORACAO', 'DESATIVADO'] as const;
export type SituacaoGrupoRateio = (typeof SITUACOES_GRUPO_RATEIO)[number];
export const SITUACAO_GRUPO_RATEIO_LABEL: Record<SituacaoGrupoRateio, string> = {
  VIGENTE: 'Vigente',
  ELABORACAO: 'Em elaboração',
  DESATIVADO: 'Desativado',
};

export function situacaoGrupoRateio(inicio: string, fim: string | null | undefined, mes: string): SituacaoGrupoRateio {
  if (inicio > mes) return 'ELABORACAO';
  if (fim && fim < mes) return 'DESATIVADO';
  return 'VIGENTE';
}

export const MAX_NOME_GRUPO_RATEIO = 100;
export const PERCENTUAL_MIN = 1;
export const PERCENTUAL_MAX = 100;

/**
 * A percentage field (spec 3, 5.2): below 1 becomes 1 and above 100 becomes 100, each with its error.
 * Answers the value to keep and the message key, if any.
 */
export function ajustarPercentual(valor: number | null | undefined): { valor: number; erro: 'percentualMenorUm' | 'percentualMaiorCem' | null } {
  if (valor === null || valor === undefined || Number.isNaN(valor) || valor < PERCENTUAL_MIN) return { valor: PERCENTUAL_MIN, erro: 'percentualMenorUm' };
  if (valor > PERCENTUAL_MAX) return { valor: PERCENTUAL_MAX, erro: 'percentualMaiorCem' };
  return { valor: Math.trunc(valor), erro: null };
}

export interface BeneficiadoRegra {
  tipo: TipoBeneficiado;
  /** The participant's id; null for a new participant (then nomeParticipante is its name). */
  idParticipante: string | null;
  nomeParticipante: string;
  /** Non-SEFAZ beneficiaries' own percentage; SEFAZ beneficiaries share the group's SEFAZ percentage. */
  percentualRateio: number;
  /** SEFAZ beneficiaries: whether the cooperation agreement is active. */
  convenioAtivo: boolean;
}

export type ErroGrupoRateio =
  | { erro: 'campoObrigatorio'; field: 'Nome do Grupo' }
  | {
      erro:
        | 'residuoObrigatorio'
        | 'residuoUnico'
        | 'percentualNaoTotaliza'
        | 'percentualInvalido'
        | 'minimoSefaz'
        | 'minimoSefazAtivo'
        | 'participanteExistente'
        | 'participanteNomeObrigatorio';
    };

/**
 * The checks of a group save (spec 3, 5.2), the first failing one: a name (≤ 100 after trim); each
 * percentage 1-100; a Resíduo Distribuição beneficiary (exactly one); at least one SEFAZ beneficiary,
 * one of them with an active agreement; no participant twice; the SEFAZ percentage plus the other
 * beneficiaries' percentages summing to exactly 100. The same function checks on the screen and on
 * the server.
 */
export function validarGrupoRateio(descricao: string, percentualSefaz: number, beneficiados: readonly BeneficiadoRegra[]): ErroGrupoRateio | null {
  const nome = descricao.trim();
  if (!nome || nome.length > MAX_NOME_GRUPO_RATEIO) return { erro: 'campoObrigatorio', field: 'Nome do Grupo' };
  const ok = (p: number) => Number.isInteger(p) && p >= PERCENTUAL_MIN && p <= PERCENTUAL_MAX;
  if (!ok(percentualSefaz)) return { erro: 'percentualInvalido' };
  for (const b of beneficiados) {
    if (b.tipo !== 'SEFAZ' && !ok(b.percentualRateio)) return { erro: 'percentualInvalido' };
    if (!b.idParticipante && !b.nomeParticipante.trim()) return { erro: 'participanteNomeObrigatorio' };
  }
  const residuos = beneficiados.filter((b) => b.tipo === 'RESIDUO').length;
  if (residuos === 0) return { erro: 'residuoObrigatorio' };
  if (residuos > 1) return { erro: 'residuoUnico' };
  const sefaz = beneficiados.filter((b) => b.tipo === 'SEFAZ');
  if (sefaz.length === 0) return { erro: 'minimoSefaz' };
  if (!sefaz.some((b) => b.convenioAtivo)) return { erro: 'minimoSefazAtivo' };
  const chaves = beneficiados.map((b) => b.idParticipante ?? `novo:${foldNome(b.nomeParticipante)}`);
  if (new Set(chaves).size !== chaves.length) return { erro: 'participanteExistente' };
  if (somaPercentuais(percentualSefaz, beneficiados) !== 100) return { erro: 'percentualNaoTotaliza' };
  return null;
}

const foldNome = (s: string) => s.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase().trim();

/** The SEFAZ percentage (once, however many SEFAZ beneficiaries) plus every other beneficiary's. */
export function somaPercentuais(percentualSefaz: number, beneficiados: readonly Pick<BeneficiadoRegra, 'tipo' | 'percentualRateio'>[]): number {
  return percentualSefaz + beneficiados.filter((b) => b.tipo !== 'SEFAZ').reduce((s, b) => s + b.percentualRateio, 0);
}

/** Removing beneficiary `i` (spec 3, 5.2): refused when no SEFAZ beneficiary would be left. */
export function podeRemover(beneficiados: readonly Pick<BeneficiadoRegra, 'tipo'>[], i: number): boolean {
  return beneficiados.some((b, j) => j !== i && b.tipo === 'SEFAZ');
}

/** Deactivating beneficiary `i`'s agreement: refused when no SEFAZ beneficiary with an active agreement would be left. */
export function podeDesativarConvenio(beneficiados: readonly Pick<BeneficiadoRegra, 'tipo' | 'convenioAtivo'>[], i: number): boolean {
  return beneficiados.some((b, j) => j !== i && b.tipo === 'SEFAZ' && b.convenioAtivo);
}

/** The types offered when adding a beneficiary (spec 3, 4.2): Resíduo only while none exists; SEFAZ only for existing Sefaz participants. */
export function tiposOferecidos(beneficiados: readonly Pick<BeneficiadoRegra, 'tipo'>[]): TipoBeneficiado[] {
  const temResiduo = beneficiados.some((b) => b.tipo === 'RESIDUO');
  return TIPOS_BENEFICIADO.filter((t) => t !== 'RESIDUO' || !temResiduo);
}

/** Agency check digit (spec 3, 5.2): exactly one character (a digit or X); two or more are refused. */
export function dvValido(dv: string): boolean {
  return /^[0-9Xx]$/.test(dv.trim());
}

// ---- the repasse (docs/repasse.md) ------------------------------------------------------------------

export interface FaturaRepasse {
  faturaId: string;
  cnpj: string;
  razaoSocial: string;
  valorTotal: number;
  /** The invoice's lines: value (centavos) per origin UF. */
  itens: readonly { uf: string; valor: number }[];
}

export interface BeneficiadoRepasse {
  beneficiadoId: string;
  nome: string;
  tipo: TipoBeneficiado;
  /** A SEFAZ beneficiary's UF. */
  uf: string | null;
  /** The group's SEFAZ percentage for SEFAZ beneficiaries; the own one for the others. */
  percentual: number;
  /** A SEFAZ beneficiary's agreement in the month (the others: always true). */
  ativoNoMes: boolean;
}

export interface LinhaRepasse {
  faturaId: string;
  cnpj: string;
  razaoSocial: string;
  /** Origin UF; '' for an invoice without lines (the subscription alone). */
  uf: string;
  /** The invoice's amount attributed to this UF (centavos). */
  valorUf: number;
  beneficiadoId: string;
  nome: string;
  tipo: TipoBeneficiado;
  /** Centavos. */
  valor: number;
}

/**
 * An invoice's origin UFs and the weight by which an amount of it (its total, its subscription, its
 * surcharge) is attributed to each (issue 37 item 3: the one rule of the Pagamento de Serviços screen,
 * the repasse CSVs and the transfer orders): the UFs of its lines, sorted, weighted by the lines' values;
 * when every line is worth zero (free look-ups), evenly; an invoice without lines has none.
 */
export function pesosPorUf(itens: readonly { uf: string; valor: number }[]): { ufs: string[]; pesos: number[] } {
  const porUf = new Map<string, number>();
  for (const i of itens) porUf.set(i.uf, (porUf.get(i.uf) ?? 0) + i.valor);
  const ufs = [...porUf.keys()].sort();
  const pesos = ufs.map((uf) => porUf.get(uf)!);
  return { ufs, pesos: pesos.some((p) => p > 0) ? pesos : ufs.map(() => 1) };
}

/** `valor` attributed to the invoice's origin UFs by pesosPorUf; all of it under UF '' when it has no lines. */
export function partesPorUf(valor: number, itens: readonly { uf: string; valor: number }[]): { uf: string; valor: number }[] {
  const { ufs, pesos } = pesosPorUf(itens);
  if (ufs.length === 0) return [{ uf: '', valor }];
  const partes = ratear(asCentavos(valor), pesos);
  return ufs.map((uf, k) => ({ uf, valor: partes[k]! }));
}

/**
 * The repasse of a month's paid invoices under the group in force (pure; integer centavos only):
 * 1. each invoice's total is attributed to its origin UFs by `partesPorUf` (the subscription top-up
 *    follows the lines; lines all worth zero share it evenly; an invoice without lines has one part
 *    with UF ''); a UF whose part is zero has nothing to share;
 * 2. each UF's part is split by `ratear` among [the SEFAZ percentage, each Participante's, the
 *    Resíduo's]: the SEFAZ share goes to that UF's SEFAZ beneficiary when its agreement is active in
 *    the month, else to the Resíduo Distribuição beneficiary (UFs without an agreement).
 * The shares of each part add up to the part and the parts to the invoice's total, exactly.
 */
export function calcularRepasse(faturas: readonly FaturaRepasse[], percentualSefaz: number, beneficiados: readonly BeneficiadoRepasse[]): LinhaRepasse[] {
  const outros = beneficiados.filter((b) => b.tipo !== 'SEFAZ');
  const linhas: LinhaRepasse[] = [];
  for (const f of faturas) {
    for (const { uf, valorUf, sefaz, resto } of partesDoRepasse(f, percentualSefaz, beneficiados)) {
      const destinoSefaz = destinoDaParteSefaz(uf, beneficiados);
      const base = { faturaId: f.faturaId, cnpj: f.cnpj, razaoSocial: f.razaoSocial, uf, valorUf };
      linhas.push({ ...base, beneficiadoId: destinoSefaz.beneficiadoId, nome: destinoSefaz.nome, tipo: destinoSefaz.tipo, valor: sefaz });
      outros.forEach((b, j) => linhas.push({ ...base, beneficiadoId: b.beneficiadoId, nome: b.nome, tipo: b.tipo, valor: resto[j]! }));
    }
  }
  return linhas;
}

/**
 * Steps 1 and 2 of `calcularRepasse` without choosing who gets the SEFAZ percentage: each origin UF's
 * part of the invoice (none when zero) split into the SEFAZ share (`sefaz`) and each non-SEFAZ
 * beneficiary's (`resto`, in the group's order). The split depends only on the percentages, which never
 * change once a group has been in force; who receives the SEFAZ share depends on the UF's agreement in
 * the month (`destinoDaParteSefaz`), which can, so the Pagamento de Serviços counters keep the SEFAZ share
 * by UF and decide its beneficiary when read.
 */
export function partesDoRepasse(f: FaturaRepasse, percentualSefaz: number, beneficiados: readonly BeneficiadoRepasse[]): { uf: string; valorUf: number; sefaz: number; resto: number[] }[] {
  const pesos = [percentualSefaz, ...beneficiados.filter((b) => b.tipo !== 'SEFAZ').map((b) => b.percentual)];
  return partesPorUf(f.valorTotal, f.itens)
    .filter(({ valor }) => valor !== 0)
    .map(({ uf, valor: valorUf }) => {
      const [sefaz, ...resto] = ratear(asCentavos(valorUf), pesos);
      return { uf, valorUf, sefaz: sefaz!, resto };
    });
}

/** Who receives a UF's SEFAZ share: that UF's SEFAZ beneficiary when its agreement is active in the month, else the Resíduo Distribuição. */
export function destinoDaParteSefaz(uf: string, beneficiados: readonly BeneficiadoRepasse[]): BeneficiadoRepasse {
  const residuo = beneficiados.find((b) => b.tipo === 'RESIDUO');
  if (!residuo) throw new Error('a sharing group without a Resíduo Distribuição beneficiary');
  return beneficiados.find((b) => b.tipo === 'SEFAZ' && b.uf === uf && b.ativoNoMes) ?? residuo;
}

/** The transfer orders: the lines added up per beneficiary (centavos), beneficiaries in the group's order. */
export function ordensDeTransferencia(linhas: readonly LinhaRepasse[], beneficiados: readonly BeneficiadoRepasse[]): { beneficiadoId: string; nome: string; valor: number }[] {
  const total = new Map<string, number>();
  for (const l of linhas) total.set(l.beneficiadoId, (total.get(l.beneficiadoId) ?? 0) + l.valor);
  return beneficiados.filter((b) => (total.get(b.beneficiadoId) ?? 0) > 0).map((b) => ({ beneficiadoId: b.beneficiadoId, nome: b.nome, valor: total.get(b.beneficiadoId)! }));
}
