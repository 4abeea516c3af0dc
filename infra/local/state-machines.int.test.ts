import { describe, expect, it } from 'vitest';
import { cidadesDaUf } from '../../functions/dominio/store';
import { referenceLoadStateMachine } from '../lib/topology';
import { localStateMachines } from './state-machines';

/**
 * The CDK-synthesized reference-load machine, run by the local runner: a Map over the 27 UFs whose
 * task is retried after a transient failure.
 */
describe('reference-load state machine (local runner, CDK-synthesized ASL)', () => {
  it('has a Map over the UFs and a Retry on the per-UF task', () => {
    const machine = localStateMachines().get(referenceLoadStateMachine.id)!;
    const json = JSON.stringify(machine.definition);
    expect(json).toContain('"Type":"Map"');
    expect(json).toContain('"Retry"');
    expect(json).not.toContain('ItemReader');
  });

  it('loads every UF, retrying a task that failed once', async () => {
    const machine = localStateMachines().get(referenceLoadStateMachine.id)!;
    let failures = 0;
    const { output, events } = await machine.execute(
      {},
      {
        wrap: (state, invoke) => async (input) => {
          if (state === 'LoadUf' && (input as { uf?: string }).uf === 'BA' && failures === 0) {
            failures++;
            throw new Error('transient failure (injected by the test)');
          }
          return invoke(input);
        },
      },
    );
    expect(failures).toBe(1);
    expect(output).toMatchObject({ ufs: 27, cidades: 5570 });
    expect(events.some((e) => e.type === 'StateRetried')).toBe(true);
    expect(events.filter((e) => e.type === 'MapIterationSucceeded')).toHaveLength(27);

    expect(await cidadesDaUf('BA')).toContainEqual({ codigo: 2927408, nome: 'Salvador' });
  });
});
