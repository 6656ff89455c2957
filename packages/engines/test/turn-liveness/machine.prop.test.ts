// @module-tag unit
// Model-based property test of the liveness core: random host events with a clock that moves
// forwards and backwards, plus watchdog ticks and sidecar reads. Checks the gate's invariants
// after every step.
import { digestOf } from '@agent-contracts/digest';
import type { TurnLivenessStateV1, TurnRecoveryCardV1 } from '@agent-contracts/schemas';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyTurnEvent,
  createTurnState,
  isTerminalState,
  ManualClock,
  observeTurnState,
  type TurnHostEvent,
  watchdogCheck,
} from '../../src/index.ts';
import { neverActs, T0 } from './helpers.ts';

type Step =
  | { kind: 'event'; dt: number; event: (at: number) => TurnHostEvent; unresolved: boolean }
  | { kind: 'watchdog'; dt: number }
  | { kind: 'sidecar'; dt: number };

const ops = fc.constantFrom('op1', 'op2', 'op3');
const dt = fc.oneof(
  fc.integer({ min: -400_000, max: 400_000 }),
  fc.constantFrom(0, 1, 119_999, 120_000, 300_000, 1_800_000, 2_100_000, -5000),
);
const eventArb: fc.Arbitrary<(at: number) => TurnHostEvent> = fc.oneof(
  fc.record({ key: fc.option(fc.constantFrom('req_a', 'req_b', 'req_c'), { nil: undefined }) }).map(
    ({ key }) =>
      (at: number): TurnHostEvent =>
        key
          ? { type: 'UserPromptSubmit', at, turnKey: key }
          : { type: 'UserPromptSubmit', at, sessionKey: 'sess' },
  ),
  fc.record({ op: ops, blocked: fc.boolean(), mutating: fc.boolean() }).map(
    ({ op, blocked, mutating }) =>
      (at: number): TurnHostEvent => ({
        type: 'PreToolUse',
        at,
        operationId: op,
        toolName: 'Bash',
        hostDecision: blocked ? 'blocked' : 'allowed',
        mutating,
        targetPaths: ['src/x.ts'],
      }),
  ),
  fc.record({ op: ops, error: fc.boolean() }).map(
    ({ op, error }) =>
      (at: number): TurnHostEvent => ({
        type: 'PostToolUse',
        at,
        operationId: op,
        outcome: error ? 'error' : 'success',
      }),
  ),
  fc.constantFrom('PreCompact', 'Stop', 'TurnError', 'TurnInterrupted', 'UnknownHostEvent').map(
    (type) =>
      (at: number): TurnHostEvent => ({ type: type as 'Stop', at }),
  ),
);
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('event' as const),
      dt,
      event: eventArb,
      unresolved: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('watchdog' as const), dt }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('sidecar' as const), dt }) },
);

const ms = (s: string | null) => (s === null ? null : Date.parse(s));
const le = (a: string | null, b: string | null) => a === null || b === null || Date.parse(a) <= Date.parse(b);

function checkState(s: TurnLivenessStateV1): void {
  expect(['idle', 'running', 'awaiting-continuation', 'completed', 'error', 'interrupted']).toContain(
    s.state,
  );
  if (isTerminalState(s.state)) {
    expect(s.inFlightOperation).toBeNull();
    expect(s.checkpoint!.phase).toBe(`terminal:${s.state}`);
  }
  if (s.inFlightOperation) expect(s.state).toBe('running');
  if (s.state === 'awaiting-continuation') {
    expect(s.lastToolOutputAt).not.toBeNull();
    expect(s.continuationAckAt === null || ms(s.continuationAckAt)! < ms(s.lastToolOutputAt)!).toBe(true);
  }
  expect(le(s.initializedAt, s.startedAt) && le(s.startedAt, s.lastEventAt)).toBe(true);
  for (const f of [s.lastToolOutputAt, s.continuationAckAt, s.terminalAt])
    expect(le(s.startedAt, f) && le(f, s.lastEventAt)).toBe(true);
  expect(le(s.previousTurn?.terminalAt ?? null, s.startedAt)).toBe(true);
  if (s.previousTurn) expect(s.previousTurn.turnKey).not.toBe(s.turnKey);
  const pe = s.checkpointValidation?.postExecution;
  if (pe?.status === 'pass') {
    expect(isTerminalState(s.state)).toBe(true);
    expect(pe.evidence.some((e) => 'terminalStatus' in e && e.terminalStatus === s.state)).toBe(true);
  }
  if (pe) expect(pe.evidence.length).toBeLessThanOrEqual(16);
}

describe('turn liveness model', () => {
  it('keeps every invariant under random events, clock jumps (also backwards), watchdog ticks and sidecar reads', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 40 }), (steps) => {
        const clock = new ManualClock(T0);
        let state = createTurnState({ initializedAt: T0 });
        const cards: TurnRecoveryCardV1[] = [];
        for (const step of steps) {
          clock.advance(step.dt);
          const before = state;
          const beforeDigest = digestOf(before);
          if (step.kind === 'sidecar') {
            const ev = observeTurnState(state, clock);
            expect(ev.sourceStateDigest).toBe(beforeDigest);
            expect(digestOf(state)).toBe(beforeDigest);
            continue;
          }
          if (step.kind === 'watchdog') {
            const r = watchdogCheck(state, clock);
            if (r.card) {
              cards.push(r.card);
              expect(r.state).toEqual({ ...before, lastRecoveryNoticeKey: r.card.noticeKey });
              expect(r.card.sourceStateDigest).toBe(beforeDigest);
            } else expect(r.state).toBe(before);
            state = r.state;
            checkState(state);
            continue;
          }
          const event = step.event(clock.now());
          const r = applyTurnEvent(state, event, { unresolvedOperation: step.unresolved });
          state = r.state;
          // Counting: +1 per delivered event; time evidence never moves backwards.
          expect(state.eventSequence).toBe(before.eventSequence + 1);
          expect(state.lastEventType).toBe(event.type);
          expect(le(before.lastEventAt, state.lastEventAt)).toBe(true);
          // A tool output never completes a turn; a refused Stop never does either.
          if (event.type === 'PostToolUse' && !isTerminalState(before.state))
            expect(isTerminalState(state.state)).toBe(false);
          if (!r.ok && r.code === 'TURN_TERMINAL_OPERATIONS_UNSETTLED')
            expect(state.state).toBe(before.state);
          // Refused in idle or terminal: nothing but the count moves.
          if (!r.ok && (r.code === 'TURN_NOT_STARTED' || r.code === 'TURN_TERMINAL_FINAL')) {
            expect({ ...state, eventSequence: 0, lastEventType: null, lastEventAt: null }).toEqual({
              ...before,
              eventSequence: 0,
              lastEventType: null,
              lastEventAt: null,
            });
          }
          if (r.card) {
            cards.push(r.card);
            expect(r.card.sourceStateDigest).toBe(beforeDigest);
            expect(r.card.noticeKey).not.toBe(before.lastRecoveryNoticeKey);
            expect(Date.parse(r.card.lastEventAt)).toBeLessThanOrEqual(Date.parse(r.card.observedAt));
          }
          checkState(state);
        }
        // At most one card per notice key, and none of them acts.
        expect(new Set(cards.map((c) => c.noticeKey)).size).toBe(cards.length);
        for (const c of cards) neverActs(c);
      }),
      { numRuns: 400 },
    );
  });
});
