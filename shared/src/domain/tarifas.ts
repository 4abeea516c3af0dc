import { asCentavos, multiplyMilesimos, sumCentavos, type Centavos, type Milesimos } from './money';

/**
 * Usage bands and tariffs (spec 3, sections 3.1-3.5, 4.1 and 5.1) and the price rule that billing, the
 * projected bill and the invoice detail apply (docs/tarifas.md, with a worked example).
 *
 * A tariff version (tarifação) is a band group (faixas: contiguous request ranges 'Faixa N' starting
 * at 1) with a tariff group (a unit value per service and band, in thousandths of a real, and the
 * minimum subscription in centavos), in force for a range of business months.
 */

/** The first band's minimum (spec 3, 9). */
export const PRIMEIRA_FAIXA_MINIMA = 1;
/** At most this many bands in a group (ours: the grid must fit a screen). */
export const MAX_FAIXAS = 20;
/** Group names (spec 3, 9). */
export const MAX_NOME_GRUPO = 100;
/** The subscription typed as currency has at most 14 characters: '999.999.999,99'. */
export const MAX_ASSINATURA_CENTAVOS = 99_999_999_999;
/** A unit value of at most R$ 999.999,999 (ours). */
export const MAX_VALOR_MILESIMOS = 999_999_999;
/** A band's quantities stay below this (ours: far beyond any month of requests). */
export const MAX_QUANTIDADE_FAIXA = 999_999_999_999;

/** The kinds of a tariff version as of a month (spec 3, 4.1). */
export const TIPOS_VERSAO = ['VIGENTE', 'ELABORACAO', 'HISTORICO'] as const;
export type TipoVersao = (typeof TIPOS_VERSAO)[number];

/** A version's kind in `mes`: in force, starting in the future (a draft) or past. */
export function tipoVersao(inicio: string, fim: string | null | undefined, mes: string): TipoVersao {
  if (inicio > mes) return 'ELABORACAO';
  if (fim && fim < mes) return 'HISTORICO';
  return 'VIGENTE';
}

export interface FaixaIntervalo {
  qtdMinima: number;
  /** null: open-ended (only the last band). */
  qtdMaxima: number | null;
}

/** 'Faixa 1', 'Faixa 2', … (spec 3, 2.2: names are generated). */
export const nomeFaixa = (posicao: number) => `Faixa ${posicao}`;

/** The header text of a band's column: 'min - max' ('1001 - ' when open-ended). */
export function intervaloFaixa(f: FaixaIntervalo): string {
  return `${f.qtdMinima} - ${f.qtdMaxima ?? ''}`.trimEnd();
}

/** Why a band grid is refused, as a catalogue key (with the band's position, 1-based), or null. */
export type ErroFaixas =
  | { erro: 'faixaMinimaObrigatoria' }
  | { erro: 'faixasDemais' }
  | { erro: 'faixaMaximaInvalida'; posicao: number }
  | { erro: 'faixaSequenciaInvalida'; posicao: number }
  | { erro: 'faixaAbertaSomenteUltima'; posicao: number };

/**
 * The band grid's rule (spec 3, 5.1): at least one band; the first minimum is 1; each next minimum
 * is the previous maximum plus 1; each maximum exceeds its minimum; only the last may be open-ended.
 * So the bands cover 1..last without gap or overlap, and only the last can have been removed.
 */
export function validarFaixas(faixas: readonly FaixaIntervalo[]): ErroFaixas | null {
  if (faixas.length === 0) return { erro: 'faixaMinimaObrigatoria' };
  if (faixas.length > MAX_FAIXAS) return { erro: 'faixasDemais' };
  for (const [index, f] of faixas.entries()) {
    const posicao = index + 1;
    const esperado = index === 0 ? PRIMEIRA_FAIXA_MINIMA : (faixas[index - 1]!.qtdMaxima ?? Number.NaN) + 1;
    if (f.qtdMaxima === null && index < faixas.length - 1) return { erro: 'faixaAbertaSomenteUltima', posicao };
    if (f.qtdMinima !== esperado) return { erro: 'faixaSequenciaInvalida', posicao };
    if (f.qtdMaxima !== null && f.qtdMaxima <= f.qtdMinima) return { erro: 'faixaMaximaInvalida', posicao };
  }
  return null;
}

// ---- the price rule ------------------------------------------------------------------------------

export interface FaixaPreco extends FaixaIntervalo {
  faixaId: string;
}

/** What the rule needs of the version in force in the month. */
export interface TabelaPreco {
  /** Ordered, contiguous from 1 (validarFaixas). */
  faixas: readonly FaixaPreco[];
  /** The promotional band, if the group names one. */
  faixaPromocionalId: string | null;
  /** The minimum subscription. */
  assinatura: Centavos;
  /** Unit value per service id and band id; a missing value is 0. */
  valores: ReadonlyMap<number, ReadonlyMap<string, Milesimos>>;
}

/** A client's requests of one service from one origin UF in the month. */
export interface ConsumoPreco {
  servId: number;
  uf: string;
  quantidade: number;
}

export interface LinhaPreco extends ConsumoPreco {
  /** The band of the service's total in the month (null when the service had no request). */
  faixaId: string | null;
  /** Whether that band is the group's promotional band. */
  promocional: boolean;
  valorUnitario: Milesimos;
  /** quantidade × valorUnitario, rounded half-up to centavos. */
  valor: Centavos;
}

export interface Preco {
  linhas: LinhaPreco[];
  /** Sum of the lines. */
  valorServicos: Centavos;
  /** What the minimum subscription adds: assinatura − valorServicos when positive, else 0. */
  valorAssinatura: Centavos;
  /** valorServicos + valorAssinatura. */
  total: Centavos;
}

/**
 * The band holding `quantidade`: the one with min ≤ q ≤ max (or open-ended). A quantity beyond a capped
 * last band is priced in the last band; 0 requests fall in no band.
 */
export function faixaDaQuantidade<F extends FaixaIntervalo>(faixas: readonly F[], quantidade: number): F | null {
  if (quantidade < PRIMEIRA_FAIXA_MINIMA || faixas.length === 0) return null;
  return faixas.find((f) => quantidade >= f.qtdMinima && (f.qtdMaxima === null || quantidade <= f.qtdMaxima)) ?? faixas.at(-1)!;
}

/**
 * The price of a client's month (volume pricing). For each service, the band is the one holding the
 * client's total requests of that service in the month, all UFs together; every request of that
 * service is priced at that band's unit value; each (service, UF) line is quantity × unit value
 * rounded half-up to centavos; the services total is the sum of the lines; the minimum subscription
 * tops the total up to itself when the services total is lower (valorAssinatura). Pure: no I/O, no
 * clock, no floats; lines in the order given.
 */
export function precificar(tabela: TabelaPreco, consumo: readonly ConsumoPreco[]): Preco {
  if (!(tabela.assinatura >= 0)) throw new RangeError(`subscription must be ≥ 0, got ${tabela.assinatura}`);
  for (const porFaixa of tabela.valores.values()) {
    for (const valor of porFaixa.values()) if (!(valor >= 0)) throw new RangeError(`unit value must be ≥ 0, got ${valor}`);
  }
  const totalPorServico = new Map<number, number>();
  for (const c of consumo) {
    if (!Number.isSafeInteger(c.quantidade) || c.quantidade < 0) throw new RangeError(`quantity must be a whole number ≥ 0, got ${c.quantidade}`);
    totalPorServico.set(c.servId, (totalPorServico.get(c.servId) ?? 0) + c.quantidade);
  }
  const linhas = consumo.map((c): LinhaPreco => {
    const faixa = faixaDaQuantidade(tabela.faixas, totalPorServico.get(c.servId)!);
    const valorUnitario = (faixa && tabela.valores.get(c.servId)?.get(faixa.faixaId)) || (0 as Milesimos);
    return {
      ...c,
      faixaId: faixa?.faixaId ?? null,
      promocional: faixa !== null && faixa.faixaId === tabela.faixaPromocionalId,
      valorUnitario,
      valor: multiplyMilesimos(c.quantidade, valorUnitario),
    };
  });
  const valorServicos = sumCentavos(linhas.map((l) => l.valor));
  const valorAssinatura = asCentavos(Math.max(0, tabela.assinatura - valorServicos));
  return { linhas, valorServicos, valorAssinatura, total: sumCentavos([valorServicos, valorAssinatura]) };
}
