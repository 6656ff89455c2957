// @module-tag unit
// The run controller's edges (docs/spec/run-control-gate.md#run-controller): the checks of a
// result's error members, a retry of an unknown call, a failed completion with calls in flight,
// the duration limit at its exact value, the record limit of 1000 calls, what a call and a result
// record, and the inputs an in-process caller can hand it.
import { digestOf } from '@agent-contracts/digest';
import type { RunEvent, RunStateV1, ToolCallRecord } from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import {
  ManualClock,
  RUN_MAX_TOOL_CALL_RECORDS,
  RUN_REFUSALS,
  type RunStepOutcome,
  stepRun,
} from '../../src/index.ts';

const T0 = Date.parse('2026-12-01T09:00:00.000Z');
const BUDGET = {
  maxSteps: 5,
  maxToolCalls: 6,
  maxRetries: 1,
  maxDurationMs: 60_000,
  maxCostMicros: 100_000,
  currency: 'USD',
};
const start = (budget = BUDGET): RunEvent => ({
  type: 'start',
  taskId: 'task-1',
  mode: 'bounded',
  controls: { cancellable: true, takeoverChannel: 'ops://on-call' },
  budget,
  thresholds: { repeatedAction: 3, repeatedError: 3, noProgressSteps: 3 },
});
const call = (callId: string, retryOf: string | null = null): RunEvent => ({
  type: 'tool-called',
  callId,
  toolName: 'run_tests',
  actionDigest: digestOf({ callId }),
  retryOf,
});
const result = (
  callId: string,
  outcome: 'succeeded' | 'failed',
  errorClass: 'transient' | 'permanent' | 'unknown-outcome' | null,
  errorCode: string | null,
  costMicros = 0,
): RunEvent => ({ type: 'tool-result', callId, outcome, errorClass, errorCode, costMicros });

/** Apply events in order, 1 s apart, every one accepted; the clock is left 1 s after the last. */
function run(events: readonly RunEvent[], clock = new ManualClock(T0)): RunStateV1 {
  let state: RunStateV1 | null = null;
  for (const e of events) {
    const r = stepRun(state, e, clock);
    if (!r.ok) throw new Error(`${e.type}: ${r.code}`);
    state = r.state;
    clock.advance(1000);
  }
  return state as RunStateV1;
}

const accepted = (r: RunStepOutcome) => {
  if (!r.ok) throw new Error(r.code);
  return r;
};
const refusedWith = (r: RunStepOutcome, code: keyof typeof RUN_REFUSALS) => {
  expect(r.ok ? 'accepted' : r.code).toBe(code);
  if (!r.ok) expect(r.requiredAction).toBe(RUN_REFUSALS[code]);
};

describe('stepRun: a result whose error members do not fit its outcome', () => {
  const state = () => run([start(), call('c-1')]);
  it('refuses a failed result without an error code, or without an error class', () => {
    const clock = new ManualClock(T0 + 5000);
    refusedWith(
      stepRun(state(), result('c-1', 'failed', 'permanent', null), clock),
      'RUN_TOOL_CALL_OUTCOME_INCONSISTENT',
    );
    refusedWith(
      stepRun(state(), result('c-1', 'failed', null, 'E1'), clock),
      'RUN_TOOL_CALL_OUTCOME_INCONSISTENT',
    );
  });
  it('refuses a succeeded result with an error code, or with an error class', () => {
    const clock = new ManualClock(T0 + 5000);
    refusedWith(
      stepRun(state(), result('c-1', 'succeeded', null, 'E1'), clock),
      'RUN_TOOL_CALL_OUTCOME_INCONSISTENT',
    );
    refusedWith(
      stepRun(state(), result('c-1', 'succeeded', 'transient', null), clock),
      'RUN_TOOL_CALL_OUTCOME_INCONSISTENT',
    );
    const ok = accepted(stepRun(state(), result('c-1', 'succeeded', null, null), clock));
    expect(ok.state.toolCalls[0]?.status).toBe('succeeded');
  });
});

describe('stepRun: what a call and a result record', () => {
  it('refuses a retry of a call never recorded (RUN_TOOL_CALL_RETRY_UNKNOWN)', () => {
    const state = run([start(), call('c-1'), result('c-1', 'failed', 'transient', 'E1')]);
    refusedWith(
      stepRun(state, call('c-2', 'c-9'), new ManualClock(T0 + 5000)),
      'RUN_TOOL_CALL_RETRY_UNKNOWN',
    );
  });

  it('records the step a call is made in: 1 before any step, else the current step', () => {
    const before = accepted(stepRun(run([start()]), call('c-1'), new ManualClock(T0 + 5000)));
    expect(before.state.toolCalls[0]?.step).toBe(1);
    const third = run([
      start(),
      { type: 'step-started' },
      { type: 'step-started' },
      { type: 'step-started' },
    ]);
    const r = accepted(stepRun(third, call('c-1'), new ManualClock(T0 + 5000)));
    expect(r.state.toolCalls[0]?.step).toBe(3);
  });

  it('adds the cost of a result to the run', () => {
    const state = run([
      start(),
      { type: 'step-started' },
      { type: 'step-finished', costMicros: 300, stateChanged: true },
      call('c-1'),
    ]);
    const r = accepted(
      stepRun(state, result('c-1', 'succeeded', null, null, 1_200), new ManualClock(T0 + 9000)),
    );
    expect(r.state.usage.costMicros).toBe(1_500);
  });

  it('counts a repeated error only when it is the same error as the last one', () => {
    const state = run([
      start(),
      call('c-1'),
      result('c-1', 'failed', 'permanent', 'E1'),
      call('c-2'),
      result('c-2', 'failed', 'permanent', 'E2'),
    ]);
    expect(state.loop.repeatedErrorCount).toBe(1);
    const again = run([
      start(),
      call('c-1'),
      result('c-1', 'failed', 'permanent', 'E1'),
      call('c-2'),
      result('c-2', 'failed', 'permanent', 'E1'),
    ]);
    expect(again.loop.repeatedErrorCount).toBe(2);
  });
});

describe('stepRun: completion', () => {
  it('lets a run complete as failed with a call still in flight (only success needs every outcome)', () => {
    const state = run([start(), call('c-1')]);
    const clock = new ManualClock(T0 + 5000);
    refusedWith(
      stepRun(state, { type: 'complete', outcome: 'succeeded' }, clock),
      'RUN_SUCCESS_WITH_CALLS_IN_FLIGHT',
    );
    const r = accepted(stepRun(state, { type: 'complete', outcome: 'failed' }, clock));
    expect([r.state.status, r.state.terminalReason, r.applied]).toEqual([
      'failed',
      'completion-failed',
      true,
    ]);
  });
});

describe('stepRun: the duration limit', () => {
  it('starts work at exactly maxDurationMs and stops it 1 ms later', () => {
    const state = run([start()]);
    const at = accepted(stepRun(state, { type: 'step-started' }, new ManualClock(T0 + 60_000)));
    expect([at.state.status, at.applied, at.state.usage.elapsedMs]).toEqual(['running', true, 60_000]);
    const past = accepted(stepRun(state, { type: 'step-started' }, new ManualClock(T0 + 60_001)));
    expect([past.state.status, past.applied]).toEqual(['failed', false]);
  });

  it('records a query past the limit, then stops the run (applied true)', () => {
    const state = run([start(), call('c-1'), result('c-1', 'failed', 'unknown-outcome', 'E-TIMEOUT')]);
    const r = accepted(
      stepRun(
        state,
        { type: 'tool-queried', callId: 'c-1', resolution: 'no-effect' },
        new ManualClock(T0 + 120_000),
      ),
    );
    expect([r.state.status, r.state.terminalReason, r.applied]).toEqual(['failed', 'budget-exhausted', true]);
    expect(r.state.toolCalls[0]?.query).toEqual({
      queriedAt: '2026-12-01T09:02:00.000Z',
      resolution: 'no-effect',
    });
  });
});

describe('stepRun: the record limit', () => {
  const record = (i: number): ToolCallRecord => ({
    callId: `old-${i}`,
    toolName: 'run_tests',
    actionDigest: digestOf({ i }),
    step: 1,
    calledAt: '2026-12-01T09:00:00.000Z',
    status: 'succeeded',
    errorClass: null,
    errorCode: null,
    retryOf: null,
    query: null,
  });
  const withRecords = (n: number): RunStateV1 => {
    const state = run([start({ ...BUDGET, maxToolCalls: 5_000 })]);
    return {
      ...state,
      toolCalls: Array.from({ length: n }, (_, i) => record(i)),
      usage: { ...state.usage, toolCalls: n },
    };
  };

  it(`makes a call with ${RUN_MAX_TOOL_CALL_RECORDS - 1} records and stops the run at ${RUN_MAX_TOOL_CALL_RECORDS}`, () => {
    const clock = new ManualClock(T0 + 5000);
    const under = accepted(stepRun(withRecords(RUN_MAX_TOOL_CALL_RECORDS - 1), call('c-new'), clock));
    expect([under.state.status, under.applied, under.state.toolCalls.length]).toEqual([
      'running',
      true,
      1000,
    ]);
    const full = accepted(stepRun(withRecords(RUN_MAX_TOOL_CALL_RECORDS), call('c-new'), clock));
    expect([full.state.status, full.state.terminalReason, full.applied, full.state.toolCalls.length]).toEqual(
      ['failed', 'budget-exhausted', false, 1000],
    );
    expect(full.notice?.code).toBe('RUN_BUDGET_EXHAUSTED');
  });
});

describe('stepRun: inputs of an in-process caller', () => {
  it('takes an event with a member left undefined (no string in it to check)', () => {
    const state = run([start()]);
    const event = { type: 'step-started', note: undefined } as unknown as RunEvent;
    const r = accepted(stepRun(state, event, new ManualClock(T0 + 5000)));
    expect(r.state.usage.steps).toBe(1);
  });

  it("refuses an event on a paused state whose pause reason is not its status's, rather than throwing", () => {
    const state = run([start(), { type: 'approval-requested' }]);
    const odd = { ...state, status: 'blocked', pauseReason: 'approval-pending' } as RunStateV1;
    refusedWith(stepRun(odd, { type: 'replanned' }, new ManualClock(T0 + 5000)), 'RUN_EVENT_NOT_ALLOWED');
  });
});
