/**
 * The state machines of the CDK app as plain data (no CDK import), for the local twin: which
 * construct ids exist and, for each Task state, the FunctionSpec id it invokes. The definitions
 * themselves are built in constructs/fan-out-load.ts from these names, so they cannot drift.
 */
import {
  arquivoFunction,
  arquivoStateMachine,
  faturamentoFunction,
  faturamentoStateMachine,
  lcrRefreshFunction,
  lcrRefreshStateMachine,
  referenceLoadFunction,
  relatorioFunction,
  relatorioStateMachine,
  referenceLoadStateMachine,
  repasseFunction,
  repasseStateMachine,
  retornoFunction,
  retornoStateMachine,
  sefazLoadFunction,
  sefazLoadStateMachine,
  totalTransportadorasFunction,
  totalTransportadorasStateMachine,
} from './topology';

/** The state names of a fan-out load: List → Map each → One (per item) → Summarise → Done. */
export interface FanOutStates {
  readonly list: string;
  readonly each: string;
  readonly one: string;
  readonly summarise: string;
  readonly done: string;
}

/** The CRLs kept for every container (constructs/lcr-refresh.ts). */
export const LCR_REFRESH_STATES = {
  list: 'ListarLcrs',
  each: 'AtualizarCadaLcr',
  one: 'AtualizarLcr',
  summarise: 'Resumir',
  done: 'Done',
} as const satisfies FanOutStates;

export const REFERENCE_LOAD_STATES = {
  list: 'ListUfs',
  each: 'LoadEachUf',
  one: 'LoadUf',
  summarise: 'Summarise',
  done: 'Done',
} as const satisfies FanOutStates;

/**
 * The Sefaz load: the fan-out shape with its Map two deep (constructs/sefaz-load.ts): LoadEachSefaz
 * over the stream kinds, LoadEachStream over a kind's UFs, so no Inline Map holds more than 40 streams.
 */
export const SEFAZ_LOAD_STATES = {
  list: 'ListSefaz',
  each: 'LoadEachSefaz',
  eachStream: 'LoadEachStream',
  one: 'LoadSefaz',
  summarise: 'Summarise',
  done: 'Done',
} as const satisfies FanOutStates & { eachStream: string };

/** The billing run: the fan-out shape, and MarkFailed on the Catch of its List and Map. */
export const FATURAMENTO_STATES = {
  list: 'ListShards',
  each: 'BillEachShard',
  one: 'BillShard',
  summarise: 'Summarise',
  done: 'Done',
  markFailed: 'MarkFailed',
  failed: 'Failed',
} as const satisfies FanOutStates & { markFailed: string; failed: string };

/** The repasse run: Preparar → Distribuir → Done, MarcarFalha on the Catch of either. */
export const REPASSE_STATES = {
  prepare: 'Preparar',
  distribute: 'Distribuir',
  done: 'Done',
  markFailed: 'MarcarFalha',
  failed: 'Failed',
} as const;

/** The bank-return import's job: Processar (a step of batches) → Concluido? → back to Processar, or Done. */
export const RETORNO_STATES = {
  step: 'Processar',
  done: 'Concluido',
  finished: 'Done',
} as const;

/**
 * The report job: Passo, looped by the Choice Concluido until the file is complete (Done) or the job
 * goes on in its next execution (Continuado, every PLAC_RELATORIO_PASSOS_POR_EXECUCAO steps); MarcarFalha on the Catch.
 */
export const RELATORIO_STATES = {
  step: 'Passo',
  done: 'Concluido',
  finished: 'Done',
  continued: 'Continuado',
  markFailed: 'MarcarFalha',
  failed: 'Failed',
} as const;

/** The carrier report's filtered grand total: Passo (a bounded part of the registry) → Concluido? → back to Passo, or Done. */
export const TOTAL_TRANSPORTADORAS_STATES = {
  step: 'Passo',
  done: 'Concluido',
  finished: 'Done',
} as const;

/** The archive job (constructs/arquivo.ts): Iniciar → Iniciado? → Passo → Concluido? → Passo … → Done or Divergente, MarcarFalha on the Catch. */
export const ARQUIVO_STATES = {
  start: 'Iniciar',
  started: 'Iniciado',
  step: 'Passo',
  done: 'Concluido',
  finished: 'Done',
  divergent: 'Divergente',
  markFailed: 'MarcarFalha',
  failed: 'Failed',
} as const;

/** Construct ids of every AWS::StepFunctions::StateMachine the app synthesizes. */
export const stateMachineIds = [
  referenceLoadStateMachine.id,
  lcrRefreshStateMachine.id,
  sefazLoadStateMachine.id,
  faturamentoStateMachine.id,
  repasseStateMachine.id,
  retornoStateMachine.id,
  relatorioStateMachine.id,
  totalTransportadorasStateMachine.id,
  arquivoStateMachine.id,
] as const;

/** State machine id → Task state name → FunctionSpec id. */
export const localTaskBindings = {
  [lcrRefreshStateMachine.id]: {
    [LCR_REFRESH_STATES.list]: lcrRefreshFunction.id,
    [LCR_REFRESH_STATES.one]: lcrRefreshFunction.id,
    [LCR_REFRESH_STATES.summarise]: lcrRefreshFunction.id,
  },
  [referenceLoadStateMachine.id]: {
    [REFERENCE_LOAD_STATES.list]: referenceLoadFunction.id,
    [REFERENCE_LOAD_STATES.one]: referenceLoadFunction.id,
    [REFERENCE_LOAD_STATES.summarise]: referenceLoadFunction.id,
  },
  [sefazLoadStateMachine.id]: {
    [SEFAZ_LOAD_STATES.list]: sefazLoadFunction.id,
    [SEFAZ_LOAD_STATES.one]: sefazLoadFunction.id,
    [SEFAZ_LOAD_STATES.summarise]: sefazLoadFunction.id,
  },
  [faturamentoStateMachine.id]: {
    [FATURAMENTO_STATES.list]: faturamentoFunction.id,
    [FATURAMENTO_STATES.one]: faturamentoFunction.id,
    [FATURAMENTO_STATES.summarise]: faturamentoFunction.id,
    [FATURAMENTO_STATES.markFailed]: faturamentoFunction.id,
  },
  [retornoStateMachine.id]: {
    [RETORNO_STATES.step]: retornoFunction.id,
  },
  [repasseStateMachine.id]: {
    [REPASSE_STATES.prepare]: repasseFunction.id,
    [REPASSE_STATES.distribute]: repasseFunction.id,
    [REPASSE_STATES.markFailed]: repasseFunction.id,
  },
  [arquivoStateMachine.id]: {
    [ARQUIVO_STATES.start]: arquivoFunction.id,
    [ARQUIVO_STATES.step]: arquivoFunction.id,
    [ARQUIVO_STATES.markFailed]: arquivoFunction.id,
  },
  [relatorioStateMachine.id]: {
    [RELATORIO_STATES.step]: relatorioFunction.id,
    [RELATORIO_STATES.markFailed]: relatorioFunction.id,
  },
  [totalTransportadorasStateMachine.id]: {
    [TOTAL_TRANSPORTADORAS_STATES.step]: totalTransportadorasFunction.id,
  },
} as const satisfies Record<(typeof stateMachineIds)[number], Record<string, string>>;
