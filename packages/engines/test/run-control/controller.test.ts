// @module-tag unit
// The reference run controller (docs/spec/run-control-gate.md#run-controller), on the pure
// function: budgets, pauses, terminal states, loop detection and retries after an unknown outcome.
import { digestOf } from '@agent-contracts/digest';
import {
  computeRunId,
  computeRunStateDigest,
  type RunEvent,
  type RunStateV1,
} from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import { ManualClock, RUN_REFUSALS, type RunStepOutcome, stepRun } from '../../src/index.ts';

const T0 = Date.parse('2026-12-01T09:00:00.000Z');
const BUDGET = {
  maxSteps: 5,
  maxToolCalls: 6,
  maxRetries: 1,
  maxDurationMs: 60_000,
  maxCostMicros: 100_000,
  currency: 'USD',
};
const start = (over: Partial<Extract<RunEvent, { type: 'start' }>> = {}): RunEvent => ({
  type: 'start',
  taskId: 'task-1',
  mode: 'bounded',
  controls: { cancellable: true, takeoverChannel: 'ops://on-call' },
  budget: BUDGET,
  thresholds: { repeatedAction: 3, repeatedError: 3, noProgressSteps: 3 },
  ...over,
});
const ACTION = digestOf({ toolName: 'run_tests', input: { filter: 'auth' } });
const call = (callId: string, retryOf: string | null = null, actionDigest = ACTION): RunEvent => ({
  type: 'tool-called',
  callId,
  toolName: 'run_tests',
  actionDigest,
  retryOf,
});
const failed = (callId: string, errorClass: 'transient' | 'permanent' | 'unknown-outcome'): RunEvent => ({
  type: 'tool-result',
  callId,
  outcome: 'failed',
  errorClass,
  errorCode: 'E1',
  costMicros: 0,
});
const SIGNALS = [
  'approval-requested',
  'approval-granted',
  'dependency-wait',
  'dependency-ready',
  'replanned',
  'takeover',
  'cancel',
] as const;

/** Apply events in order, 1 s apart; every one must be accepted. Returns the last outcome. */
function run(
  events: readonly RunEvent[],
  clock = new ManualClock(T0),
): { state: RunStateV1; last: RunStepOutcome } {
  let state: RunStateV1 | null = null;
  let last: RunStepOutcome | null = null;
  for (const e of events) {
    last = stepRun(state, e, clock);
    if (!last.ok) throw new Error(`${e.type}: ${last.code}`);
    state = last.state;
    clock.advance(1000);
  }
  return { state: state as RunStateV1, last: last as RunStepOutcome };
}

const refusedWith = (r: RunStepOutcome, code: keyof typeof RUN_REFUSALS) => {
  expect(r.ok ? 'accepted' : r.code).toBe(code);
  if (!r.ok) expect(r.requiredAction).toBe(RUN_REFUSALS[code]);
};

describe('stepRun: start', () => {
  it('opens a running run with zero usage, its derived id and a digest that recomputes', () => {
    const { state } = run([start()]);
    expect(state.status).toBe('running');
    expect(state.runId).toBe(computeRunId({ taskId: 'task-1', startedAt: '2026-12-01T09:00:00.000Z' }));
    expect(state.stateDigest).toBe(computeRunStateDigest(state));
    expect(state.usage).toEqual({ steps: 0, toolCalls: 0, retries: 0, elapsedMs: 0, costMicros: 0 });
  });

  it('refuses "run until done" without cancellation or a takeover channel', () => {
    const clock = new ManualClock(T0);
    for (const controls of [
      { cancellable: false, takeoverChannel: 'ops://on-call' },
      { cancellable: true, takeoverChannel: null },
    ])
      refusedWith(
        stepRun(null, start({ mode: 'until-done', controls }), clock),
        'RUN_UNTIL_DONE_UNCONTROLLED',
      );
    expect(stepRun(null, start({ mode: 'until-done' }), clock).ok).toBe(true);
  });

  it('takes only start without a state, and no start with one', () => {
    refusedWith(stepRun(null, { type: 'step-started' }, new ManualClock(T0)), 'RUN_NOT_STARTED');
    const { state } = run([start()]);
    refusedWith(stepRun(state, start(), new ManualClock(T0)), 'RUN_ALREADY_STARTED');
  });
});

describe('stepRun: terminal states take no event', () => {
  const every: RunEvent[] = [
    start(),
    { type: 'step-started' },
    { type: 'step-finished', costMicros: 0, stateChanged: true },
    call('c-9'),
    failed('c-1', 'transient'),
    { type: 'tool-queried', callId: 'c-1', resolution: 'no-effect' },
    ...SIGNALS.map((type) => ({ type }) as RunEvent),
    { type: 'complete', outcome: 'succeeded' },
  ];
  const ends: Array<[string, RunEvent[]]> = [
    ['succeeded', [start(), { type: 'complete', outcome: 'succeeded' }]],
    ['failed', [start(), { type: 'complete', outcome: 'failed' }]],
    ['cancelled', [start(), { type: 'cancel' }]],
    [
      'failed (budget)',
      [start({ budget: { ...BUDGET, maxSteps: 1 } }), { type: 'step-started' }, { type: 'step-started' }],
    ],
  ];
  for (const [name, events] of ends)
    it(`${name}: every event is refused with RUN_TERMINAL (start with RUN_ALREADY_STARTED)`, () => {
      const { state } = run(events);
      for (const e of every) {
        const r = stepRun(state, e, new ManualClock(T0 + 10_000));
        refusedWith(r, e.type === 'start' ? 'RUN_ALREADY_STARTED' : 'RUN_TERMINAL');
      }
    });
});

describe('stepRun: budgets', () => {
  it('does not start the step beyond maxSteps: the run fails, applied false', () => {
    const steps = Array.from({ length: 5 }, (): RunEvent => ({ type: 'step-started' }));
    const { state } = run([start(), ...steps]);
    expect(state.status).toBe('running');
    const r = stepRun(state, { type: 'step-started' }, new ManualClock(T0 + 7000));
    expect(r.ok && [r.state.status, r.state.terminalReason, r.applied, r.notice?.code]).toEqual([
      'failed',
      'budget-exhausted',
      false,
      'RUN_BUDGET_EXHAUSTED',
    ]);
    expect(r.ok && r.state.usage.steps).toBe(5);
  });

  it('does not make the call beyond maxToolCalls, nor the retry beyond maxRetries', () => {
    const calls = Array.from({ length: 6 }, (_, i) => call(`c-${i}`, null, digestOf({ i })));
    const full = run([
      start({ thresholds: { repeatedAction: 3, repeatedError: 3, noProgressSteps: 3 } }),
      ...calls,
    ]).state;
    const r = stepRun(full, call('c-9', null, digestOf({ i: 9 })), new ManualClock(T0 + 9000));
    expect(r.ok && [r.state.status, r.applied, r.state.toolCalls.length]).toEqual(['failed', false, 6]);

    const once = run([
      start(),
      call('c-1'),
      failed('c-1', 'transient'),
      call('c-2', 'c-1'),
      failed('c-2', 'transient'),
    ]).state;
    const again = stepRun(once, call('c-3', 'c-2'), new ManualClock(T0 + 9000));
    expect(again.ok && [again.state.status, again.applied, again.state.usage.retries]).toEqual([
      'failed',
      false,
      1,
    ]);
  });

  it('records a cost or an outcome that overshoots, then fails the run (applied true)', () => {
    const { last } = run([
      start(),
      { type: 'step-started' },
      { type: 'step-finished', costMicros: 100_001, stateChanged: true },
    ]);
    expect(last.ok && [last.state.status, last.applied, last.state.usage.costMicros]).toEqual([
      'failed',
      true,
      100_001,
    ]);
    const clock = new ManualClock(T0);
    const { state } = run([start(), call('c-1')], clock);
    clock.advance(120_000);
    const late = stepRun(state, failed('c-1', 'transient'), clock);
    expect(late.ok && [late.state.status, late.applied, late.state.toolCalls[0]?.status]).toEqual([
      'failed',
      true,
      'failed',
    ]);
  });

  it('after maxDurationMs starts nothing, also in a pause; cancel still cancels', () => {
    const clock = new ManualClock(T0);
    const { state } = run([start(), { type: 'approval-requested' }], clock);
    clock.advance(60_000);
    const r = stepRun(state, { type: 'approval-granted' }, clock);
    expect(r.ok && [r.state.status, r.applied]).toEqual(['failed', false]);
    const c = stepRun(state, { type: 'cancel' }, clock);
    expect(c.ok && [c.state.status, c.state.terminalReason]).toEqual(['cancelled', 'cancelled']);
  });

  it('never lets elapsedMs decrease when the clock goes backwards', () => {
    const clock = new ManualClock(T0);
    const { state } = run([start(), { type: 'step-started' }, { type: 'step-started' }], clock);
    expect(state.usage.elapsedMs).toBe(2000);
    clock.set(T0 - 50_000);
    const r = stepRun(state, { type: 'step-started' }, clock);
    expect(r.ok && r.state.usage.elapsedMs).toBe(2000);
  });
});

describe('stepRun: loops', () => {
  it('blocks the run at the third identical failing call; only a replan or a takeover moves it on', () => {
    const { state, last } = run([
      start(),
      call('c-1'),
      failed('c-1', 'permanent'),
      call('c-2'),
      failed('c-2', 'permanent'),
      call('c-3'),
    ]);
    expect(last.ok && last.notice?.code).toBe('RUN_LOOP_DETECTED');
    expect([state.status, state.pauseReason, state.loop.repeatedActionCount]).toEqual([
      'blocked',
      'loop-detected',
      3,
    ]);
    const clock = new ManualClock(T0 + 10_000);
    refusedWith(stepRun(state, call('c-4'), clock), 'RUN_EVENT_NOT_ALLOWED');
    refusedWith(stepRun(state, { type: 'step-started' }, clock), 'RUN_EVENT_NOT_ALLOWED');
    // The outcome of the call already made is still recorded.
    expect(stepRun(state, failed('c-3', 'permanent'), clock).ok).toBe(true);
    const replanned = stepRun(state, { type: 'replanned' }, clock);
    expect(replanned.ok && [replanned.state.status, replanned.state.loop.repeatedActionCount]).toEqual([
      'running',
      0,
    ]);
    const taken = stepRun(state, { type: 'takeover' }, clock);
    expect(taken.ok && taken.state.pauseReason).toBe('human-takeover');
  });

  it('blocks on the same error three times and on steps without a state change', () => {
    const errors = [1, 2, 3].flatMap((n) => [
      call(`c-${n}`, null, digestOf({ n })),
      failed(`c-${n}`, 'permanent'),
    ]);
    expect(run([start(), ...errors]).state.pauseReason).toBe('loop-detected');
    const idle: RunEvent[] = [1, 2, 3].flatMap((): RunEvent[] => [
      { type: 'step-started' },
      { type: 'step-finished', costMicros: 0, stateChanged: false },
    ]);
    const { state } = run([start(), ...idle]);
    expect([state.status, state.loop.stepsWithoutStateChange]).toEqual(['blocked', 3]);
  });

  it('blocks a run that resumes with a counter at its threshold', () => {
    const d = (n: number) => digestOf({ n });
    const { state } = run([
      start(),
      call('c-1', null, d(1)),
      failed('c-1', 'permanent'),
      call('c-2', null, d(2)),
      failed('c-2', 'permanent'),
      call('c-3', null, d(3)),
      { type: 'approval-requested' },
      // The third same error arrives while the run waits: counted, the run stays awaiting approval.
      failed('c-3', 'permanent'),
    ]);
    expect([state.status, state.loop.repeatedErrorCount]).toEqual(['awaiting-approval', 3]);
    const r = stepRun(state, { type: 'approval-granted' }, new ManualClock(T0 + 9000));
    expect(r.ok && [r.state.status, r.state.pauseReason, r.notice?.code]).toEqual([
      'blocked',
      'loop-detected',
      'RUN_LOOP_DETECTED',
    ]);
  });
});

describe('stepRun: retries after an unknown outcome', () => {
  const timedOut = () => run([start(), call('c-1'), failed('c-1', 'unknown-outcome')]).state;

  it('refuses a blind retry until a query found no effect', () => {
    let state = timedOut();
    const clock = new ManualClock(T0 + 5000);
    refusedWith(stepRun(state, call('c-2', 'c-1'), clock), 'RUN_TOOL_CALL_BLIND_RETRY');
    const unsure = stepRun(
      state,
      { type: 'tool-queried', callId: 'c-1', resolution: 'still-unknown' },
      clock,
    );
    if (!unsure.ok) throw new Error(unsure.code);
    refusedWith(stepRun(unsure.state, call('c-2', 'c-1'), clock), 'RUN_TOOL_CALL_BLIND_RETRY');
    const clear = stepRun(
      unsure.state,
      { type: 'tool-queried', callId: 'c-1', resolution: 'no-effect' },
      clock,
    );
    if (!clear.ok) throw new Error(clear.code);
    state = clear.state;
    const retry = stepRun(state, call('c-2', 'c-1'), clock);
    expect(retry.ok && [retry.state.usage.retries, retry.state.toolCalls[1]?.retryOf]).toEqual([1, 'c-1']);
  });

  it('never retries an effect found applied, a permanent failure or a success', () => {
    const clock = new ManualClock(T0 + 5000);
    const applied = stepRun(
      timedOut(),
      { type: 'tool-queried', callId: 'c-1', resolution: 'effect-applied' },
      clock,
    );
    if (!applied.ok) throw new Error(applied.code);
    refusedWith(stepRun(applied.state, call('c-2', 'c-1'), clock), 'RUN_TOOL_CALL_RETRY_NOT_RETRYABLE');
    const permanent = run([start(), call('c-1'), failed('c-1', 'permanent')]).state;
    refusedWith(stepRun(permanent, call('c-2', 'c-1'), clock), 'RUN_TOOL_CALL_RETRY_NOT_RETRYABLE');
    refusedWith(
      stepRun(permanent, { type: 'tool-queried', callId: 'c-1', resolution: 'no-effect' }, clock),
      'RUN_TOOL_CALL_QUERY_NOT_UNKNOWN',
    );
  });

  it('leaves the state it refuses exactly as it was', () => {
    const state = timedOut();
    const before = structuredClone(state);
    const r = stepRun(state, call('c-2', 'c-1'), new ManualClock(T0 + 5000));
    expect(r.ok).toBe(false);
    expect(state).toEqual(before);
  });
});
