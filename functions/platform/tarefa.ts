import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { EntradaLida, TarefaContract } from '@plac/shared/contracts/tarefas';
import type { Context } from 'aws-lambda';
import { safeParse } from 'zod/mini';
import { logger } from './observability';

/**
 * The entry of a state machine's task function, contract-first as the HTTP ones are (http.ts): the
 * payload is checked against its task's contract (shared/src/contracts/tarefas.ts) before any work,
 * the logs carry the invocation's context (Powertools), and what cannot succeed by trying again fails
 * with an error the state machines name: their Retry lists these names first, with no attempt
 * (infra/lib/constructs/lambda-task.ts), so a bad payload fails the execution at once instead of
 * being sent three more times.
 */

/** The payload does not match its task's contract (the message says where). */
export class EntradaInvalida extends Error {
  override name = 'EntradaInvalida';
}

/** No task of this function has the payload's `task`. */
export class TarefaDesconhecida extends Error {
  override name = 'TarefaDesconhecida';
}

type Implementacoes<C extends Record<string, TarefaContract>> = {
  [K in keyof C]: (entrada: EntradaLida<C[K]>, context: Context) => Promise<unknown>;
};

/**
 * The function of a machine's tasks: `contratos` are the machine's task contracts (tarefas.ts), one
 * implementation each. The payload's `task` picks the contract, or the machine's only one when its
 * tasks send no `task`.
 */
export function taskHandler<C extends Record<string, TarefaContract>>(contratos: C, implementacoes: Implementacoes<C>) {
  const porTarefa = new Map(Object.entries(contratos).map(([nome, contrato]) => [contrato.tarefa, nome] as const));
  const run = async (event: unknown, context: Context): Promise<unknown> => {
    const tarefa = typeof event === 'object' && event !== null && 'task' in event ? (event as { task: unknown }).task : undefined;
    const nome = porTarefa.get(typeof tarefa === 'string' ? tarefa : undefined);
    if (nome === undefined) throw new TarefaDesconhecida(`unknown task ${String(tarefa)}`);
    const contrato = contratos[nome]!;
    const entrada = safeParse(contrato.entrada, event);
    if (!entrada.success) {
      throw new EntradaInvalida(`${contrato.maquina}.${String(tarefa ?? nome)}: ${entrada.error.issues.map((i) => `${i.path.join('.') || '(payload)'}: ${i.message}`).join('; ')}`);
    }
    return implementacoes[nome as keyof C](entrada.data as EntradaLida<C[keyof C]>, context);
  };
  return middy<unknown, unknown, Error, Context>().use(injectLambdaContext(logger, { resetKeys: true })).handler(run);
}
