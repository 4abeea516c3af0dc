import type { CessaoDaParcela, FateView } from '@plac/shared/contracts/fate-view';
import { cessoesDaFate } from './leituras';

/**
 * For the look-ups (functions/consulta): the Fat-e with each instalment's assignment, or null when it
 * has none. One Query of the Fat-e's partition.
 */
export async function comCessoes(fate: FateView): Promise<FateView> {
  const cessoes = new Map((await cessoesDaFate(fate.chave)).map((c) => [c.nDup, c] as const));
  const daParcela = (numero: string): CessaoDaParcela | null => {
    const c = cessoes.get(numero);
    return c ? { cnpjCessionario: c.cnpjCessionario, dataCessao: c.dataCessao, valor: c.valor, registradaEm: c.registradaEm } : null;
  };
  return { ...fate, duplicatas: fate.duplicatas.map((d) => ({ ...d, cessao: daParcela(d.numero) })) };
}
