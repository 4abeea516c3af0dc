import * as z from 'zod/mini';
import type * as core from 'zod/v4/core';
import { FLUXOS } from '../domain/cargas';
import { isBusinessMonth } from '../domain/dates';
import { UFS } from '../domain/uf';

/**
 * The Lambda entries that are not HTTP: each task of a Step Functions state machine, with the payload
 * its Task state sends. The CDK construct builds the payload from the contract (infra/lib/constructs/
 * lambda-task.ts `lambdaTask`: the `task` value and only the contract's fields) and the task's
 * function checks what arrives against it (functions/platform/tarefa.ts `taskHandler`), so the two
 * cannot drift apart. A payload that does not match fails with EntradaInvalida, which no Retry repeats
 * (`ERROS_DEFINITIVOS`): sending it again would not make it valid. Written with zod/mini, whose
 * functions tree-shake: a task's bundle carries the checks it uses, not all of zod (about 90 KiB).
 */
export interface TarefaContract<I extends core.$ZodType = core.$ZodType> {
  /** The state machine (topology.ts) whose Task states send it. */
  readonly maquina: string;
  /** The payload's `task` value, which the function dispatches on; none for a machine of one task. */
  readonly tarefa?: string;
  /** The payload, `task` included. */
  readonly entrada: I;
}

/** A task's payload as its Task state is written (before the function's checks). */
export type EntradaDe<C extends TarefaContract> = core.input<C['entrada']>;
/** A task's payload as its function reads it (after the checks). */
export type EntradaLida<C extends TarefaContract> = core.output<C['entrada']>;

/** The errors a task's function throws by name (functions/platform/tarefa.ts) that a Retry must not repeat. */
export const ERROS_DEFINITIVOS = ['EntradaInvalida', 'TarefaDesconhecida'] as const;

function tarefa<const T extends string, S extends core.$ZodShape>(maquina: string, nome: T, campos: S) {
  return { maquina, tarefa: nome, entrada: z.object({ task: z.literal(nome), ...campos }) } as const;
}

function unica<S extends core.$ZodShape>(maquina: string, campos: S) {
  return { maquina, entrada: z.object(campos) } as const;
}

const mes = z.string().check(z.refine(isBusinessMonth, { error: 'not a business month (YYYY-MM)' }));
/** What a Catch passes on: the error's name and cause. */
const erro = z.optional(z.object({ Error: z.optional(z.string()), Cause: z.optional(z.string()) }));
const uf = z.enum(UFS.map((u) => u.uf) as [(typeof UFS)[number]['uf'], ...(typeof UFS)[number]['uf'][]]);
const fluxo = z.enum(FLUXOS);

/** The billing run (infra/lib/constructs/faturamento.ts; functions/faturamento/run.ts). */
export const faturamento = {
  listShards: tarefa('Faturamento', 'listShards', {
    /** The execution's input: a month asked by an admin (else the month before), the run already recorded. */
    input: z.optional(z.object({ mes: z.optional(mes), execucaoId: z.optional(z.string()) })),
    /** The execution's name ($$.Execution.Name). */
    execucao: z.optional(z.string()),
  }),
  faturarShard: tarefa('Faturamento', 'faturarShard', {
    shard: z.object({ execucaoId: z.string(), mes, shard: z.int().check(z.nonnegative()), shards: z.int().check(z.positive()) }),
  }),
  summarise: tarefa('Faturamento', 'summarise', {
    execucaoId: z.string(),
    results: z.array(
      z.object({
        shard: z.number(),
        clientes: z.number(),
        emitidas: z.number(),
        jaEmitidas: z.number(),
        semFatura: z.number(),
        emAvaliacao: z.number(),
        falhas: z.number(),
      }),
    ),
  }),
  markFailed: tarefa('Faturamento', 'markFailed', { execucaoId: z.optional(z.string()), erro }),
} as const;

const execucaoRepasse = { mes, tipo: z.enum(['SIMULACAO', 'DEFINITIVO']), execucaoId: z.string() };

/** The repasse run (infra/lib/constructs/repasse.ts; functions/rateio/run.ts). */
export const repasse = {
  preparar: tarefa('Repasse', 'preparar', { input: z.object(execucaoRepasse) }),
  distribuir: tarefa('Repasse', 'distribuir', { input: z.object(execucaoRepasse) }),
  /** The state as the Catch left it: whatever of the run is known. */
  marcarFalha: tarefa('Repasse', 'marcarFalha', { input: z.optional(z.partial(z.object(execucaoRepasse))), erro }),
} as const;

/** The evidence archive (infra/lib/constructs/arquivo.ts; functions/arquivo/run.ts). */
export const arquivo = {
  iniciar: tarefa('Arquivo', 'iniciar', { entrada: z.optional(z.object({ mes: z.optional(mes), clientes: z.optional(z.array(z.string())) })) }),
  passo: tarefa('Arquivo', 'passo', { mes }),
  marcarFalha: tarefa('Arquivo', 'marcarFalha', { mes, erro }),
} as const;

/** The report job (infra/lib/constructs/relatorio.ts; functions/consumo/relatorio-run.ts). */
export const relatorio = {
  passo: tarefa('Relatorio', 'passo', { jobId: z.string(), execucaoId: z.optional(z.string()), execucao: z.optional(z.string()) }),
  marcarFalha: tarefa('Relatorio', 'marcarFalha', { jobId: z.string(), erro }),
} as const;

/** The carrier report's filtered grand total (infra/lib/constructs/total-transportadoras.ts). */
export const totalTransportadoras = {
  passo: unica('TotalTransportadoras', { totalId: z.string(), execucao: z.string() }),
} as const;

/** A bank return file's payments in steps (infra/lib/constructs/retorno.ts; functions/faturamento/retorno/run.ts). */
export const retorno = {
  passo: unica('RetornoBancario', { importacaoId: z.string(), token: z.string() }),
} as const;

const resultadoCarga = z.object({
  uf,
  fluxo,
  situacao: z.string(),
  fate: z.optional(z.number()),
  eventos: z.optional(z.number()),
  resumos: z.optional(z.number()),
  erros: z.optional(z.number()),
  repetidos: z.optional(z.number()),
});

/** The Sefaz load (infra/lib/constructs/sefaz-load.ts; functions/fate/loader.ts). */
export const cargaSefaz = {
  listSefaz: tarefa('SefazLoad', 'listSefaz', {}),
  /** `execucao`: the execution ($$.Execution.Id), the stream lease's owner: its Retry takes the lease over. */
  loadSefaz: tarefa('SefazLoad', 'loadSefaz', { carga: z.object({ uf, fluxo }), execucao: z.optional(z.string()) }),
  /** One list of results per kind (the nested Maps' output); a flat list is taken as it is. */
  summarise: tarefa('SefazLoad', 'summarise', { results: z.array(z.union([resultadoCarga, z.array(resultadoCarga)])) }),
} as const;

/** The reference-data load (infra/lib/constructs/reference-load.ts; functions/dominio/reference-load.ts). */
export const cargaReferencia = {
  listUfs: tarefa('ReferenceLoad', 'listUfs', {}),
  loadUf: tarefa('ReferenceLoad', 'loadUf', { uf }),
  summarise: tarefa('ReferenceLoad', 'summarise', { results: z.array(z.object({ uf: z.string(), cidades: z.number() })) }),
} as const;

/**
 * The CRLs kept for every container (functions/auth/lcr-atualizacao.ts): listar → Map over the CRLs
 * (each by its first URL) → resumir.
 */
export const atualizacaoLcr = {
  listar: tarefa('LcrRefresh', 'listar', {}),
  atualizar: tarefa('LcrRefresh', 'atualizar', { url: z.string().check(z.regex(/^https?:\/\/\S+$/), z.maxLength(2000)) }),
  resumir: tarefa('LcrRefresh', 'resumir', {
    results: z.array(
      z.object({
        url: z.string(),
        aplicada: z.boolean(),
        revogados: z.optional(z.number()),
        inseridos: z.optional(z.number()),
        removidos: z.optional(z.number()),
        falha: z.optional(z.string()),
      }),
    ),
  }),
} as const;

/** Every task contract, by machine (the tests walk them). */
export const tarefas = { faturamento, repasse, arquivo, relatorio, totalTransportadoras, retorno, cargaSefaz, cargaReferencia, atualizacaoLcr } as const;
