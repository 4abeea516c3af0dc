import { daysBetween, proximoDiaUtil, UF_EMISSORA_DAE, type Uf } from '@plac/shared/domain';

/**
 * The late-payment surcharge (valorAcrescimo) a DAE paid after its due date owes, as state tax
 * administrations charge it: a late fee (multa de mora) per day late, capped, plus interest (juros de
 * mora) per month or part of a month late. The rates are configuration (docs/faturamento.md, "Payments"):
 *   DAE_MULTA_DIARIA_PERCENTUAL   late fee per day late, % of the value (default 0.33)
 *   DAE_MULTA_MAXIMA_PERCENTUAL   the late fee's cap, % of the value (default 20)
 *   DAE_JUROS_MENSAIS_PERCENTUAL  interest per month or part of a month late, % of the value (default 1)
 */

export interface Taxas {
  multaDiaria: number;
  multaMaxima: number;
  jurosMensais: number;
}

export const TAXAS_PADRAO: Taxas = { multaDiaria: 0.33, multaMaxima: 20, jurosMensais: 1 };

function taxa(nome: string, padrao: number): number {
  const texto = process.env[nome];
  if (texto === undefined || texto === '') return padrao;
  const valor = Number(texto);
  if (!Number.isFinite(valor) || valor < 0 || valor > 100) throw new Error(`${nome} must be a percentage between 0 and 100`);
  return valor;
}

export function taxasConfiguradas(): Taxas {
  return {
    multaDiaria: taxa('DAE_MULTA_DIARIA_PERCENTUAL', TAXAS_PADRAO.multaDiaria),
    multaMaxima: taxa('DAE_MULTA_MAXIMA_PERCENTUAL', TAXAS_PADRAO.multaMaxima),
    jurosMensais: taxa('DAE_JUROS_MENSAIS_PERCENTUAL', TAXAS_PADRAO.jurosMensais),
  };
}

/**
 * Centavos owed on top of `valor` when paid on `dataPagamento` for a due date `dtVencimento` (both
 * 'YYYY-MM-DD'). A due date on a non-business day of the issuing state is payable on the next business
 * day without surcharge (CTN art. 210, sole paragraph; shared/src/domain/feriados.ts): so nothing is
 * owed on or before that effective due date; after it, the days late count from it, and the surcharge
 * is min(days × daily fee, cap) + months started × monthly interest, each rounded half-up to centavos.
 */
export function acrescimoDevido(valor: number, dtVencimento: string, dataPagamento: string, taxas: Taxas = TAXAS_PADRAO, uf: Uf = UF_EMISSORA_DAE): number {
  const dias = daysBetween(proximoDiaUtil(dtVencimento, uf), dataPagamento);
  if (dias <= 0) return 0;
  const multa = Math.round((valor * Math.min(dias * taxas.multaDiaria, taxas.multaMaxima)) / 100);
  const meses = Math.ceil(dias / 30);
  const juros = Math.round((valor * meses * taxas.jurosMensais) / 100);
  return multa + juros;
}
