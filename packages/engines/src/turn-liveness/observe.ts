// Read-only observation of a persisted state: rehydration after a restart, the one-shot sidecar
// (TurnLivenessEvidenceV1) and the host-native watchdog tick
// (docs/spec/turn-liveness-recovery-gate.md#rehydration, #turnlivenessevidencev1, #emission).
import { digestOf } from '@agent-contracts/digest';
import type {
  TurnLivenessEvidenceV1,
  TurnLivenessStateV1,
  TurnRecoveryCardV1,
} from '@agent-contracts/schemas';
import { type Clock, timestampOf } from '../clock.js';
import { type EngineRefusal, refusal } from '../refusal.js';
import { buildRecoveryCard, dueNoticeKey, observationBoundary, type StaleClassification } from './card.js';
import { classifyAt } from './classify.js';

/**
 * `sourceStateDigest` of a state: the JCS SHA-256 of the whole TurnLivenessStateV1 document, as
 * evidence and cards record it. Reading a state is read-only iff this is the same before and after.
 *
 * @example
 * turnStateDigest(state) === observeTurnState(state, clock).sourceStateDigest; // true
 */
export function turnStateDigest(state: unknown): string {
  return digestOf(state);
}

/**
 * A validator of TurnLivenessStateV1 documents (schema and invariants), e.g. `validate` from
 * `@agent-contracts/validators`. Injected so the engines stay free of the validators package.
 */
export type TurnStateCheck = (document: unknown) => {
  readonly ok: boolean;
  readonly issues?: readonly unknown[];
};

/** Result of {@link rehydrateTurnState}. */
export type RehydrateResult =
  | { readonly ok: true; readonly state: TurnLivenessStateV1 }
  | EngineRefusal<'TURN_STATE_INVALID', { readonly issues: readonly unknown[] }>;

/**
 * Rehydrate a persisted state after a restart: validate it and return it unchanged (the same
 * object, so its JCS digest is the same before and after), or refuse it with TURN_STATE_INVALID.
 * An invalid state is never repaired and never classified.
 *
 * @example
 * const r = rehydrateTurnState(JSON.parse(text), validate);
 * if (!r.ok) console.error(r.code); // start a new turn instead
 */
export function rehydrateTurnState(document: unknown, check: TurnStateCheck): RehydrateResult {
  const isState =
    document !== null &&
    typeof document === 'object' &&
    (document as { schemaVersion?: unknown }).schemaVersion === 'TurnLivenessStateV1';
  const verdict = isState ? check(document) : { ok: false, issues: [] };
  if (!verdict.ok) {
    return refusal(
      'TURN_STATE_INVALID',
      'the persisted TurnLivenessStateV1 fails its schema or invariants; fix or discard it and start a new turn (it is never classified).',
      { issues: verdict.issues ?? [] },
    );
  }
  return { ok: true, state: document as TurnLivenessStateV1 };
}

/**
 * One read-only sidecar observation of a (valid) state at `clock.now()`: copies the evidence
 * fields, states the digest of exactly what it read, records the classification, and carries an
 * observation-only boundary. It writes nothing and never emits a recovery card (a sidecar cannot
 * deduplicate).
 *
 * @example
 * const evidence = observeTurnState(state, clock);
 * evidence.sourceStateDigest === digestOf(state); // true
 */
export function observeTurnState(state: TurnLivenessStateV1, clock: Clock): TurnLivenessEvidenceV1 {
  const nowMs = clock.now();
  const c = classifyAt(state, nowMs);
  return {
    schemaVersion: 'TurnLivenessEvidenceV1',
    observedAt: timestampOf(nowMs),
    sourceStateDigest: turnStateDigest(state),
    sourceEventSequence: state.eventSequence,
    turnKey: state.turnKey,
    persistedState: state.state,
    classification: c.classification,
    reason: c.reason,
    referenceAt: c.referenceAt,
    elapsedMs: c.ageMs,
    startedAt: state.startedAt,
    lastEventType: state.lastEventType,
    lastEventAt: state.lastEventAt,
    lastToolOutputAt: state.lastToolOutputAt,
    continuationAckAt: state.continuationAckAt,
    inFlightOperation: state.inFlightOperation,
    thresholds: state.thresholds,
    checkpoint: state.checkpoint,
    checkpointValidation: state.checkpointValidation,
    taskTraceId: state.taskTraceId,
    capabilityBoundary: observationBoundary('read-only-sidecar'),
  };
}

/** Result of {@link watchdogCheck}: the state with the recorded notice key, and the card if one was due. */
export interface WatchdogResult {
  /** `state` itself when no card was emitted; otherwise a copy whose only change is `lastRecoveryNoticeKey`. */
  readonly state: TurnLivenessStateV1;
  readonly card: TurnRecoveryCardV1 | null;
}

/**
 * A host-native watchdog tick without an event: classify at `clock.now()` (raised to
 * `lastEventAt` when the clock is behind it) and emit a card only when the turn is stale and its
 * notice key differs from `lastRecoveryNoticeKey`. Re-running the tick, or a later event at the
 * same instant, yields the same key and no second card. It never acts.
 *
 * @example
 * const { state: next, card } = watchdogCheck(state, clock);
 */
export function watchdogCheck(state: TurnLivenessStateV1, clock: Clock): WatchdogResult {
  if (state.state !== 'running' && state.state !== 'awaiting-continuation') return { state, card: null };
  const nowMs = Math.max(clock.now(), Date.parse(state.lastEventAt!));
  const c = classifyAt(state, nowMs);
  const key = dueNoticeKey(state.turnKey!, state.lastRecoveryNoticeKey, c);
  if (key === null) return { state, card: null };
  const card = buildRecoveryCard(state, c as StaleClassification, nowMs, 'host-native-watchdog');
  return { state: { ...state, lastRecoveryNoticeKey: key }, card };
}
