/**
 * Demo data for the local twin, seeded at every start and idempotent: each step writes the same
 * records again without duplicating them. Later issues add their steps here (users, clients, …).
 */
import { referenceLoadStateMachine } from '../lib/topology';
import type { LocalStateMachine } from './state-machines';

export interface SeedContext {
  stateMachines: Map<string, LocalStateMachine>;
}

export async function seedDemoData({ stateMachines }: SeedContext): Promise<void> {
  // Reference data (the municipalities) through the same state machine that loads it in AWS.
  const referenceLoad = stateMachines.get(referenceLoadStateMachine.id);
  if (!referenceLoad) throw new Error(`state machine ${referenceLoadStateMachine.id} is not in the CDK app`);
  await referenceLoad.execute({});
}
