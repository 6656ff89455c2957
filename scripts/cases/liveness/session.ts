// A mirror of one implementation session: each method sends one step and computes what it expects
// by running the pure engines on the mirror's state with the same fixed clock.
import {
  applyTurnEvent,
  type CheckpointEvidence,
  classify,
  createTurnState,
  type LeaseRequest,
  LocalTaskTraceRecorder,
  ManualClock,
  observeTurnState,
  rehydrateTurnState,
  requestLease,
  type TraceAppendInput,
  type TraceAppendResult,
  type TraceOpenInput,
  type TraceRefusal,
  type TurnEventContext,
  validateCheckpoint,
  watchdogCheck,
} from '@agent-contracts/engines';
import type { Step } from '@agent-contracts/harness';
import type {
  LocalTaskTraceTerminalResult,
  TurnLivenessStateV1,
  TurnLivenessThresholdsV1,
} from '@agent-contracts/schemas';
import { validate } from '@agent-contracts/validators';
import { engineEvent, type WireEvent } from './events.ts';
import { iso, T0 } from './names.ts';

/** Round-trip through JSON: what the implementation's reply looks like on the wire. */
export const wire = <T>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T));
// A step's `{ state, card }`: exactly, unless there is a card, whose free-text `message` (a
// human-readable notice the page gives no wording for) is left out of the comparison.
const stepExpect = (state: unknown, card: { message: string } | null) => {
  if (card === null) return { result: wire({ state, card }) };
  const { message: _message, ...rest } = wire(card);
  return { match: { state: wire(state), card: rest } };
};
/**
 * A refused event's expectation: its code, and the counted state and card its `data` carries as a
 * result would (docs/protocol.md, liveness.event); a card's message is the implementation's text.
 */
const refusedExpect = (code: string, state: unknown, card: { message: string } | null) => {
  if (card === null) return { error: code, data: wire({ state, card }) };
  const { message: _message, ...rest } = wire(card);
  return { error: code, data: { state: wire(state), card: rest } };
};
/**
 * A refused trace operation's expectation: its code and the `data` docs/protocol.md requires
 * (`step`; `violations` for A2, compared without their messages; `eventId` for A7).
 */
const traceRefused = (r: TraceRefusal) => ({
  error: r.code,
  data: {
    step: r.step,
    ...(r.violations
      ? { violations: r.violations.map(({ errorCode, eventIndex }) => ({ errorCode, eventIndex })) }
      : {}),
    ...(r.eventId ? { eventId: r.eventId } : {}),
  },
});
type Expect = Step['expect'];

/** Params of checkpoint.validate (the engine's CheckpointValidationInput). */
export interface CheckpointParams {
  readonly turnKey: string;
  readonly mode: string;
  readonly evidence: readonly CheckpointEvidence[];
  readonly deadlineAt: string | null;
  readonly blockingIssues?: readonly string[];
  readonly requiredActions?: readonly string[];
}

/** A mirror of one implementation session: its clock, turn state and trace, and the steps sent so far. */
export class Session {
  readonly steps: Step[] = [];
  readonly clock = new ManualClock(T0);
  turn: TurnLivenessStateV1 = createTurnState({ initializedAt: T0 });
  turnValid = true;
  recorder = new LocalTaskTraceRecorder(this.clock);
  /** Whether a step expects a TurnTerminal the recorder built itself (close, or O2 in `open`). */
  recorderTerminal = false;

  step(method: string, params: unknown, expect: Expect, capture?: Record<string, string>): void {
    this.steps.push({ method, params, expect, ...(capture ? { capture } : {}) });
  }
  get now(): number {
    return this.clock.now();
  }

  // clock
  set(ms: number): this {
    this.clock.set(ms);
    this.step('clock.set', { now: iso(ms) }, { result: { now: iso(ms) } });
    return this;
  }
  advance(ms: number): this {
    this.clock.advance(ms);
    this.step('clock.advance', { ms }, { result: { now: iso(this.now) } });
    return this;
  }

  // liveness
  reset(thresholds?: Partial<TurnLivenessThresholdsV1>): this {
    this.turn = createTurnState({ initializedAt: this.now, ...(thresholds ? { thresholds } : {}) });
    this.turnValid = true;
    this.step('liveness.reset', thresholds ? { thresholds } : {}, { result: wire(this.turn) });
    return this;
  }
  /** Deliver a host event; the step expects the whole result, or the refusal's code. */
  event(e: WireEvent, context?: TurnEventContext): ReturnType<typeof applyTurnEvent> {
    const r = applyTurnEvent(this.turn, engineEvent(e, this.now), context ?? { unresolvedOperation: false });
    this.turn = r.state;
    this.step(
      'liveness.event',
      { event: e, ...(context ? { context } : {}) },
      r.ok ? stepExpect(r.state, r.card) : refusedExpect(r.code, r.state, r.card),
    );
    return r;
  }
  /** Several events whose results must all be accepted. */
  events(...es: WireEvent[]): this {
    for (const e of es) {
      const r = this.event(e);
      if (!r.ok) throw new Error(`setup event ${e.type} was refused: ${r.code}`);
    }
    return this;
  }
  state(): this {
    this.step(
      'liveness.state',
      {},
      this.turnValid ? { result: wire(this.turn) } : { error: 'TURN_STATE_INVALID' },
    );
    return this;
  }
  classify(): ReturnType<typeof classify> | null {
    if (!this.turnValid) {
      this.step('liveness.classify', {}, { error: 'TURN_STATE_INVALID' });
      return null;
    }
    const c = classify(this.turn, this.clock);
    this.step('liveness.classify', {}, { result: wire(c) });
    return c;
  }
  evidence(): this {
    this.step(
      'liveness.evidence',
      {},
      this.turnValid
        ? { result: wire(observeTurnState(this.turn, this.clock)) }
        : { error: 'TURN_STATE_INVALID' },
    );
    return this;
  }
  watchdog(): ReturnType<typeof watchdogCheck> {
    const r = watchdogCheck(this.turn, this.clock);
    this.turn = r.state;
    this.step('liveness.watchdog', {}, stepExpect(r.state, r.card));
    return r;
  }
  lease(request: LeaseRequest): this {
    const r = requestLease(this.turn, request);
    this.step('liveness.lease', request, r.ok ? { result: { ok: true } } : { error: r.code });
    return this;
  }
  /** `liveness.rehydrate` of a document (passed as `param`, e.g. a `$fixture` or `$var` reference). */
  rehydrate(document: unknown, param: unknown = document): this {
    const r = rehydrateTurnState(document, (d) => validate(d, { contract: 'TurnLivenessStateV1' }));
    this.turnValid = r.ok;
    if (r.ok) this.turn = r.state;
    this.step('liveness.rehydrate', { state: param }, r.ok ? { result: wire(r.state) } : { error: r.code });
    return this;
  }

  // checkpoint
  checkpoint(params: CheckpointParams): this {
    const r = validateCheckpoint(params, this.clock);
    this.step(
      'checkpoint.validate',
      params,
      r.ok
        ? { result: wire(r.result) }
        : { error: r.code, data: { requiredActions: [...r.requiredActions] } },
    );
    return this;
  }

  // trace
  traceLoad(document: unknown, param: unknown = document): this {
    this.recorder = new LocalTaskTraceRecorder(this.clock, document);
    this.step('trace.load', { trace: param }, { result: null });
    return this;
  }
  traceOpen(input: TraceOpenInput): this {
    const before = this.recorder.trace;
    const r = this.recorder.open(input);
    // O2: opening another turn closes the open trace with a terminal the recorder builds, so
    // `previous` is a new trace rather than the one held before.
    if (r.ok && r.previous !== null && r.previous !== before) this.recorderTerminal = true;
    this.step(
      'trace.open',
      input,
      r.ok
        ? { result: wire({ trace: r.trace, unchanged: r.unchanged, previous: r.previous }) }
        : traceRefused(r),
    );
    return this;
  }
  /** Append; `expect` 'full' compares the whole reply, 'brief' only the event written and what was dropped. */
  traceAppend(input: TraceAppendInput, expect: 'full' | 'brief' = 'full'): TraceAppendResult {
    return this.#appended('trace.append', input, this.recorder.append(input), expect);
  }
  traceClose(result: LocalTaskTraceTerminalResult, reason: string): TraceAppendResult {
    const r = this.recorder.close(result, reason);
    if (r.ok) this.recorderTerminal = true;
    return this.#appended('trace.close', { result, reason }, r, 'full');
  }
  #appended(
    method: string,
    params: unknown,
    r: TraceAppendResult,
    expect: 'full' | 'brief',
  ): TraceAppendResult {
    if (!r.ok) this.step(method, params, traceRefused(r));
    else if (expect === 'full')
      this.step(method, params, { result: wire({ trace: r.trace, event: r.event, dropped: r.dropped }) });
    else
      this.step(method, params, {
        match: {
          trace: {
            sequence: r.trace.sequence,
            sequenceBase: r.trace.sequenceBase,
            droppedEvents: r.trace.droppedEvents,
            prefixDigest: r.trace.prefixDigest,
          },
          event: { eventId: r.event.eventId, sequence: r.event.sequence, observedAt: r.event.observedAt },
          dropped: r.dropped.map((d) => ({ eventId: d.eventId, sequence: d.sequence })),
        },
      });
    return r;
  }
  traceReplay(): this {
    // Every member of the replay but the violations' free-text `message`, which the schema says
    // conformance never compares (LocalTaskTraceReplayV1 `violations[].message`).
    const replay = wire(this.recorder.replay()) as { violations: { message?: unknown }[] };
    const violations = replay.violations.map(({ message: _message, ...rest }) => rest);
    this.step('trace.replay', {}, { match: { ...replay, violations } });
    return this;
  }
  traceCurrent(): this {
    this.step('trace.current', {}, { result: wire(this.recorder.trace) });
    return this;
  }
}
