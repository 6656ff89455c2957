// Exploration of `run.step`: runs started with small budgets, steps, tool calls and results of
// every error class, queries, retries (blind, queried, of unknown calls), pauses and their ends,
// cancel, takeover and completion, each event applied to the state the previous step returned
// (captured), with the clock moved past the run's duration. A call is also driven straight to an
// unknown outcome and retried, queried first or not: random events alone almost never line up
// into a call, its unknown-outcome result and a retry of it by the same tool.
import fc from 'fast-check';
import { type CapabilityExplorer, clockCommands, command, hex, iso } from '../command.js';

const callId = fc.constantFrom('t-1', 't-2', 't-3');
const start = fc
  .record({
    mode: fc.constantFrom('bounded', 'bounded', 'until-done'),
    cancellable: fc.boolean(),
    takeoverChannel: fc.constantFrom(null, 'ops://agent-runs/on-call'),
    maxSteps: fc.integer({ min: 1, max: 4 }),
    maxToolCalls: fc.integer({ min: 0, max: 4 }),
    maxRetries: fc.integer({ min: 0, max: 2 }),
    maxDurationMs: fc.constantFrom(60_000, 900_000),
    maxCostMicros: fc.constantFrom(0, 100_000, 2_500_000),
    repeatedAction: fc.integer({ min: 2, max: 3 }),
    repeatedError: fc.integer({ min: 2, max: 3 }),
    noProgressSteps: fc.integer({ min: 2, max: 4 }),
  })
  .map((b) => ({
    type: 'start',
    taskId: 'task-explore',
    mode: b.mode,
    controls: { cancellable: b.cancellable, takeoverChannel: b.takeoverChannel },
    budget: {
      maxSteps: b.maxSteps,
      maxToolCalls: b.maxToolCalls,
      maxRetries: b.maxRetries,
      maxDurationMs: b.maxDurationMs,
      maxCostMicros: b.maxCostMicros,
      currency: 'USD',
    },
    thresholds: {
      repeatedAction: b.repeatedAction,
      repeatedError: b.repeatedError,
      noProgressSteps: b.noProgressSteps,
    },
  }));

const result = fc.oneof(
  fc.record({
    type: fc.constant('tool-result'),
    callId,
    outcome: fc.constant('succeeded'),
    errorClass: fc.constant(null),
    errorCode: fc.constant(null),
    costMicros: fc.constantFrom(0, 30_000),
  }),
  fc.record({
    type: fc.constant('tool-result'),
    callId,
    outcome: fc.constant('failed'),
    errorClass: fc.constantFrom('business-rejection', 'transient', 'permanent', 'unknown-outcome', null),
    errorCode: fc.constantFrom('TESTS_FAILED', 'TIMEOUT', null),
    costMicros: fc.constantFrom(0, 30_000),
  }),
);

const event = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ type: 'step-started' }) },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('step-finished'),
      costMicros: fc.constantFrom(0, 52_000),
      stateChanged: fc.boolean(),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      type: fc.constant('tool-called'),
      callId,
      toolName: fc.constantFrom('run_tests', 'create_pull_request'),
      actionDigest: fc.constantFrom(hex('action run_tests'), hex('action create_pull_request')),
      retryOf: fc.constantFrom(null, null, 't-1', 't-2'),
    }),
  },
  { weight: 4, arbitrary: result },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('tool-queried'),
      callId,
      resolution: fc.constantFrom('effect-applied', 'no-effect', 'still-unknown'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom(
        'approval-requested',
        'approval-granted',
        'dependency-wait',
        'dependency-ready',
        'replanned',
        'takeover',
        'cancel',
      )
      .map((type) => ({ type })),
  },
  {
    weight: 1,
    arbitrary: fc.record({ type: fc.constant('complete'), outcome: fc.constantFrom('succeeded', 'failed') }),
  },
);

/** A call, its unknown-outcome result, a query of it or none, and a retry of it. */
const unknownThenRetry = fc
  .record({
    ids: fc.constantFrom<[string, string]>(['u-1', 'u-2'], ['u-3', 'u-4']),
    toolName: fc.constantFrom('run_tests', 'create_pull_request'),
    resolution: fc.constantFrom(null, null, 'no-effect', 'still-unknown', 'effect-applied'),
  })
  .map(({ ids: [callId, retryId], toolName, resolution }) => {
    const actionDigest = hex(`action ${toolName}`);
    return [
      { type: 'tool-called', callId, toolName, actionDigest, retryOf: null },
      {
        type: 'tool-result',
        callId,
        outcome: 'failed',
        errorClass: 'unknown-outcome',
        errorCode: 'TIMEOUT',
        costMicros: 0,
      },
      ...(resolution === null ? [] : [{ type: 'tool-queried', callId, resolution }]),
      { type: 'tool-called', callId: retryId, toolName, actionDigest, retryOf: callId },
    ];
  });

const stepOf = (e: { type: string }) => ({
  method: 'run.step',
  params: { state: e.type === 'start' ? null : { $var: 'run' }, event: e },
  capture: { run: '/state' },
});

export const runExplorer: CapabilityExplorer = {
  name: 'run',
  gate: 'RunControlGate',
  subject: 'RunStateV1',
  spec: 'docs/spec/run-control-gate.md#run-controller',
  requires: ['run', 'clock'],
  setup: (ctx) => [{ method: 'clock.set', params: { now: iso(ctx.t0) } }],
  commands: () => [
    start.map((e) =>
      command(`run.step start ${e.mode} ${JSON.stringify(e.budget)}`, (_ctx, s) =>
        s.bound('run') ? [] : [stepOf(e)],
      ),
    ),
    event.map((e) =>
      command(`run.step ${JSON.stringify(e)}`, (_ctx, s) =>
        s.bound('run') ? [stepOf(e)] : [{ ...stepOf(e), params: { state: null, event: e } }],
      ),
    ),
    event.map((e) =>
      command(`run.step ${JSON.stringify(e)}`, (_ctx, s) => (s.bound('run') ? [stepOf(e)] : [])),
    ),
    unknownThenRetry.map((events) =>
      command(`run.step ${events.map((e) => JSON.stringify(e)).join(', ')}`, (_ctx, s) =>
        s.bound('run') ? events.map(stepOf) : [],
      ),
    ),
    ...clockCommands(),
  ],
};
