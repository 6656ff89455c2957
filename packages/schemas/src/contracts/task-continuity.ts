import type { ContractEntry } from '../gates.js';
import type { NonNegativeInteger } from './common.js';

/**
 * The exact compare-and-set fence of a task's durable state: a commit is accepted only when
 * both numbers equal the stored ones. A task that has never been written has the fence (0, 0).
 */
export interface TaskRecoveryCommitFenceV1 {
  /** Contract discriminator. */
  schemaVersion: 'TaskRecoveryCommitFenceV1';
  /** Sequence of the last committed envelope (`TaskRecoveryStateV5.sequence`); 0 for a task never written. */
  stateSequence: NonNegativeInteger;
  /** Writer generation of the last committed envelope; moves only in owner transitions, by exactly +1. */
  writerGeneration: NonNegativeInteger;
}

/** Catalogue entries of this area, in spec order. */
export const TASK_CONTINUITY_CONTRACTS: readonly ContractEntry[] = [
  {
    name: 'TaskRecoveryCommitFenceV1',
    gate: 'TaskContinuityWriteGate',
    summary: 'The (stateSequence, writerGeneration) pair every fenced commit must match exactly.',
  },
];
