// A commit decision of the TaskContinuityWriteGate: what the engine needs (the environment) and
// what it answers (a write, no write, or a refusal that writes nothing).
import type {
  TaskOperationRecordV1,
  TaskRecoveryCommitFenceV1,
  TaskRecoveryStateV5,
  TaskTerminalEvidenceItemV1,
  WorkflowTaskTerminalReceiptV1,
} from '@agent-contracts/schemas';
import type { Clock } from '../clock.js';
import { type EngineRefusal, refusal } from '../refusal.js';
import type { TaskCheckResult } from './result.js';

/** What a commit decision needs besides the envelope and the request. */
export interface CommitEnvironment {
  /** The store's clock: timestamps and diagnostics only. */
  readonly clock: Clock;
  /** The runtime generation performing the commit (bound into write-context digests). */
  readonly runtimeGeneration: string;
  /** Mints a fresh `owner-` + 40 hex nonce from a cryptographically secure source. */
  readonly mintNonce: () => string;
  /** Diagnostic lease duration in ms (>= 1); default `DEFAULT_LEASE_DURATION_MS`. */
  readonly leaseDurationMs?: number;
  /**
   * Terminal evidence checks that need the file system (scope, file, drift, digest), run after
   * the pure path checks. Without it every terminal request is refused with
   * `TASK_TERMINAL_EVIDENCE_FILE_INVALID`.
   */
  readonly verifyEvidence?: (evidence: readonly TaskTerminalEvidenceItemV1[]) => TaskCheckResult;
  /**
   * Full records, as they were just before resolution, of operations in the settled window, by
   * `operationId`: needed to decide a settlement replay (see `priorRecordNeeded`).
   */
  readonly priorRecords?: ReadonlyMap<string, TaskOperationRecordV1>;
  /** Documented envelope size limit in UTF-8 bytes (`LIFECYCLE_STATE_PAYLOAD_EXCEEDED`); none by default. */
  readonly maxEnvelopeBytes?: number;
}

/**
 * A refusal of the TaskContinuityWriteGate, by the engine or by the store that runs it: nothing is
 * written. `currentFence` is the fence read, omitted only when the refusal came before the read.
 */
export type CommitRefusal = EngineRefusal<string, { readonly currentFence?: TaskRecoveryCommitFenceV1 }>;

/** A decision to write `envelope` (compare-and-append against the fence of the envelope read). */
export interface CommitWrite {
  /** Always `true`. */
  readonly ok: true;
  /** Always `committed`. */
  readonly status: 'committed';
  /** The new envelope. */
  readonly envelope: TaskRecoveryStateV5;
  /** The new fence. */
  readonly fence: TaskRecoveryCommitFenceV1;
  /** For `terminal`, the receipt produced; else `null`. */
  readonly receipt: WorkflowTaskTerminalReceiptV1 | null;
}

/** A decision that writes nothing: an unchanged state, or an exact replay. */
export interface CommitNoWrite {
  /** Always `true`. */
  readonly ok: true;
  /** `semantic-noop` or `replayed`. */
  readonly status: 'semantic-noop' | 'replayed';
  /** The current envelope (unchanged). */
  readonly envelope: TaskRecoveryStateV5;
  /** The current fence. */
  readonly fence: TaskRecoveryCommitFenceV1;
  /** For a replayed `terminal`, the stored receipt; else `null`. */
  readonly receipt: WorkflowTaskTerminalReceiptV1 | null;
}

/** Outcome of a commit decision. */
export type CommitDecision = CommitWrite | CommitNoWrite | CommitRefusal;

const HEX = /^[a-f0-9]{64}$/;

export const isHex = (v: unknown): v is string => typeof v === 'string' && HEX.test(v);

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export const isPositiveInt = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 1;

export function refuse(
  code: string,
  message: string,
  currentFence?: TaskRecoveryCommitFenceV1,
): CommitRefusal {
  return currentFence ? refusal(code, message, { currentFence }) : refusal(code, message);
}
