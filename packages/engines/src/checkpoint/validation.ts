// CheckpointValidationResultV1: the decision table of response-time and post-execution checkpoint
// validation (docs/spec/turn-liveness-recovery-gate.md#decision-table).
import type {
  CheckpointObservedEvidenceV1,
  CheckpointTerminalEvidenceV1,
  CheckpointValidationResultV1,
  TurnTerminalStatus,
} from '@agent-contracts/schemas';
import { type Clock, timestampOf } from '../clock.js';
import { type EngineRefusal, refusal } from '../refusal.js';

/** One evidence item of a checkpoint validation. */
export type CheckpointEvidence = CheckpointObservedEvidenceV1 | CheckpointTerminalEvidenceV1;

/** The two validation modes, recorded separately. */
export type CheckpointValidationMode = CheckpointValidationResultV1['mode'];

/** At most this many evidence items are kept per validation. */
export const MAX_EVIDENCE_ITEMS = 16;

/** The action a caller gets with CHECKPOINT_MODE_INVALID. */
export const SELECT_MODE_ACTION = 'select-response-time-or-post-execution-mode';

/** The evidence kinds that can pass a post-execution validation. */
export const TERMINAL_EVIDENCE_KINDS: ReadonlySet<string> = new Set([
  'host-terminal-event',
  'host-native-terminal-status',
]);

/** Whether an evidence item is of a terminal kind (`host-terminal-event`, `host-native-terminal-status`). */
export function isTerminalEvidence(item: CheckpointEvidence): item is CheckpointTerminalEvidenceV1 {
  return TERMINAL_EVIDENCE_KINDS.has(item.kind);
}

const TERMINAL_EVENT_STATUS: Readonly<Record<string, TurnTerminalStatus>> = {
  Stop: 'completed',
  TurnError: 'error',
  TurnInterrupted: 'interrupted',
};

/**
 * What is wrong with one evidence item (CheckpointValidationResultV1 invariant 3), or `null`:
 * `host-terminal-event` items carry `Stop`/`TurnError`/`TurnInterrupted` with the matching status,
 * `tool-output` items carry `PostToolUse`, `pre-compact` items carry `PreCompact`, and
 * `sidecar-observation` and `host-native-terminal-status` items carry `UnknownHostEvent`.
 */
export function evidenceItemProblem(item: CheckpointEvidence): string | null {
  if (item.kind === 'host-terminal-event') {
    const status = TERMINAL_EVENT_STATUS[item.eventType];
    if (status === undefined)
      return `a host-terminal-event item has eventType ${item.eventType}; it must be Stop, TurnError or TurnInterrupted`;
    if (status !== (item as CheckpointTerminalEvidenceV1).terminalStatus)
      return `a host-terminal-event item for ${item.eventType} reports ${(item as CheckpointTerminalEvidenceV1).terminalStatus}; ${item.eventType} means ${status}`;
  }
  if (item.kind === 'tool-output' && item.eventType !== 'PostToolUse')
    return `a tool-output item has eventType ${item.eventType}; it must be PostToolUse`;
  if (item.kind === 'pre-compact' && item.eventType !== 'PreCompact')
    return `a pre-compact item has eventType ${item.eventType}; it must be PreCompact`;
  // A sidecar read and a host-native status read are not host events (D-TLR-57).
  if (
    (item.kind === 'sidecar-observation' || item.kind === 'host-native-terminal-status') &&
    item.eventType !== 'UnknownHostEvent'
  )
    return `a ${item.kind} item has eventType ${item.eventType}; it must be UnknownHostEvent`;
  return null;
}

/**
 * Keep at most {@link MAX_EVIDENCE_ITEMS} items: the oldest non-terminal items are dropped first
 * and terminal items are never dropped (D-TLR-21). Order is preserved.
 */
export function capEvidence(items: readonly CheckpointEvidence[]): CheckpointEvidence[] {
  const out = [...items];
  let excess = out.length - MAX_EVIDENCE_ITEMS;
  for (let i = 0; excess > 0 && i < out.length; ) {
    if (!isTerminalEvidence(out[i]!)) {
      out.splice(i, 1);
      excess--;
    } else i++;
  }
  return out;
}

/** The inputs of the decision table. */
export interface CheckpointValidationInput {
  /** The turn validated. */
  readonly turnKey: string;
  /** `response-time` or `post-execution`; any other value is refused (CHECKPOINT_MODE_INVALID). */
  readonly mode: string;
  /** Evidence items considered. */
  readonly evidence: readonly CheckpointEvidence[];
  /** Issues that block the checkpoint (kebab-case codes). */
  readonly blockingIssues?: readonly string[];
  /** Actions to record with a `blocked` outcome; the issues themselves when omitted. */
  readonly requiredActions?: readonly string[];
  /** Post-execution: `startedAt + operationLeaseMs + stalledAfterMs`; response-time: `null`. */
  readonly deadlineAt: string | null;
}

/** Result of {@link validateCheckpoint}. */
export type CheckpointValidationOutcome =
  | { readonly ok: true; readonly result: CheckpointValidationResultV1 }
  /** A refusal; `requiredActions` is what the caller does next. */
  | EngineRefusal<
      'CHECKPOINT_MODE_INVALID' | 'TURN_CHECKPOINT_VALIDATION_INCONSISTENT',
      { readonly requiredActions: readonly string[] }
    >;

/**
 * Judge a checkpoint by the decision table, at `clock.now()` (raised to the latest evidence time
 * when the clock is behind it, so a result never predates its own evidence). Row 0: an unknown
 * mode produces no document (CHECKPOINT_MODE_INVALID). Row 1: blocking issues -> `blocked`.
 * Row 2: a qualifying item (any item for response-time, a terminal-kind item for post-execution)
 * -> `pass`. Row 3: post-execution at or after `deadlineAt` -> `incomplete-timeout`. Row 4:
 * `unverified`. A `tool-output`, `pre-compact`, `host-event` or `sidecar-observation` item never
 * passes post-execution.
 *
 * @example
 * const r = validateCheckpoint(
 *   { turnKey: 't1', mode: 'post-execution', evidence: [], deadlineAt: '2026-11-30T06:16:12.000Z' },
 *   new ManualClock(Date.parse('2026-11-30T06:16:12.000Z')),
 * );
 * // r.ok && r.result.status === 'incomplete-timeout'
 */
export function validateCheckpoint(
  input: CheckpointValidationInput,
  clock: Clock,
): CheckpointValidationOutcome {
  const mode = input.mode;
  if (mode !== 'response-time' && mode !== 'post-execution') {
    return refusal(
      'CHECKPOINT_MODE_INVALID',
      `mode ${JSON.stringify(mode)} is neither response-time nor post-execution; call again with one of them.`,
      { requiredActions: [SELECT_MODE_ACTION] },
    );
  }
  const inconsistent = (message: string): CheckpointValidationOutcome =>
    refusal('TURN_CHECKPOINT_VALIDATION_INCONSISTENT', message, {
      requiredActions: ['recompute-from-valid-inputs'],
    });
  if (mode === 'post-execution' && input.deadlineAt === null)
    return inconsistent(
      'a post-execution validation needs its deadlineAt (startedAt + operationLeaseMs + stalledAfterMs).',
    );
  if (mode === 'response-time' && input.deadlineAt !== null)
    return inconsistent('a response-time validation has no deadline; pass deadlineAt: null.');
  for (const item of input.evidence) {
    const problem = evidenceItemProblem(item);
    if (problem) return inconsistent(`${problem}; fix the evidence item.`);
  }
  const evidence = capEvidence(input.evidence);
  const latestEvidence = Math.max(-Infinity, ...evidence.map((e) => Date.parse(e.observedAt)));
  const now = Math.max(clock.now(), latestEvidence);
  const blockingIssues = [...new Set(input.blockingIssues ?? [])];
  const base = {
    schemaVersion: 'CheckpointValidationResultV1' as const,
    turnKey: input.turnKey,
    mode: mode as CheckpointValidationMode,
    evidence,
    blockingIssues,
    observedAt: timestampOf(now),
    deadlineAt: input.deadlineAt,
  };
  const someEvidence = evidence.length > 0 ? ('source-backed' as const) : ('unverified' as const);
  let result: CheckpointValidationResultV1;
  if (blockingIssues.length > 0) {
    const supplied = [...new Set(input.requiredActions ?? [])];
    result = {
      ...base,
      status: 'blocked',
      blocking: true,
      evidenceState: someEvidence,
      requiredActions: supplied.length > 0 ? supplied : blockingIssues,
      errorCode: null,
    };
  } else if (evidence.some((e) => mode === 'response-time' || isTerminalEvidence(e))) {
    result = {
      ...base,
      status: 'pass',
      blocking: false,
      evidenceState: 'verified',
      requiredActions: [],
      errorCode: null,
    };
  } else if (mode === 'post-execution' && input.deadlineAt !== null && now >= Date.parse(input.deadlineAt)) {
    result = {
      ...base,
      status: 'incomplete-timeout',
      blocking: true,
      evidenceState: someEvidence,
      requiredActions: ['record-timeout-and-recover'],
      errorCode: 'TRACE_COMPLETION_TIMEOUT',
    };
  } else {
    result = {
      ...base,
      status: 'unverified',
      blocking: mode === 'post-execution',
      evidenceState: someEvidence,
      requiredActions: [`collect-${mode}-evidence`],
      errorCode: 'HOST_RESULT_INCOMPLETE',
    };
  }
  return { ok: true, result };
}
