// `checkpoint.validate` (docs/protocol.md#checkpointvalidate-v1-capability-checkpoint).
import type {
  CheckpointObservedEvidenceV1,
  CheckpointTerminalEvidenceV1,
  CheckpointValidationResultV1,
} from '@agent-contracts/schemas';

/** Params of `checkpoint.validate`. */
export interface CheckpointValidateParams {
  /** The turn. */
  readonly turnKey: string;
  /** `response-time` or `post-execution` (anything else is refused with `CHECKPOINT_MODE_INVALID`). */
  readonly mode: string;
  /** The evidence items. */
  readonly evidence: ReadonlyArray<CheckpointObservedEvidenceV1 | CheckpointTerminalEvidenceV1>;
  /** A timestamp for `post-execution`, null for `response-time`. */
  readonly deadlineAt: string | null;
  /** Blocking issues the host already knows. */
  readonly blockingIssues?: readonly string[];
  /** Required actions the host already knows. */
  readonly requiredActions?: readonly string[];
}

/** Result of `checkpoint.validate`. */
export type CheckpointValidateResult = CheckpointValidationResultV1;

/** Error `data` of a refused `checkpoint.validate`. */
export interface CheckpointRefusalData {
  /** `CHECKPOINT_MODE_INVALID` or `TURN_CHECKPOINT_VALIDATION_INCONSISTENT`. */
  readonly code: string;
  /** What the host must do. */
  readonly requiredActions: readonly string[];
}
