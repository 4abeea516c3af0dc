/**
 * The state machines of the CDK app as plain data (no CDK import), for the local twin: which
 * construct ids exist and, for each Task state, the FunctionSpec id it invokes. The definitions
 * themselves are built in constructs/reference-load.ts from these names, so they cannot drift.
 */
import { referenceLoadFunction, referenceLoadStateMachine } from './topology';

export const REFERENCE_LOAD_STATES = {
  listUfs: 'ListUfs',
  loadEach: 'LoadEachUf',
  loadUf: 'LoadUf',
  summarise: 'Summarise',
  done: 'Done',
} as const;

/** Construct ids of every AWS::StepFunctions::StateMachine the app synthesizes. */
export const stateMachineIds = [referenceLoadStateMachine.id] as const;

/** State machine id → Task state name → FunctionSpec id. */
export const localTaskBindings = {
  [referenceLoadStateMachine.id]: {
    [REFERENCE_LOAD_STATES.listUfs]: referenceLoadFunction.id,
    [REFERENCE_LOAD_STATES.loadUf]: referenceLoadFunction.id,
    [REFERENCE_LOAD_STATES.summarise]: referenceLoadFunction.id,
  },
} as const satisfies Record<(typeof stateMachineIds)[number], Record<string, string>>;
