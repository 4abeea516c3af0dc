import { tarefas, type TarefaContract } from '@plac/shared/contracts/tarefas';
import { StateMachine } from 'aws-local-stepfunctions';
import { describe, expect, it } from 'vitest';
import { REPASSE_STATES, stateMachineIds } from '../lib/state-machines';
import { logicalIdOf, resources, synth } from './synth';

/**
 * The machines' Task payloads and the task functions' contracts are one (shared/src/contracts/
 * tarefas.ts): every Task sends a `task` its machine's contracts know and only fields the contract
 * names, every contract is sent by some Task, and a payload the function refuses (EntradaInvalida)
 * fails the execution at its first attempt, whatever Retry the machine adds after.
 */
type State = { Type: string; Parameters?: Record<string, unknown>; Retry?: { ErrorEquals: string[]; MaxAttempts?: number }[]; ItemProcessor?: { States: Record<string, State> } };
type Asl = { StartAt: string; States: Record<string, State> };

const { api } = synth();

function aslOf(machineId: string): Asl {
  const id = logicalIdOf(api, `PlacApi/${machineId}/Resource`);
  const join = resources(api, 'AWS::StepFunctions::StateMachine')[id]!.Properties!.DefinitionString as { 'Fn::Join': [string, unknown[]] };
  const raw = join['Fn::Join'][1].map((part) => (typeof part === 'string' ? part : 'arn:aws:lambda:us-east-1:123456789012:function:Task')).join(join['Fn::Join'][0]);
  return JSON.parse(raw) as Asl;
}

function tasksOf(states: Record<string, State>): [string, State][] {
  return Object.entries(states).flatMap(([name, state]) => [
    ...(state.Type === 'Task' ? [[name, state] as [string, State]] : []),
    ...(state.ItemProcessor ? tasksOf(state.ItemProcessor.States) : []),
  ]);
}

const contratosDa = (machineId: string): TarefaContract[] => Object.values(tarefas).flatMap((grupo) => Object.values(grupo as Record<string, TarefaContract>)).filter((c) => c.maquina === machineId);
const camposDe = (contrato: TarefaContract) => Object.keys((contrato.entrada as unknown as { _zod: { def: { shape: Record<string, unknown> } } })._zod.def.shape);

describe('task payloads and their contracts', () => {
  it.each(stateMachineIds)('%s: each Task sends a contract of its machine, with only the contract’s fields, its first Retry the definitive errors', (machineId) => {
    const contratos = contratosDa(machineId);
    expect(contratos.length).toBeGreaterThan(0);
    const enviados = new Set<TarefaContract>();
    for (const [name, state] of tasksOf(aslOf(machineId).States)) {
      const params = state.Parameters ?? {};
      const contrato = contratos.find((c) => c.tarefa === params.task) ?? (contratos.length === 1 && !contratos[0]!.tarefa ? contratos[0] : undefined);
      expect(contrato, `${machineId}.${name} sends task ${String(params.task)}`).toBeDefined();
      enviados.add(contrato!);
      const campos = Object.keys(params).map((k) => k.replace(/\.\$$/, ''));
      expect(campos.filter((c) => !camposDe(contrato!).includes(c)), `${machineId}.${name}`).toEqual([]);
      const definitivo = state.Retry?.findIndex((r) => r.ErrorEquals.includes('EntradaInvalida')) ?? -1;
      expect(definitivo, `${machineId}.${name}: the definitive errors' Retry`).toBeGreaterThanOrEqual(0);
      expect(state.Retry![definitivo]).toMatchObject({ ErrorEquals: ['EntradaInvalida', 'TarefaDesconhecida'], MaxAttempts: 0 });
      // Before any Retry that would match it (States.TaskFailed matches every error of the task).
      expect(state.Retry!.slice(0, definitivo).some((r) => r.ErrorEquals.includes('States.TaskFailed') || r.ErrorEquals.includes('States.ALL'))).toBe(false);
    }
    expect(contratos.filter((c) => !enviados.has(c)).map((c) => c.tarefa)).toEqual([]);
  });

  it('fails a refused payload at its first attempt in aws-local-stepfunctions (the twin), though the machine retries other errors', async () => {
    let tentativas = 0;
    const machine = new StateMachine(aslOf('Repasse') as never, { validationOptions: { checkArn: false } });
    const falha = (nome: string) => Object.assign(new Error(`${nome} from the test`), { name: nome });
    const execucao = machine.run(
      { mes: '2026-13', tipo: 'DEFINITIVO', execucaoId: 'e-1' },
      {
        overrides: {
          taskResourceLocalHandlers: {
            [REPASSE_STATES.prepare]: async () => {
              tentativas++;
              throw falha('EntradaInvalida');
            },
            [REPASSE_STATES.markFailed]: async () => ({}),
          },
          waitTimeOverrides: {},
          retryIntervalOverrides: { [REPASSE_STATES.prepare]: 0 },
        } as never,
      },
    );
    await execucao.result.catch(() => undefined);
    expect(tentativas).toBe(1);

    // Any other error is retried as before (FATURAMENTO_RETRY: 3 more attempts).
    tentativas = 0;
    const outra = new StateMachine(aslOf('Repasse') as never, { validationOptions: { checkArn: false } }).run(
      { mes: '2026-11', tipo: 'DEFINITIVO', execucaoId: 'e-1' },
      {
        overrides: {
          taskResourceLocalHandlers: {
            [REPASSE_STATES.prepare]: async () => {
              tentativas++;
              throw falha('ProvisionedThroughputExceededException');
            },
            [REPASSE_STATES.markFailed]: async () => ({}),
          },
          retryIntervalOverrides: { [REPASSE_STATES.prepare]: 0 },
        } as never,
      },
    );
    await outra.result.catch(() => undefined);
    expect(tentativas).toBe(4);
  });
});
