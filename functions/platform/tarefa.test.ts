import { repasse, totalTransportadoras } from '@plac/shared/contracts/tarefas';
import { describe, expect, it, vi } from 'vitest';
import { EntradaInvalida, TarefaDesconhecida, taskHandler } from './tarefa';

const CONTEXTO = { awsRequestId: 'teste', functionName: 'teste' } as never;

describe('taskHandler: a state machine task function, contract-first', () => {
  const preparar = vi.fn(async (entrada: unknown) => ({ preparado: entrada }));
  const handler = taskHandler(repasse, { preparar, distribuir: async () => 'distribuido', marcarFalha: async () => 'falhou' });

  it('dispatches on `task` and hands the implementation the payload as its contract reads it', async () => {
    const resposta = await handler({ task: 'preparar', input: { mes: '2026-11', tipo: 'DEFINITIVO', execucaoId: 'e-1', extra: 1 } }, CONTEXTO);
    // Fields the contract does not name are left out.
    expect(resposta).toEqual({ preparado: { task: 'preparar', input: { mes: '2026-11', tipo: 'DEFINITIVO', execucaoId: 'e-1' } } });
    expect(await handler({ task: 'distribuir', input: { mes: '2026-11', tipo: 'SIMULACAO', execucaoId: 'e-1' } }, CONTEXTO)).toBe('distribuido');
  });

  it('refuses a payload its contract does not allow with EntradaInvalida, saying where, before any work', async () => {
    preparar.mockClear();
    const erro = await handler({ task: 'preparar', input: { mes: '2026-13', tipo: 'OUTRO' } }, CONTEXTO).catch((e: unknown) => e);
    expect(erro).toBeInstanceOf(EntradaInvalida);
    expect((erro as Error).name).toBe('EntradaInvalida');
    expect((erro as Error).message).toMatch(/^Repasse\.preparar: input\.mes: not a business month/);
    expect((erro as Error).message).toMatch(/input\.tipo/);
    expect((erro as Error).message).toMatch(/input\.execucaoId/);
    expect(preparar).not.toHaveBeenCalled();
  });

  it('refuses an unknown task with TarefaDesconhecida', async () => {
    await expect(handler({ task: 'apagarTudo' }, CONTEXTO)).rejects.toMatchObject({ name: 'TarefaDesconhecida' });
    await expect(handler(null, CONTEXTO)).rejects.toBeInstanceOf(TarefaDesconhecida);
  });

  it('runs the only task of a machine whose payload has no `task`', async () => {
    const unica = taskHandler(totalTransportadoras, { passo: async ({ totalId }) => totalId });
    expect(await unica({ totalId: 't-1', execucao: 'x' }, CONTEXTO)).toBe('t-1');
    await expect(unica({ totalId: 't-1' }, CONTEXTO)).rejects.toMatchObject({ name: 'EntradaInvalida' });
  });
});
