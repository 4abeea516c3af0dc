import type { consumo, ResponseOf } from '@plac/shared/contracts';

/** What the consumption screens share: types, options and small pure helpers. */

export type ConsumoCliente = ResponseOf<typeof consumo.consumoPorCliente>['clientes'][number];
export type NaoEncontrada = ResponseOf<typeof consumo.naoEncontradas>['items'][number];
export type SerieMonitoramento = ResponseOf<typeof consumo.monitoramentoConsumo>;

const count = new Intl.NumberFormat('pt-BR');
export const formatCount = (value: number) => count.format(value);

/** Elapsed time as 'mm:ss' (minutes keep counting past 59). */
export function decorrido(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}

export { diaBr, diasEntre, hojeMais, mesAtualMais, mesesEntre, mesIso, rotuloPonto as rotulo } from '../../lib/calendar';
