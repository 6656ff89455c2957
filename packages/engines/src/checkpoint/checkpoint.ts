// CheckpointV1: where a turn stands and how a host would resume it
// (docs/spec/turn-liveness-recovery-gate.md#checkpointv1).
import type { CheckpointV1 } from '@agent-contracts/schemas';
import { idempotencyKey, resumeToken } from '@agent-contracts/schemas';
import { type EngineRefusal, refusal } from '../refusal.js';

/** The closed set of checkpoint phases, as the CheckpointV1 `phase` pattern states it. */
export type CheckpointPhase =
  | 'turn-started'
  | `tool:${string}`
  | 'tool-output-persisted'
  | 'tool-error-observed'
  | 'pre-compact'
  | 'execution-stop-required'
  | 'terminal:completed'
  | 'terminal:error'
  | 'terminal:interrupted';

/** At most this many artifact paths are kept (CheckpointV1 limits). */
export const MAX_ARTIFACT_PATHS = 32;

/** The fields of a checkpoint a caller chooses; the keys are derived. */
export interface CheckpointInput {
  /** The turn the checkpoint belongs to. */
  readonly turnKey: string;
  /** The phase (see {@link CheckpointPhase}). */
  readonly phase: CheckpointPhase;
  /** The operation the phase concerns, or `null`. */
  readonly operationId: string | null;
  /** Workspace-relative artifact paths produced so far (deduplicated, at most 32 kept, oldest first). */
  readonly artifactPaths: readonly string[];
  /** What the turn waits for or does next. */
  readonly nextAction: string;
  /** When the checkpoint was written (the event time that produced it). */
  readonly recordedAt: string;
}

/**
 * Build a CheckpointV1 whose `resumeToken` and `idempotencyKey` are derived from its own
 * `turnKey` and `operationId`, exactly as the spec's DigestRules recompute them.
 *
 * @example
 * const cp = buildCheckpoint({
 *   turnKey: 'req_1', phase: 'tool:Edit', operationId: 'op1', artifactPaths: [],
 *   nextAction: 'await PostToolUse', recordedAt: '2026-11-30T05:41:13.000Z',
 * });
 * cp.idempotencyKey?.startsWith('idem-'); // true
 */
export function buildCheckpoint(input: CheckpointInput): CheckpointV1 {
  return {
    schemaVersion: 'CheckpointV1',
    turnKey: input.turnKey,
    phase: input.phase,
    operationId: input.operationId,
    artifactPaths: mergeArtifactPaths([], input.artifactPaths),
    nextAction: input.nextAction,
    resumeToken: resumeToken(input.turnKey, input.operationId),
    idempotencyKey: idempotencyKey(input.turnKey, input.operationId),
    recordedAt: input.recordedAt,
  };
}

/**
 * Append `added` to `existing`, dropping duplicates and keeping the newest
 * {@link MAX_ARTIFACT_PATHS} entries (the oldest paths fall off first).
 *
 * @example
 * mergeArtifactPaths(['a.ts'], ['a.ts', 'b.ts']); // ['a.ts', 'b.ts']
 */
export function mergeArtifactPaths(existing: readonly string[], added: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of [...existing, ...added]) if (!out.includes(p)) out.push(p);
  return out.slice(Math.max(0, out.length - MAX_ARTIFACT_PATHS));
}

/** The parts of a TaskOperationRecordV1 the idempotency boundary looks at. */
export interface OperationRecordRef {
  readonly operationId: string;
  readonly idempotencyKey: string;
  readonly phase:
    | 'prepared'
    | 'dispatched'
    | 'observed'
    | 'settled'
    | 'reconcile-required'
    | 'aborted-zero-effect';
}

/** Result of {@link verifyResumeBoundary}. */
export type ResumeBoundaryResult =
  | {
      readonly ok: true;
      /**
       * `resume-allowed`: the operation is resolved or was never dispatched, so the host may resume
       * from the checkpoint; `reconcile-required`: its effect may have happened and is not settled,
       * so the host reconciles it (TaskContinuityWriteGate) and does not resume or replay.
       */
      readonly decision: 'resume-allowed' | 'reconcile-required';
    }
  | EngineRefusal<'TURN_CHECKPOINT_KEY_MISMATCH'>;

const RESUMABLE_PHASES: ReadonlySet<OperationRecordRef['phase']> = new Set([
  'prepared',
  'settled',
  'aborted-zero-effect',
]);

/**
 * The idempotency boundary a host checks before any resume (CheckpointV1 invariant 3): the
 * operation record named by the checkpoint must carry the checkpoint's `idempotencyKey`, and its
 * phase decides between resuming and reconciling. Pure: it never resumes anything itself.
 *
 * @example
 * const r = verifyResumeBoundary(checkpoint, { operationId: 'op1', idempotencyKey: checkpoint.idempotencyKey!, phase: 'dispatched' });
 * // r = { ok: true, decision: 'reconcile-required' }
 */
export function verifyResumeBoundary(
  checkpoint: CheckpointV1,
  record: OperationRecordRef | null,
): ResumeBoundaryResult {
  if (checkpoint.operationId === null) {
    return record === null
      ? { ok: true, decision: 'resume-allowed' }
      : refusal(
          'TURN_CHECKPOINT_KEY_MISMATCH',
          `the checkpoint concerns no operation but an operation record (${record.operationId}) was given; resume from a checkpoint of that operation instead.`,
        );
  }
  if (record === null) return { ok: true, decision: 'resume-allowed' };
  const expectedToken = resumeToken(checkpoint.turnKey, checkpoint.operationId);
  const expectedKey = idempotencyKey(checkpoint.turnKey, checkpoint.operationId);
  if (checkpoint.resumeToken !== expectedToken || checkpoint.idempotencyKey !== expectedKey) {
    return refusal(
      'TURN_CHECKPOINT_KEY_MISMATCH',
      'the checkpoint keys do not recompute from its turnKey and operationId; do not resume, rebuild the checkpoint from the state.',
    );
  }
  if (record.operationId !== checkpoint.operationId || record.idempotencyKey !== checkpoint.idempotencyKey) {
    return refusal(
      'TURN_CHECKPOINT_KEY_MISMATCH',
      `operation record ${record.operationId} carries idempotencyKey ${record.idempotencyKey} but the checkpoint expects ${checkpoint.operationId} with ${checkpoint.idempotencyKey}; do not resume, reconcile the operation first.`,
    );
  }
  return { ok: true, decision: RESUMABLE_PHASES.has(record.phase) ? 'resume-allowed' : 'reconcile-required' };
}
