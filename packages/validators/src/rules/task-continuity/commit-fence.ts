// Semantic rules of TaskRecoveryCommitFenceV1
// (docs/spec/task-continuity-write-gate.md#taskrecoverycommitfencev1).
import type { TaskRecoveryCommitFenceV1 } from '@agent-contracts/schemas';
import { type Report, reportingRule } from '../kit.js';
import type { SemanticRule } from '../types.js';
import { SECTION } from './shared.js';

function fenceInvariant(f: TaskRecoveryCommitFenceV1, report: Report): void {
  if ((f.stateSequence === 0) !== (f.writerGeneration === 0)) {
    report(
      '/writerGeneration',
      `fence (${f.stateSequence}, ${f.writerGeneration}) is impossible: (0, 0) is the fence of a task never written and every written task has both members >= 1; send the fence of the last write context.`,
    );
  } else if (f.writerGeneration > f.stateSequence) {
    report(
      '/writerGeneration',
      `fence (${f.stateSequence}, ${f.writerGeneration}) is impossible: writerGeneration never exceeds stateSequence (the first commit is (1, 1) and every generation step is a commit); send the fence of the last write context.`,
    );
  }
}

/** Semantic rules of TaskRecoveryCommitFenceV1. */
export const FENCE_RULES: readonly SemanticRule[] = [
  reportingRule<TaskRecoveryCommitFenceV1>(
    'LIFECYCLE_STATE_FENCE_REQUIRED',
    'TaskRecoveryCommitFenceV1',
    SECTION.fence,
    'A fence is (0, 0) or has 1 <= writerGeneration <= stateSequence (invariant 1).',
    fenceInvariant,
  ),
];
