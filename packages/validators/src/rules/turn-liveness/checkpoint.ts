// Semantic rules of CheckpointV1 (docs/spec/turn-liveness-recovery-gate.md#invariants-4), and its
// invariant 2 on a checkpoint wherever it sits (TurnLivenessStateV1 embeds one).
import type { CheckpointV1 } from '@agent-contracts/schemas';
import type { Issue } from '../../issues.js';
import { contractRules, issue } from '../kit.js';
import type { SemanticRule } from '../types.js';
import { S_CHECKPOINT } from './shared.js';

/** CheckpointV1 invariant 2 on the checkpoint at `base`: the phase names an operation iff it concerns one. */
export function checkpointPhaseIssues(c: CheckpointV1, base: string, rule: string): Issue[] {
  const phase = c.phase;
  const needsOp =
    phase.startsWith('tool:') || phase === 'tool-output-persisted' || phase === 'tool-error-observed';
  const noOp = phase === 'turn-started' || phase.startsWith('terminal:');
  if (needsOp && c.operationId === null)
    return [
      issue(
        'TURN_CHECKPOINT_PHASE_INVALID',
        `${base}/operationId`,
        `phase ${phase} concerns an operation; set operationId to it.`,
        rule,
      ),
    ];
  if (noOp && c.operationId !== null)
    return [
      issue(
        'TURN_CHECKPOINT_PHASE_INVALID',
        `${base}/operationId`,
        `phase ${phase} concerns no operation; operationId must be null.`,
        rule,
      ),
    ];
  return [];
}

const { rule } = contractRules<CheckpointV1>('CheckpointV1', S_CHECKPOINT);

/** Semantic rules of CheckpointV1. */
export const CHECKPOINT_RULES: readonly SemanticRule[] = [
  rule(
    'TURN_CHECKPOINT_PHASE_INVALID',
    'tool:<name>, tool-output-persisted and tool-error-observed name an operation; turn-started and terminal:<status> name none.',
    (c) => checkpointPhaseIssues(c, '', S_CHECKPOINT),
  ),
];
