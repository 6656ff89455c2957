// @module-tag unit
// Cross-check of two independent implementations of LocalTaskTraceGate: the recorder and replay
// in @agent-contracts/engines, and the reference validator's schema, digest and semantic rules.
// Every trace and replay the recorder produces must pass validate(), every (trace, replay) pair
// must pass the trace-replay bundle rules, and on schema-valid traces the engine's verdict must be
// exactly the validator's issues as (code, eventIndex) pairs.
import {
  appendToTrace,
  closeTrace,
  LocalTaskTraceRecorder,
  ManualClock,
  openTrace,
  replayTrace,
} from '@agent-contracts/engines';
import type { LocalTaskTraceV1 } from '@agent-contracts/schemas';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LOCAL_TASK_TRACE_FIXTURES } from '../../../scripts/fixtures/local-task-trace.ts';
import { validate, validateBundle } from '../src/index.ts';

const START = Date.parse('2026-11-30T05:53:08.114Z');
const PAIRS: Array<[string, string]> = [
  ['UserPromptSubmit', 'observed'],
  ['PreToolUse', 'observed'],
  ['PostToolUse', 'observed'],
  ['ToolLeaseStarted', 'allowed'],
  ['ToolLeaseCompleted', 'error'],
  ['ToolLeaseResultDeferred', 'observed'],
  ['Stop', 'observed'],
  // refused by the recorder: never in a trace
  ['PostToolUse', 'complete'],
  ['TurnTerminal', 'observed'],
  ['PreToolUse', 'allowed'],
];

function expectValid(doc: unknown): void {
  const r = validate(doc);
  expect(r.ok ? [] : r.issues).toEqual([]);
}

function expectConsistent(trace: unknown): void {
  expectValid(trace);
  const replay = replayTrace(trace);
  expectValid(replay);
  expect(replay.ok).toBe(true);
  const bundle = validateBundle({ kind: 'trace-replay', documents: [trace, replay] });
  expect(bundle.ok ? [] : bundle.issues).toEqual([]);
}

const op = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      kind: fc.constant('append' as const),
      pair: fc.constantFrom(...PAIRS),
      key: fc.integer({ min: 0, max: 40 }), // small range: re-deliveries happen
      size: fc.constantFrom(0, 0, 300, 7_000),
      stepMs: fc.integer({ min: -3_000, max: 30_000 }),
      expectNext: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('close' as const),
      result: fc.constantFrom('complete', 'failed', 'interrupted' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('open' as const), turn: fc.integer({ min: 0, max: 3 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('burst' as const), count: fc.integer({ min: 1, max: 140 }) }),
  },
);

describe('engine recorder output is valid for the reference validator', () => {
  it('every trace and replay of a random recorder session validates, and each pair forms a valid trace-replay bundle', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 30 }), (ops) => {
        const clock = new ManualClock(START);
        const recorder = new LocalTaskTraceRecorder(clock);
        expect(recorder.open({ turnKey: 'turn-0' }).ok).toBe(true);
        let n = 0;
        for (const o of ops) {
          if (o.kind === 'append') {
            clock.advance(o.stepMs);
            const trace = recorder.trace!;
            recorder.append({
              type: o.pair[0],
              result: o.pair[1],
              occurrenceKey: `call-${o.key}`,
              payload: o.size ? { blob: 'b'.repeat(o.size) } : { n: n++ },
              ...(o.expectNext ? { expectedSequence: trace.sequence + 1 } : {}),
            });
          } else if (o.kind === 'close') {
            recorder.close(o.result, 'host-stop');
          } else if (o.kind === 'open') {
            clock.advance(1_000);
            const r = recorder.open({ turnKey: `turn-${o.turn}` });
            if (r.ok && r.previous) expectConsistent(r.previous);
          } else {
            for (let i = 0; i < o.count; i++) {
              clock.advance(2);
              recorder.append({
                type: 'UnknownHostEvent',
                result: 'observed',
                occurrenceKey: `burst-${n++}`,
                payload: { i },
              });
            }
          }
          expectConsistent(recorder.trace);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('the replay of a missing trace validates', () => {
    expectValid(replayTrace(undefined));
  });
});

/** The validator's issues as the page's (errorCode, eventIndex) pairs. */
function validatorPairs(doc: unknown): string[] {
  const r = validate(doc);
  if (r.ok) return [];
  const pairs = r.issues.map((i) => {
    const m = /^\/events\/(\d+)(\/|$)/.exec(i.path);
    return `${i.code}@${m ? m[1] : 'null'}`;
  });
  return [...new Set(pairs)].sort();
}

function enginePairs(doc: unknown): string[] {
  return replayTrace(doc)
    .violations.map((v) => `${v.errorCode}@${v.eventIndex ?? 'null'}`)
    .sort();
}

describe('engine verdict = validator verdict on schema-valid traces', () => {
  const traces = LOCAL_TASK_TRACE_FIXTURES.find((s) => s.contract === 'LocalTaskTraceV1')!;

  for (const f of traces.semantic ?? []) {
    it(`${f.name}: same (code, eventIndex) pairs; the engine's replay of it validates`, () => {
      expect(enginePairs(f.document)).toEqual(validatorPairs(f.document));
      expect(enginePairs(f.document)).not.toEqual([]);
      const replay = replayTrace(f.document);
      expectValid(replay);
      expect(replay.errorCode).toBeTruthy();
    });
  }

  for (const [name, doc] of Object.entries(traces.valid)) {
    it(`${name}: valid for both, and the engine's replay is a valid projection of it`, () => {
      expect(enginePairs(doc)).toEqual([]);
      expectConsistent(doc);
    });
  }

  it('agrees on random single-field corruptions of recorder traces', () => {
    const clock = new ManualClock(START);
    let trace = (openTrace(null, { turnKey: 'turn-x' }, clock) as { trace: LocalTaskTraceV1 }).trace;
    for (let i = 0; i < 12; i++) {
      clock.advance(500);
      const r = appendToTrace(
        trace,
        { type: PAIRS[i % 7]![0], result: PAIRS[i % 7]![1], occurrenceKey: `k${i}`, payload: { i } },
        clock,
      );
      if (r.ok) trace = r.trace;
    }
    const closed = closeTrace(trace, 'complete', 'host-stop', clock);
    if (closed.ok) trace = closed.trace;
    const edits = fc.oneof(
      fc.record({ field: fc.constantFrom('sequence', 'sequenceBase', 'droppedEvents'), value: fc.nat(20) }),
      fc.record({
        field: fc.constant('status'),
        value: fc.constantFrom('open', 'complete', 'failed', 'interrupted'),
      }),
      fc.record({
        field: fc.constant('completedAt'),
        value: fc.constantFrom(null, trace.openedAt, trace.completedAt),
      }),
      fc.record({
        field: fc.constant('event'),
        index: fc.nat(trace.events.length - 1),
        key: fc.constantFrom('sequence', 'type', 'result', 'occurrenceKey', 'observedAt'),
        pick: fc.nat(100),
      }),
    );
    let invalid = 0;
    const TYPES = ['PreToolUse', 'TurnTerminal', 'ToolLeaseCompleted', 'Stop'];
    const RESULTS = ['observed', 'complete', 'success', 'allowed'];
    fc.assert(
      fc.property(fc.array(edits, { minLength: 1, maxLength: 3 }), (list) => {
        // biome-ignore lint/suspicious/noExplicitAny: the test edits the trace freely
        const doc = structuredClone(trace) as unknown as Record<string, any>;
        for (const e of list) {
          if (e.field !== 'event') doc[e.field] = e.value;
          else {
            const ev = doc.events[e.index];
            if (e.key === 'sequence') ev.sequence = 1 + (e.pick % 16);
            else if (e.key === 'type') ev.type = TYPES[e.pick % 4];
            else if (e.key === 'result') ev.result = RESULTS[e.pick % 4];
            else if (e.key === 'occurrenceKey') ev.occurrenceKey = `k${e.pick % 14}`;
            else ev.observedAt = new Date(START + e.pick * 100).toISOString();
          }
        }
        const pairs = enginePairs(doc);
        expect(pairs).toEqual(validatorPairs(doc));
        if (pairs.length > 0) invalid += 1;
      }),
      { numRuns: 300 },
    );
    expect(invalid).toBeGreaterThan(100);
  });
});
