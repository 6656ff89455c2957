// The rules of the TaskContinuityWriteGate (docs/spec/task-continuity-write-gate.md):
// TaskRecoveryStateV5, TaskRecoveryCommitFenceV1, FencedTaskWriteOwnerLeaseV2,
// TaskOperationRecordV1, TaskOperationSetV1 and WorkflowTaskTerminalReceiptV1, and the bundle kinds
// `envelope-sequence` and `write-context-readback` (which judges CanonicalTaskWriteContextV1), one
// file per contract or bundle kind; TASK_CONTINUITY_RULE_FILES names the file of each rule.
// Embedded documents (the envelope's lease, operation set and receipt, the set's unresolved record)
// are judged by the same checks as standalone ones, at their path.
import type { BundleRule, SemanticRule } from '../types.js';
import { FENCE_RULES } from './commit-fence.js';
import { ENVELOPE_RULES } from './envelope.js';
import { SEQUENCE_RULES } from './envelope-sequence.js';
import { RECORD_RULES } from './operation-record.js';
import { SET_RULES } from './operation-set.js';
import { LEASE_RULES } from './owner-lease.js';
import { RECEIPT_RULES } from './terminal-receipt.js';
import { READBACK_RULES } from './write-context-readback.js';

export { generationDelta } from './envelope-sequence.js';
export { compareTime } from './shared.js';

/** Semantic rules of this area's contracts (one per code and contract), in spec order. */
export const TASK_CONTINUITY_RULES: readonly SemanticRule[] = [
  ...ENVELOPE_RULES,
  ...FENCE_RULES,
  ...LEASE_RULES,
  ...RECORD_RULES,
  ...SET_RULES,
  ...RECEIPT_RULES,
];

/** Cross-document rules of this area's bundle kinds (`envelope-sequence`, `write-context-readback`). */
export const TASK_CONTINUITY_BUNDLE_RULES: readonly BundleRule[] = [...SEQUENCE_RULES, ...READBACK_RULES];

/** The file of this folder that defines each rule, for RULE_FILES (docs/rules.md). */
export const TASK_CONTINUITY_RULE_FILES: ReadonlyArray<
  readonly [string, ReadonlyArray<SemanticRule | BundleRule>]
> = [
  ['task-continuity/commit-fence.ts', FENCE_RULES],
  ['task-continuity/envelope.ts', ENVELOPE_RULES],
  ['task-continuity/envelope-sequence.ts', SEQUENCE_RULES],
  ['task-continuity/operation-record.ts', RECORD_RULES],
  ['task-continuity/operation-set.ts', SET_RULES],
  ['task-continuity/owner-lease.ts', LEASE_RULES],
  ['task-continuity/terminal-receipt.ts', RECEIPT_RULES],
  ['task-continuity/write-context-readback.ts', READBACK_RULES],
];
