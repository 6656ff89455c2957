// @module-tag unit
// @module-tag slow
// Every document the turn-liveness and checkpoint engines produce is valid under the reference
// validator (schema, digests, semantic and bundle rules), over random event sequences with a clock
// that also moves backwards; an invalid state is refused on rehydration with TURN_STATE_INVALID.

import {
  applyTurnEvent,
  createTurnState,
  ManualClock,
  observeTurnState,
  rehydrateTurnState,
  type TurnHostEvent,
  validateCheckpoint,
  watchdogCheck,
} from '@agent-contracts/engines';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validate, validateBundle } from '../src/index.ts';

const T0 = Date.parse('2026-11-30T05:41:12.000Z');
const expectValid = (doc: unknown) => {
  const r = validate(doc);
  expect(r.ok ? [] : r.issues).toEqual([]);
};

const ops = fc.constantFrom('op1', 'op2');
const eventArb: fc.Arbitrary<(at: number) => TurnHostEvent> = fc.oneof(
  fc.constantFrom('req_a', 'req_b', undefined).map(
    (k) =>
      (at: number): TurnHostEvent =>
        k ? { type: 'UserPromptSubmit', at, turnKey: k } : { type: 'UserPromptSubmit', at, sessionKey: 's1' },
  ),
  fc.record({ op: ops, blocked: fc.boolean(), mutating: fc.boolean() }).map(
    ({ op, blocked, mutating }) =>
      (at: number): TurnHostEvent => ({
        type: 'PreToolUse',
        at,
        operationId: op,
        toolName: 'Edit',
        hostDecision: blocked ? 'blocked' : 'allowed',
        mutating,
        targetPaths: ['src/a.ts', 'docs/b.md'],
        operationRecordDigest: mutating ? 'a'.repeat(64) : null,
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
const dt = fc.oneof(
  fc.integer({ min: -200_000, max: 400_000 }),
  fc.constantFrom(120_000, 300_000, 1_800_000, 2_100_000),
);
const steps = fc.array(fc.record({ dt, event: eventArb, unresolved: fc.boolean(), watchdog: fc.boolean() }), {
  minLength: 1,
  maxLength: 30,
});

describe('engine documents validate', () => {
  it('states, cards and sidecar evidence from random runs are valid alone and in bundles', () => {
    fc.assert(
      fc.property(steps, (run) => {
        const clock = new ManualClock(T0);
        let state = createTurnState({ initializedAt: T0 });
        expectValid(state);
        const cards: unknown[] = [];
        for (const step of run) {
          clock.advance(step.dt);
          if (step.watchdog) {
            const tick = watchdogCheck(state, clock);
            if (tick.card) {
              expectValid(tick.card);
              expect(validateBundle({ kind: 'turn-state-card', documents: [state, tick.card] }).ok).toBe(
                true,
              );
              cards.push(tick.card);
            }
            state = tick.state;
          }
          const before = state;
          const r = applyTurnEvent(state, step.event(clock.now()), { unresolvedOperation: step.unresolved });
          state = r.state;
          expectValid(state);
          if (r.card) {
            expectValid(r.card);
            const b = validateBundle({ kind: 'turn-state-card', documents: [before, r.card] });
            expect(b.ok ? [] : b.issues).toEqual([]);
            cards.push(r.card);
          }
          const evidence = observeTurnState(state, clock);
          expectValid(evidence);
          const b = validateBundle({ kind: 'turn-state-evidence', documents: [state, evidence, state] });
          expect(b.ok ? [] : b.issues).toEqual([]);
          if (state.checkpoint) expectValid(state.checkpoint);
          if (state.checkpointValidation) {
            expectValid(state.checkpointValidation.responseTime);
            expectValid(state.checkpointValidation.postExecution);
          }
        }
        if (cards.length)
          expect(validateBundle({ kind: 'turn-recovery-cards', documents: cards }).ok).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('the checkpoint validator output agrees with the validator for every decision-table row', () => {
    const deadlineAt = new Date(T0 + 2_100_000).toISOString();
    const kinds = fc.constantFrom(
      'host-event',
      'tool-output',
      'pre-compact',
      'sidecar-observation',
      'host-terminal-event',
      'host-native-terminal-status',
    );
    fc.assert(
      fc.property(
        fc.constantFrom('response-time', 'post-execution'),
        fc.array(fc.record({ kind: kinds, at: fc.integer({ min: 0, max: 3_000_000 }) }), { maxLength: 20 }),
        fc.boolean(),
        fc.integer({ min: -100_000, max: 3_000_000 }),
        (mode, items, blocked, now) => {
          const evidence = items.map(({ kind, at }, i) => {
            const observedAt = new Date(T0 + at).toISOString();
            if (kind === 'host-terminal-event')
              return {
                kind,
                eventType: 'TurnError' as const,
                eventSequence: i,
                observedAt,
                terminalStatus: 'error' as const,
              };
            if (kind === 'host-native-terminal-status')
              return {
                kind,
                eventType: 'UnknownHostEvent' as const,
                eventSequence: i,
                observedAt,
                terminalStatus: 'completed' as const,
              };
            const eventType =
              kind === 'tool-output'
                ? 'PostToolUse'
                : kind === 'pre-compact'
                  ? 'PreCompact'
                  : 'UnknownHostEvent';
            return { kind, eventType: eventType as 'PostToolUse', eventSequence: i, observedAt };
          });
          const r = validateCheckpoint(
            {
              turnKey: 'req_v',
              mode,
              evidence,
              blockingIssues: blocked ? ['task-operation-unsettled'] : [],
              deadlineAt: mode === 'post-execution' ? deadlineAt : null,
            },
            new ManualClock(T0 + now),
          );
          expect(r.ok).toBe(true);
          if (r.ok) expectValid(r.result);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('rehydration refuses a state the validator rejects (TURN_STATE_INVALID) and returns a valid one unchanged', () => {
    let state = createTurnState({ initializedAt: T0 });
    state = applyTurnEvent(
      state,
      { type: 'UserPromptSubmit', at: T0, turnKey: 'req_r' },
      { unresolvedOperation: false },
    ).state;
    const ok = rehydrateTurnState(state, validate);
    expect(ok.ok && ok.state).toBe(state);
    const bad = rehydrateTurnState({ ...state, state: 'suspect' }, validate);
    expect(bad).toMatchObject({ ok: false, code: 'TURN_STATE_INVALID' });
    const unordered = rehydrateTurnState(
      { ...state, initializedAt: new Date(T0 + 1).toISOString() },
      validate,
    );
    expect(unordered).toMatchObject({ ok: false, code: 'TURN_STATE_INVALID' });
  });
});
