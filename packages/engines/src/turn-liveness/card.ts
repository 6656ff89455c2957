// TurnRecoveryCardV1: the single advisory for a stale turn
// (docs/spec/turn-liveness-recovery-gate.md#turnrecoverycardv1). Building a card never acts.
import { digestOf } from '@agent-contracts/digest';
import type {
  TurnLivenessStateV1,
  TurnObservationBoundaryV1,
  TurnObserverKind,
  TurnRecoveryCardV1,
  TurnStaleReason,
  TurnStaleState,
} from '@agent-contracts/schemas';
import { noticeKey } from '@agent-contracts/schemas';
import { timestampOf } from '../clock.js';
import type { TurnClassification } from './classify.js';

/** The capability boundary every card and evidence document carries: observe only, every action flag `false`. */
export function observationBoundary(observer: TurnObserverKind): TurnObservationBoundaryV1 {
  return {
    mode: 'observation-only',
    observer,
    stateMutation: false,
    operationReplay: false,
    processControl: false,
    hostWakeup: false,
  };
}

/** A stale classification: what a card is built from. */
export interface StaleClassification extends TurnClassification {
  readonly classification: TurnStaleState;
  readonly reason: TurnStaleReason;
  readonly referenceAt: string;
  readonly ageMs: number;
}

/** The notice key of a stale classification of a turn (the card's dedupe key). */
export function noticeKeyOf(turnKey: string, c: StaleClassification): string {
  return noticeKey({ turnKey, referenceAt: c.referenceAt, priorState: c.classification, reason: c.reason });
}

/**
 * The notice key a card is due under at `c`, or `null` when none is: the turn is not stale, the
 * key is the one already recorded in `lastRecoveryNoticeKey`, or the turn was already reported as
 * `stalled-recoverable` for the same reference instant and the clock has since moved back into
 * the `suspect` window (a de-escalation never re-emits the earlier `suspect` card).
 */
export function dueNoticeKey(
  turnKey: string,
  lastRecoveryNoticeKey: string | null,
  c: TurnClassification,
): string | null {
  if (c.classification !== 'suspect' && c.classification !== 'stalled-recoverable') return null;
  const stale = c as StaleClassification;
  const key = noticeKeyOf(turnKey, stale);
  if (key === lastRecoveryNoticeKey) return null;
  if (stale.classification === 'suspect' && lastRecoveryNoticeKey !== null) {
    const escalated = noticeKeyOf(turnKey, {
      ...stale,
      classification: 'stalled-recoverable',
      reason: stale.reason === 'continuation-grace-expired' ? 'continuation-timeout' : stale.reason,
    });
    if (escalated === lastRecoveryNoticeKey) return null;
  }
  return key;
}

/**
 * Build the TurnRecoveryCardV1 for `source` (the state classified, before any triggering event
 * was applied) classified as `c` at `observedAtMs`. The card names the condition, copies the
 * evidence and the checkpoint, and recommends a host-driven resume; it never kills, restarts,
 * resumes or replays anything. `source` must be a valid `running` or `awaiting-continuation` state.
 *
 * @example
 * const card = buildRecoveryCard(state, stale, Date.parse('2026-11-30T05:46:14.000Z'), 'hook-event-time');
 * card.capabilityBoundary.processControl; // false
 */
export function buildRecoveryCard(
  source: TurnLivenessStateV1,
  c: StaleClassification,
  observedAtMs: number,
  observer: TurnObserverKind,
): TurnRecoveryCardV1 {
  const turnKey = source.turnKey!;
  const checkpoint = source.checkpoint!;
  const ageMs = Math.max(0, observedAtMs - Date.parse(c.referenceAt));
  const verify = checkpoint.idempotencyKey !== null;
  const inFlightOperationId =
    c.reason === 'operation-lease-expired' ? (source.inFlightOperation?.operationId ?? null) : null;
  const subject = inFlightOperationId ? ` (lease ${inFlightOperationId})` : '';
  const advice = verify
    ? `verify idempotency key ${checkpoint.idempotencyKey} against the operation record before the host resumes from checkpoint ${checkpoint.phase}`
    : `the host may resume from checkpoint ${checkpoint.phase}`;
  return {
    schemaVersion: 'TurnRecoveryCardV1',
    noticeKey: noticeKeyOf(turnKey, c),
    observedAt: timestampOf(observedAtMs),
    turnKey,
    priorState: c.classification,
    reason: c.reason,
    referenceAt: c.referenceAt,
    ageMs,
    sourceStateDigest: digestOf(source),
    sourceEventSequence: source.eventSequence,
    lastEventType: source.lastEventType!,
    lastEventAt: source.lastEventAt!,
    lastToolOutputAt: source.lastToolOutputAt,
    continuationAckAt: source.continuationAckAt,
    inFlightOperationId,
    checkpoint,
    recommendedAction: verify ? 'verify-idempotency-then-resume-via-host' : 'resume-from-checkpoint-via-host',
    message: `Turn ${turnKey}${subject} is ${c.classification} (${c.reason}, ${ageMs} ms after ${c.referenceAt}). No action was taken; ${advice}.`,
    capabilityBoundary: observationBoundary(observer),
  };
}
