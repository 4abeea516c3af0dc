import { describe, expect, it } from 'vitest';
import { monthOf, previousMonth, todayInBahia } from '@plac/shared/domain';
import { consumoDoCliente } from '../../functions/consumo';
import { instantesNaoEncontradasDoCliente } from '../../functions/consumo/store';
import { cobrancasDoMes, seedConsumo } from './demo-consumo';

/** The twin's demo consumption (seeded when the twin started): its figures, and a second start changes nothing. */
describe('demo consumption', () => {
  const mesPassado = previousMonth(monthOf(todayInBahia()));
  const total = async (clienteId: string, mes: string) => (await consumoDoCliente(clienteId, mes)).reduce((s, c) => s + c.requisicoes, 0);

  it('has last month’s planned charges and some not-found look-ups, and seeding again adds nothing', async () => {
    const plano = cobrancasDoMes({ clienteId: 'demo-esf', porMes: 48, servicos: [1, 2, 5, 4], ufs: ['BA', 'SP', 'PE', 'MG'] }, mesPassado, todayInBahia());
    expect(plano).toHaveLength(48);
    expect(await total('demo-esf', mesPassado)).toBe(48);
    const naoEncontradas = (await instantesNaoEncontradasDoCliente('demo-esf', mesPassado)).length;
    expect(naoEncontradas).toBeGreaterThan(0);

    await seedConsumo();
    expect(await total('demo-esf', mesPassado)).toBe(48);
    expect((await instantesNaoEncontradasDoCliente('demo-esf', mesPassado)).length).toBe(naoEncontradas);
    // Clients that are not active have no demo consumption.
    expect(await total('demo-novo', mesPassado)).toBe(0);
  });
});
