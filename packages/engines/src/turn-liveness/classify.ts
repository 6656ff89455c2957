// Liveness classification: a pure function of a persisted state and a clock
// (docs/spec/turn-liveness-recovery-gate.md#classification).
import type {
  TurnClassificationReason,
  TurnLivenessStateV1,
  TurnLivenessThresholdsV1,
  TurnOperationLeaseV1,
  TurnPersistedState,
  TurnStateName,
} from '@agent-contracts/schemas';
import type { Clock } from '../clock.js';

/** The result of {@link classify}. */
export interface TurnClassification {
  /** The classified state: a persisted state, or `suspect` / `stalled-recoverable`. */
  readonly classification: TurnStateName;
  /** The row of the classification table that matched. */
  readonly reason: TurnClassificationReason;
  /** The instant the age is measured from; `null` for idle and terminal states. */
  readonly referenceAt: string | null;
  /** `max(0, now - referenceAt)` in whole milliseconds; `null` iff `referenceAt` is `null`. */
  readonly ageMs: number | null;
}

/** The fields classification reads (a state, or the copies an evidence document carries). */
export interface ClassificationInput {
  readonly state: TurnPersistedState;
  readonly inFlightOperation: Pick<TurnOperationLeaseV1, 'leaseExpiresAt'> | null;
  readonly lastToolOutputAt: string | null;
  readonly lastEventAt: string | null;
  readonly thresholds: TurnLivenessThresholdsV1;
}

const TERMINAL: ReadonlySet<string> = new Set(['completed', 'error', 'interrupted']);

/** Whether a state name is one of the three terminal statuses. */
export function isTerminalState(state: string): state is 'completed' | 'error' | 'interrupted' {
  return TERMINAL.has(state);
}

/** Whether a classification makes a turn stale (and so may produce a recovery card). */
export function isStale(classification: TurnStateName): classification is 'suspect' | 'stalled-recoverable' {
  return classification === 'suspect' || classification === 'stalled-recoverable';
}

/**
 * The classification table at `nowMs` (milliseconds since the epoch). Rows are tried in order and
 * the first match wins; age is clamped at 0, so a clock behind the evidence never makes a turn
 * stale. The input must come from a valid state (see {@link rehydrateTurnState}).
 */
export function classifyAt(input: ClassificationInput, nowMs: number): TurnClassification {
  const { state, inFlightOperation: lease, thresholds: th } = input;
  if (isTerminalState(state))
    return { classification: state, reason: 'terminal-state', referenceAt: null, ageMs: null };
  if (state === 'idle') return { classification: 'idle', reason: 'idle', referenceAt: null, ageMs: null };
  const row = (
    classification: TurnStateName,
    reason: TurnClassificationReason,
    referenceAt: string,
    ageMs: number,
  ): TurnClassification => ({ classification, reason, referenceAt, ageMs });
  if (lease !== null) {
    const exp = Date.parse(lease.leaseExpiresAt);
    const age = Math.max(0, nowMs - exp);
    if (nowMs < exp) return row('running', 'active-operation-lease', lease.leaseExpiresAt, age);
    if (age < th.stalledAfterMs) return row('suspect', 'operation-lease-expired', lease.leaseExpiresAt, age);
    return row('stalled-recoverable', 'operation-lease-expired', lease.leaseExpiresAt, age);
  }
  if (state === 'awaiting-continuation') {
    const ref = input.lastToolOutputAt!;
    const age = Math.max(0, nowMs - Date.parse(ref));
    if (age < th.suspectAfterMs) return row('awaiting-continuation', 'within-grace', ref, age);
    if (age < th.stalledAfterMs) return row('suspect', 'continuation-grace-expired', ref, age);
    return row('stalled-recoverable', 'continuation-timeout', ref, age);
  }
  const ref = input.lastEventAt!;
  const age = Math.max(0, nowMs - Date.parse(ref));
  if (age < th.operationLeaseMs) return row('running', 'agent-turn-within-lease', ref, age);
  if (age < th.operationLeaseMs + th.stalledAfterMs)
    return row('suspect', 'agent-turn-lease-expired', ref, age);
  return row('stalled-recoverable', 'agent-turn-lease-expired', ref, age);
}

/**
 * `classify(state, now)`: the liveness classification of a persisted state at `clock.now()`.
 * Pure: it reads the clock once and changes no byte of the state; its result is never stored.
 *
 * @example
 * const c = classify(state, new ManualClock(Date.parse('2026-11-30T05:43:14.000Z')));
 * // c.classification === 'suspect', c.reason === 'continuation-grace-expired'
 */
export function classify(state: TurnLivenessStateV1, clock: Clock): TurnClassification {
  return classifyAt(state, clock.now());
}
