import { SERVICO } from './consultas';
import { addDays, nextMonth } from './dates';
import { fimDoProximoMes } from './dae';
import { asMilesimos, multiplyMilesimos, sumCentavos, type Centavos, type Milesimos } from './money';
import { faixaDaQuantidade, type TabelaPreco } from './tarifas';

/**
 * Prepaid requests for bookkeepers (escrituradores; spec 3 sections 2.8–2.10, 3.11, 3.12, 5.3, 9;
 * docs/prepago.md). Pure rules: no I/O, no clock.
 *
 * A bookkeeper reserves a number of requests of three services; the reservation is priced by the
 * price rule in force (the band that holds the reservation's total, and that band's unit value of
 * each service), becomes a DAE, and paying the DAE credits the bookkeeper's account with that value
 * and a consumption deadline. Each Fat-e delivered to the bookkeeper, each monitored document and each
 * registered credit assignment then debits its unit value from the account.
 */

/** Spec 3 section 9: the minimum reservation, and the default quantity of 'Envio de Fat-e'. */
export const QTD_MINIMA_RESERVA = 50_000_000;
/** The largest quantity a field takes (ours: 12 digits, far beyond any reservation). */
export const QTD_MAXIMA_RESERVA = 999_999_999_999;
/** Ours: the paid value is consumed within this many months of the payment (the 'prazo de consumo'). */
export const PRAZO_CONSUMO_MESES = 12;
/** Ours: a reservation's DAE is due this many days after it is issued (never after the end of next month). */
export const DIAS_VENCIMENTO_DAE_PREPAGO = 10;

/** The three services a reservation counts, in the form's order (spec 3, 3.11). */
export const SERVICOS_PREPAGOS = [
  { campo: 'qtdEnvioFate', servico: SERVICO.envioFate, descricao: 'Envio de Fat-e' },
  { campo: 'qtdMonitoramentoDe', servico: SERVICO.monitoramentoDocumentos, descricao: 'Monitoramento de Documentos' },
  { campo: 'qtdRegistroCessao', servico: SERVICO.registroCessao, descricao: 'Registro de Cessão' },
] as const;
export type CampoQuantidade = (typeof SERVICOS_PREPAGOS)[number]['campo'];
export type Quantidades = Record<CampoQuantidade, number>;

/** Whether a service id is one the prepaid balance pays for. */
export const servicoPrepago = (servico: number) => SERVICOS_PREPAGOS.some((s) => s.servico === servico);

/**
 * The form's rule (spec 3, 5.3): 'Envio de Fat-e' at least QTD_MINIMA_RESERVA, and the three together
 * at least the same. Answers the catalogue key of the first broken rule, or null.
 */
export function validarQuantidades(q: Quantidades): 'reservaQuantidadeMinima' | null {
  if (q.qtdEnvioFate < QTD_MINIMA_RESERVA) return 'reservaQuantidadeMinima';
  if (q.qtdEnvioFate + q.qtdMonitoramentoDe + q.qtdRegistroCessao < QTD_MINIMA_RESERVA) return 'reservaQuantidadeMinima';
  return null;
}

export interface LinhaReserva {
  servico: number;
  quantidade: number;
  /** The band's unit value of the service, in thousandths of a real. */
  valorUnitario: Milesimos;
  /** quantidade × valorUnitario, half-up to centavos. */
  valor: Centavos;
}

export interface PrecoReserva {
  faixaId: string;
  linhas: LinhaReserva[];
  total: Centavos;
}

/**
 * The reservation's price by the price rule in force: the band is the one that holds the reservation's
 * total (all three services together, as the minimum of 5.3 is on the total); each service is priced at
 * that band's unit value, line by line half-up to centavos, and the lines add up to the total. The
 * same unit values are what each later use debits, including a service reserved with 0 requests (the
 * account pays for any of the three). The minimum subscription does not apply: it is a monthly charge.
 * null when the table has no band for the total.
 */
export function precoDaReserva(tabela: TabelaPreco, q: Quantidades): PrecoReserva | null {
  const total = q.qtdEnvioFate + q.qtdMonitoramentoDe + q.qtdRegistroCessao;
  const faixa = faixaDaQuantidade(tabela.faixas, total);
  if (!faixa) return null;
  const linhas = SERVICOS_PREPAGOS.map((s): LinhaReserva => {
    const valorUnitario = tabela.valores.get(s.servico)?.get(faixa.faixaId) ?? asMilesimos(0);
    return { servico: s.servico, quantidade: q[s.campo], valorUnitario, valor: multiplyMilesimos(q[s.campo], valorUnitario) };
  });
  return { faixaId: faixa.faixaId, linhas, total: sumCentavos(linhas.map((l) => l.valor)) };
}

/** The reservation's DAE due date: DIAS_VENCIMENTO_DAE_PREPAGO days after today, at most the end of next month. */
export function vencimentoDaeReserva(hoje: string): string {
  const d = addDays(hoje, DIAS_VENCIMENTO_DAE_PREPAGO);
  const fim = fimDoProximoMes(hoje);
  return d < fim ? d : fim;
}

/** The consumption deadline: the same day PRAZO_CONSUMO_MESES months after the payment (the month's last day when shorter). */
export function prazoDeConsumo(dataPagamento: string): string {
  let mes = dataPagamento.slice(0, 7);
  for (let i = 0; i < PRAZO_CONSUMO_MESES; i++) mes = nextMonth(mes);
  const [ano, m] = mes.split('-').map(Number) as [number, number];
  const ultimo = new Date(Date.UTC(ano, m, 0)).getUTCDate();
  const dia = Math.min(Number(dataPagamento.slice(8, 10)), ultimo);
  return `${mes}-${String(dia).padStart(2, '0')}`;
}

/**
 * The balance shown, in centavos, from the balance kept in thousandths: rounded down, so the balance
 * shown never exceeds what is left (a debit of R$ 0,025 leaves R$ 0,005 unshown until the next one).
 */
export const saldoEmCentavos = (saldoMilesimos: number): Centavos => Math.floor(saldoMilesimos / 10) as Centavos;

/** The consumed value of a statement line: requests × unit value, half-up to centavos. */
export const valorConsumido = (requisicoes: number, valorUnitario: number): Centavos => multiplyMilesimos(requisicoes, asMilesimos(valorUnitario));

/**
 * Shards of a prepaid balance (docs/prepago.md "The balance in shards"): the credit is split over this
 * many items, so that one bookkeeper's debits (up to 2,000 a second) are spread over as many items
 * instead of all updating one, which DynamoDB takes at about 1,000 writes a second and whose concurrent
 * transactions cancel each other.
 */
export const SALDO_SHARDS = 16;

/** A credit split over `shards` items exactly: the thousandths divided, the remainder one each on the first shards. */
export function repartirSaldo(totalMilesimos: number, shards: number = SALDO_SHARDS): number[] {
  const base = Math.floor(totalMilesimos / shards);
  const resto = totalMilesimos - base * shards;
  return Array.from({ length: shards }, (_, i) => base + (i < resto ? 1 : 0));
}

/** One shard's part of a debit. */
export interface ParteDebito {
  shard: number;
  milesimos: number;
}

/**
 * How a use of `valor` thousandths is taken from the shards' balances (`saldos[i]`: what shard i has
 * left, 0 for one that cannot pay: another cycle, past its deadline): the first shard from `inicio` on
 * (wrapping around) that covers the whole use; when none does alone but together they do, the use is
 * split over the fewest shards, largest first; null when the sum does not cover it (the use is then
 * billed monthly: a use is never paid in part).
 */
export function planoDeDebito(saldos: readonly number[], valor: number, inicio: number): ParteDebito[] | null {
  const n = saldos.length;
  for (let k = 0; k < n; k++) {
    const shard = (((inicio + k) % n) + n) % n;
    if ((saldos[shard] ?? 0) >= valor) return [{ shard, milesimos: valor }];
  }
  if (saldos.reduce((s, x) => s + Math.max(0, x), 0) < valor) return null;
  const partes: ParteDebito[] = [];
  let falta = valor;
  for (const shard of saldos.map((_, i) => i).sort((a, b) => saldos[b]! - saldos[a]! || a - b)) {
    if (falta === 0) break;
    const milesimos = Math.min(falta, saldos[shard]!);
    if (milesimos <= 0) break;
    partes.push({ shard, milesimos });
    falta -= milesimos;
  }
  return partes;
}
