// The golden cases of the RunControlGate's run controller, driven through `run.step`
// (conformance/cases/run/). Each case is a named sequence of events with the time between them;
// every expectation is computed here by the reference controller (packages/engines) at a fixed
// clock, never written by hand, and each event also states what it means (accepted, a notice, a
// refusal code): the generator fails when the controller disagrees, so a case can never silently
// test something else. The state passes from step to step with `capture` / `$var`.
import { ManualClock, stepRun } from '@agent-contracts/engines';
import type { Case, Step } from '@agent-contracts/harness';
import {
  computeRunStateDigest,
  type RunEvent,
  type RunSignalEvent,
  type RunStateV1,
} from '@agent-contracts/schemas';
import { validate } from '@agent-contracts/validators';
import { actionOf, RUN_BUDGET, runningMidFix, startEvent } from '../fixtures/run-state.ts';
import { requirementsOf } from './requirements.ts';

const GATE = 'RunControlGate';
const SPEC = 'docs/spec/run-control-gate.md#run-controller';
const T0 = '2026-12-01T09:00:00.000Z';

/** What an event must produce: accepted (optionally with a notice and `applied: false`) or refused. */
type Means =
  | {
      readonly ok: true;
      readonly notice?: 'RUN_BUDGET_EXHAUSTED' | 'RUN_LOOP_DETECTED';
      readonly applied?: false;
    }
  | { readonly refused: string };
/** One event of a case: milliseconds that pass before it, the event, what it means. */
type Beat = readonly [number, RunEvent, Means];

interface Scenario {
  readonly id: string;
  readonly title: string;
  readonly beats: readonly Beat[];
  /** A state given instead of the previous one, for the first `run.step` (an invalid state). */
  readonly initialState?: RunStateV1;
  /** Requirements beyond the general ones and the codes the case expects. */
  readonly extra?: readonly string[];
}

const OK: Means = { ok: true };
const refused = (code: string): Means => ({ refused: code });
const TESTS = actionOf('run_tests', { filter: 'auth/login-redirect' });
const READ = actionOf('read_file', { path: 'src/auth/redirect.ts' });
const PR = actionOf('create_pull_request', { branch: 'fix/login-redirect', base: 'main' });

const start = (over: Partial<Extract<RunEvent, { type: 'start' }>> = {}): Beat => [
  0,
  startEvent('task-login-redirect-fix', over),
  OK,
];
const step: Beat = [1000, { type: 'step-started' }, OK];
const call = (
  callId: string,
  actionDigest = TESTS,
  retryOf: string | null = null,
  toolName = 'run_tests',
): RunEvent => ({
  type: 'tool-called',
  callId,
  toolName,
  actionDigest,
  retryOf,
});
const ok = (callId: string, costMicros = 0): RunEvent => ({
  type: 'tool-result',
  callId,
  outcome: 'succeeded',
  errorClass: null,
  errorCode: null,
  costMicros,
});
const fail = (
  callId: string,
  errorClass: 'business-rejection' | 'transient' | 'permanent' | 'unknown-outcome',
  errorCode: string,
): RunEvent => ({ type: 'tool-result', callId, outcome: 'failed', errorClass, errorCode, costMicros: 0 });
const signal = (type: RunSignalEvent['type']): RunEvent => ({ type });
const pr = (callId: string, retryOf: string | null = null) =>
  call(callId, PR, retryOf, 'create_pull_request');
const prTimesOut: Beat[] = [
  start(),
  step,
  [300, pr('pr-1'), OK],
  [30000, fail('pr-1', 'unknown-outcome', 'TIMEOUT'), OK],
];

const SCENARIOS: readonly Scenario[] = [
  // --- starting a run
  {
    id: 'start/bounded',
    title: 'start opens a running run with zero usage, a derived runId and its digest',
    beats: [start()],
  },
  {
    id: 'start/until-done-without-takeover',
    title: '"run until done" without a takeover channel is refused at start',
    beats: [
      [
        0,
        startEvent('task-nightly-triage', {
          mode: 'until-done',
          controls: { cancellable: true, takeoverChannel: null },
        }),
        refused('RUN_UNTIL_DONE_UNCONTROLLED'),
      ],
    ],
    extra: ['RUN-018'],
  },
  {
    id: 'start/until-done-not-cancellable',
    title: '"run until done" that cannot be cancelled is refused at start',
    beats: [
      [
        0,
        startEvent('task-nightly-triage', {
          mode: 'until-done',
          controls: { cancellable: false, takeoverChannel: 'ops://agent-runs/on-call' },
        }),
        refused('RUN_UNTIL_DONE_UNCONTROLLED'),
      ],
    ],
    extra: ['RUN-018'],
  },
  {
    // Found by StrykerJS (docs/conformance-quality.md): only "run until done" needs the controls.
    id: 'start/bounded-without-controls',
    title: 'a bounded run needs no cancellation or takeover channel: it starts without them',
    beats: [
      [
        0,
        startEvent('task-nightly-triage', {
          mode: 'bounded',
          controls: { cancellable: false, takeoverChannel: null },
        }),
        OK,
      ],
      step,
    ],
    extra: ['RUN-018'],
  },
  {
    id: 'start/until-done-with-controls',
    title: '"run until done" with a budget, cancellation and a takeover channel starts',
    beats: [[0, startEvent('task-nightly-triage', { mode: 'until-done' }), OK], step],
  },
  {
    id: 'start/lone-surrogate-in-task-id',
    title: 'a task id with a lone surrogate has no digest: start is refused',
    beats: [[0, startEvent('task-\ud800'), refused('RUN_EVENT_NOT_CANONICAL')]],
    extra: ['GEN-508'],
  },
  {
    id: 'calls/lone-surrogate-in-error-code',
    title: 'an error code with a lone surrogate has no digest: the result is refused',
    beats: [
      start(),
      step,
      [500, call('t-1'), OK],
      [
        900,
        {
          type: 'tool-result',
          callId: 't-1',
          outcome: 'failed',
          errorClass: 'permanent',
          errorCode: 'E\udc00',
          costMicros: 0,
        },
        refused('RUN_EVENT_NOT_CANONICAL'),
      ],
    ],
    extra: ['GEN-508'],
  },
  {
    id: 'start/event-before-start',
    title: 'an event before start is refused',
    beats: [[0, { type: 'step-started' }, refused('RUN_NOT_STARTED')]],
  },
  {
    id: 'start/started-twice',
    title: 'start on a started run is refused and the run is unchanged',
    beats: [start(), [10, startEvent('task-login-redirect-fix'), refused('RUN_ALREADY_STARTED')], step],
  },
  // --- loops (the "same failing action three times")
  {
    id: 'loop/same-failing-action-three-times-blocks',
    title:
      'the same failing test run three times blocks the run (loop-detected); a fourth call is refused until a replan',
    beats: [
      start(),
      step,
      [500, call('t-1'), OK],
      [9000, fail('t-1', 'permanent', 'TESTS_FAILED'), OK],
      [500, call('t-2'), OK],
      [9000, fail('t-2', 'permanent', 'TESTS_FAILED'), OK],
      [500, call('t-3'), { ok: true, notice: 'RUN_LOOP_DETECTED' }],
      [9000, fail('t-3', 'permanent', 'TESTS_FAILED'), OK],
      [500, call('t-4'), refused('RUN_EVENT_NOT_ALLOWED')],
      [500, signal('replanned'), OK],
      [500, call('r-1', READ, null, 'read_file'), OK],
    ],
    extra: ['RUN-022'],
  },
  {
    id: 'loop/same-failing-action-handed-over',
    title: 'a run blocked on a loop is taken over by a person, who ends it as failed',
    beats: [
      start(),
      step,
      ...[1, 2, 3].flatMap((n): Beat[] => [
        [500, call(`t-${n}`), n === 3 ? { ok: true, notice: 'RUN_LOOP_DETECTED' } : OK],
        [9000, fail(`t-${n}`, 'permanent', 'TESTS_FAILED'), OK],
      ]),
      [1000, signal('takeover'), OK],
      [500, call('t-4'), refused('RUN_EVENT_NOT_ALLOWED')],
      [60000, { type: 'complete', outcome: 'failed' }, OK],
    ],
    extra: ['RUN-022'],
  },
  {
    id: 'loop/same-error-from-different-actions',
    title: 'three different inputs failing with the same error block the run at the third failure',
    beats: [
      start(),
      step,
      ...[1, 2, 3].flatMap((n): Beat[] => [
        [500, call(`t-${n}`, actionOf('run_tests', { filter: `auth/case-${n}` })), OK],
        [
          9000,
          fail(`t-${n}`, 'permanent', 'TESTS_FAILED'),
          n === 3 ? { ok: true, notice: 'RUN_LOOP_DETECTED' } : OK,
        ],
      ]),
    ],
    extra: ['RUN-022'],
  },
  {
    id: 'loop/steps-without-state-change',
    title: 'steps that change no task state block the run at the no-progress threshold',
    beats: [
      start({ thresholds: { repeatedAction: 3, repeatedError: 3, noProgressSteps: 2 } }),
      step,
      [2000, { type: 'step-finished', costMicros: 20000, stateChanged: false }, OK],
      step,
      [
        2000,
        { type: 'step-finished', costMicros: 20000, stateChanged: false },
        { ok: true, notice: 'RUN_LOOP_DETECTED' },
      ],
      [1000, { type: 'step-started' }, refused('RUN_EVENT_NOT_ALLOWED')],
    ],
    extra: ['RUN-022'],
  },
  {
    id: 'loop/success-resets-error-count',
    title: 'a success between two failures resets the repeated-error count: no block',
    beats: [
      start(),
      step,
      [500, call('t-1'), OK],
      [9000, fail('t-1', 'permanent', 'TESTS_FAILED'), OK],
      [500, call('r-1', READ, null, 'read_file'), OK],
      [100, ok('r-1'), OK],
      [500, call('t-2'), OK],
      [9000, fail('t-2', 'permanent', 'TESTS_FAILED'), OK],
    ],
  },
  // --- retries (the "unknown outcome retried blindly")
  {
    id: 'retry/unknown-outcome-query-before-retry',
    title: 'a timed-out pull request call is refused a blind retry until a query finds no effect',
    beats: [
      ...prTimesOut,
      [500, pr('pr-2', 'pr-1'), refused('RUN_TOOL_CALL_BLIND_RETRY')],
      [2000, { type: 'tool-queried', callId: 'pr-1', resolution: 'still-unknown' }, OK],
      [500, pr('pr-2', 'pr-1'), refused('RUN_TOOL_CALL_BLIND_RETRY')],
      [5000, { type: 'tool-queried', callId: 'pr-1', resolution: 'no-effect' }, OK],
      [500, pr('pr-2', 'pr-1'), OK],
      [4000, ok('pr-2'), OK],
      [1500, { type: 'step-finished', costMicros: 52000, stateChanged: true }, OK],
      [800, { type: 'complete', outcome: 'succeeded' }, OK],
    ],
    extra: ['RUN-020'],
  },
  {
    id: 'retry/effect-applied-not-retried',
    title: 'a timed-out call whose query found the effect applied is never retried',
    beats: [
      ...prTimesOut,
      [2000, { type: 'tool-queried', callId: 'pr-1', resolution: 'effect-applied' }, OK],
      [500, pr('pr-2', 'pr-1'), refused('RUN_TOOL_CALL_RETRY_NOT_RETRYABLE')],
    ],
  },
  {
    id: 'retry/permanent-not-retried',
    title: 'a permanent failure is not retried',
    beats: [
      start(),
      step,
      [500, call('t-1'), OK],
      [9000, fail('t-1', 'permanent', 'TESTS_FAILED'), OK],
      [500, call('t-2', TESTS, 't-1'), refused('RUN_TOOL_CALL_RETRY_NOT_RETRYABLE')],
    ],
  },
  {
    id: 'retry/business-rejection-not-retried',
    title: 'a business rejection is not retried',
    beats: [
      ...prTimesOut.slice(0, 3),
      [800, fail('pr-1', 'business-rejection', 'BRANCH_PROTECTED'), OK],
      [500, pr('pr-2', 'pr-1'), refused('RUN_TOOL_CALL_RETRY_NOT_RETRYABLE')],
    ],
  },
  {
    id: 'retry/transient-retried-and-counted',
    title: 'a transient failure is retried, and the retry counts as a tool call and a retry',
    beats: [
      start(),
      step,
      [500, call('t-1'), OK],
      [3000, fail('t-1', 'transient', 'RUNNER_BUSY'), OK],
      [2000, call('t-2', TESTS, 't-1'), OK],
      [9000, ok('t-2'), OK],
    ],
  },
  {
    id: 'retry/of-another-tool',
    title: 'a retry naming a call of another tool is refused',
    beats: [
      start(),
      step,
      [500, call('t-1'), OK],
      [3000, fail('t-1', 'transient', 'RUNNER_BUSY'), OK],
      [500, call('r-1', READ, 't-1', 'read_file'), refused('RUN_TOOL_CALL_RETRY_UNKNOWN')],
    ],
  },
  {
    id: 'retry/query-of-known-outcome',
    title: 'only an unknown outcome is queried',
    beats: [
      start(),
      step,
      [500, call('t-1'), OK],
      [3000, fail('t-1', 'transient', 'RUNNER_BUSY'), OK],
      [
        500,
        { type: 'tool-queried', callId: 't-1', resolution: 'no-effect' },
        refused('RUN_TOOL_CALL_QUERY_NOT_UNKNOWN'),
      ],
    ],
  },
  // --- tool call records
  {
    id: 'calls/duplicate-call-id',
    title: 'a call id is used once per run',
    beats: [
      start(),
      step,
      [500, call('t-1'), OK],
      [500, call('t-1', READ, null, 'read_file'), refused('RUN_TOOL_CALL_DUPLICATE')],
    ],
  },
  {
    id: 'calls/result-of-unrecorded-call',
    title: 'a result for a call the run did not record is refused',
    beats: [start(), step, [500, ok('t-9'), refused('RUN_TOOL_CALL_RETRY_UNKNOWN')]],
  },
  {
    id: 'calls/second-result',
    title: 'a call takes one result',
    beats: [
      start(),
      step,
      [500, call('t-1'), OK],
      [900, ok('t-1'), OK],
      [100, fail('t-1', 'permanent', 'TESTS_FAILED'), refused('RUN_TOOL_CALL_NOT_IN_FLIGHT')],
    ],
  },
  {
    id: 'calls/failed-result-without-error-class',
    title: 'a failed result says how it failed',
    beats: [
      start(),
      step,
      [500, call('t-1'), OK],
      [
        900,
        {
          type: 'tool-result',
          callId: 't-1',
          outcome: 'failed',
          errorClass: null,
          errorCode: 'TESTS_FAILED',
          costMicros: 0,
        },
        refused('RUN_TOOL_CALL_OUTCOME_INCONSISTENT'),
      ],
    ],
  },
  {
    id: 'calls/succeeded-result-with-error-class',
    title: 'a succeeded result carries no error class or code',
    beats: [
      start(),
      step,
      [500, call('t-1'), OK],
      [
        900,
        {
          type: 'tool-result',
          callId: 't-1',
          outcome: 'succeeded',
          errorClass: 'transient',
          errorCode: null,
          costMicros: 0,
        },
        refused('RUN_TOOL_CALL_OUTCOME_INCONSISTENT'),
      ],
    ],
  },
  {
    id: 'calls/success-with-call-in-flight',
    title: 'a run does not succeed while a call has no outcome',
    beats: [
      ...prTimesOut.slice(0, 3),
      [800, { type: 'complete', outcome: 'succeeded' }, refused('RUN_SUCCESS_WITH_CALLS_IN_FLIGHT')],
      [4000, ok('pr-1'), OK],
      [800, { type: 'complete', outcome: 'succeeded' }, OK],
    ],
  },
  // --- budgets (the "budget runs out mid-step")
  {
    id: 'budget/tool-calls-run-out-mid-step',
    title:
      'the call beyond maxToolCalls is not made: the run fails (budget-exhausted) and takes no further event',
    beats: [
      start({ budget: { ...RUN_BUDGET, maxToolCalls: 2 } }),
      step,
      [200, call('r-1', actionOf('read_file', { path: 'a.ts' }), null, 'read_file'), OK],
      [100, ok('r-1'), OK],
      [200, call('r-2', actionOf('read_file', { path: 'b.ts' }), null, 'read_file'), OK],
      [100, ok('r-2'), OK],
      [
        200,
        call('r-3', actionOf('read_file', { path: 'c.ts' }), null, 'read_file'),
        { ok: true, notice: 'RUN_BUDGET_EXHAUSTED', applied: false },
      ],
      [200, { type: 'step-finished', costMicros: 1000, stateChanged: true }, refused('RUN_TERMINAL')],
    ],
    extra: ['RUN-019', 'RUN-021'],
  },
  {
    id: 'budget/steps-run-out',
    title: 'the step beyond maxSteps is not started: the run fails',
    beats: [
      start({ budget: { ...RUN_BUDGET, maxSteps: 1 } }),
      step,
      [2000, { type: 'step-finished', costMicros: 0, stateChanged: true }, OK],
      [1000, { type: 'step-started' }, { ok: true, notice: 'RUN_BUDGET_EXHAUSTED', applied: false }],
    ],
    extra: ['RUN-021'],
  },
  {
    id: 'budget/time-runs-out-mid-step',
    title: 'after maxDurationMs the next call is not made: the run fails',
    beats: [
      start({ budget: { ...RUN_BUDGET, maxDurationMs: 60000 } }),
      step,
      [500, call('t-1'), OK],
      [9000, ok('t-1'), OK],
      [
        55000,
        call('t-2', READ, null, 'read_file'),
        { ok: true, notice: 'RUN_BUDGET_EXHAUSTED', applied: false },
      ],
    ],
    extra: ['RUN-021'],
  },
  {
    id: 'budget/result-after-time-limit-recorded',
    title: 'a result that arrives after the time limit is still recorded, then the run fails',
    beats: [
      start({ budget: { ...RUN_BUDGET, maxDurationMs: 60000 } }),
      step,
      [500, call('t-1'), OK],
      [70000, ok('t-1'), { ok: true, notice: 'RUN_BUDGET_EXHAUSTED' }],
    ],
    extra: ['RUN-021'],
  },
  {
    id: 'budget/step-cost-after-time-limit-recorded',
    title: 'a step that finishes after the time limit has its cost recorded, then the run fails',
    beats: [
      start({ budget: { ...RUN_BUDGET, maxDurationMs: 60000 } }),
      step,
      [
        70000,
        { type: 'step-finished', costMicros: 52000, stateChanged: true },
        { ok: true, notice: 'RUN_BUDGET_EXHAUSTED' },
      ],
    ],
    extra: ['RUN-021'],
  },
  {
    id: 'budget/cost-overshoot-mid-step',
    title: 'a step whose cost goes beyond maxCostMicros is recorded and the run fails',
    beats: [
      start({ budget: { ...RUN_BUDGET, maxCostMicros: 100000 } }),
      step,
      [
        4000,
        { type: 'step-finished', costMicros: 140000, stateChanged: true },
        { ok: true, notice: 'RUN_BUDGET_EXHAUSTED' },
      ],
    ],
    extra: ['RUN-021'],
  },
  {
    id: 'budget/retries-run-out',
    title: 'a retry beyond maxRetries is not made: the run fails',
    beats: [
      start({ budget: { ...RUN_BUDGET, maxRetries: 0 } }),
      step,
      [500, call('t-1'), OK],
      [3000, fail('t-1', 'transient', 'RUNNER_BUSY'), OK],
      [2000, call('t-2', TESTS, 't-1'), { ok: true, notice: 'RUN_BUDGET_EXHAUSTED', applied: false }],
    ],
    extra: ['RUN-021'],
  },
  {
    id: 'budget/paused-run-times-out',
    title: 'a run waiting for an approval past maxDurationMs fails when the approval arrives',
    beats: [
      start({ budget: { ...RUN_BUDGET, maxDurationMs: 60000 } }),
      step,
      [500, signal('approval-requested'), OK],
      [90000, signal('approval-granted'), { ok: true, notice: 'RUN_BUDGET_EXHAUSTED', applied: false }],
    ],
    extra: ['RUN-021'],
  },
  // --- pauses
  {
    id: 'pause/approval',
    title: 'a run awaiting approval makes no call; the approval resumes it',
    beats: [
      start(),
      step,
      [500, signal('approval-requested'), OK],
      [500, pr('pr-1'), refused('RUN_EVENT_NOT_ALLOWED')],
      [60000, signal('approval-granted'), OK],
      [500, pr('pr-1'), OK],
    ],
  },
  {
    id: 'pause/dependency',
    title:
      'a run awaiting a dependency records outcomes of calls already in flight, and resumes when it is ready',
    beats: [
      start(),
      step,
      [500, call('t-1'), OK],
      [100, signal('dependency-wait'), OK],
      [9000, ok('t-1'), OK],
      [100, { type: 'step-started' }, refused('RUN_EVENT_NOT_ALLOWED')],
      [30000, signal('dependency-ready'), OK],
      step,
    ],
  },
  {
    id: 'pause/resume-while-running',
    title: 'a resume event on a running run is refused',
    beats: [start(), [500, signal('approval-granted'), refused('RUN_EVENT_NOT_ALLOWED')]],
  },
  {
    id: 'pause/takeover-then-replan',
    title: 'a person takes a run over and hands it back with a new plan',
    beats: [
      start(),
      step,
      [500, signal('takeover'), OK],
      [500, { type: 'step-started' }, refused('RUN_EVENT_NOT_ALLOWED')],
      [60000, signal('replanned'), OK],
      step,
    ],
  },
  // --- the state given
  {
    id: 'state/invariant-broken',
    title:
      'a state that breaks an invariant (running with a pause reason) is refused before the event is judged',
    initialState: (() => {
      const bad = { ...structuredClone(runningMidFix), pauseReason: 'approval-pending' as const };
      return { ...bad, stateDigest: computeRunStateDigest(bad) };
    })(),
    beats: [[1000, { type: 'step-started' }, refused('RUN_STATE_INVALID')]],
    extra: ['PROTO-703'],
  },
  // --- terminal states
  {
    id: 'terminal/cancelled-takes-no-event',
    title: 'a cancelled run takes no event, not even a replan',
    beats: [start(), step, [500, signal('cancel'), OK], [500, signal('replanned'), refused('RUN_TERMINAL')]],
    extra: ['RUN-019'],
  },
  {
    id: 'terminal/succeeded-takes-no-event',
    title: 'a succeeded run takes no event, not even a cancel',
    beats: [
      start(),
      step,
      [800, { type: 'complete', outcome: 'succeeded' }, OK],
      [500, signal('cancel'), refused('RUN_TERMINAL')],
    ],
    extra: ['RUN-019'],
  },
];

/** The steps of a scenario, with each expectation computed by the reference controller. */
function stepsOf(s: Scenario): Step[] {
  const clock = new ManualClock(Date.parse(T0));
  const steps: Step[] = [{ method: 'clock.set', params: { now: T0 }, expect: { result: { now: T0 } } }];
  let state: RunStateV1 | null = s.initialState ?? null;
  let haveVar = false;
  for (const [i, [ms, event, means]] of s.beats.entries()) {
    if (ms !== 0) {
      clock.advance(ms);
      steps.push({
        method: 'clock.advance',
        params: { ms },
        expect: { result: { now: new Date(clock.now()).toISOString() } },
      });
    }
    const params = { state: haveVar ? { $var: 'state' } : (state ?? null), event };
    const where = `${s.id} event ${i} (${event.type})`;
    if (state !== null && !validate(state, { contract: 'RunStateV1' }).ok) {
      if (!('refused' in means) || means.refused !== 'RUN_STATE_INVALID')
        throw new Error(`${where}: the state is invalid`);
      steps.push({ method: 'run.step', params, expect: { error: 'RUN_STATE_INVALID' } });
      continue;
    }
    const r = stepRun(state, event, clock);
    if ('refused' in means) {
      if (r.ok || r.code !== means.refused)
        throw new Error(`${where}: meant ${means.refused}, the controller answered ${r.ok ? 'ok' : r.code}`);
      steps.push({ method: 'run.step', params, expect: { error: r.code } });
      continue;
    }
    if (!r.ok) throw new Error(`${where}: meant to be accepted, refused with ${r.code}`);
    if ((r.notice?.code ?? undefined) !== means.notice || r.applied !== (means.applied ?? true))
      throw new Error(
        `${where}: meant notice ${means.notice} applied ${means.applied ?? true}, got ${r.notice?.code} ${r.applied}`,
      );
    // The controller never writes a state that breaks an invariant of the page.
    const valid = validate(r.state, { contract: 'RunStateV1' });
    if (!valid.ok)
      throw new Error(`${where}: the controller wrote an invalid state: ${JSON.stringify(valid.issues)}`);
    steps.push({
      method: 'run.step',
      params,
      expect: { result: { state: r.state, applied: r.applied, notice: r.notice } },
      capture: { state: '/state' },
    });
    state = r.state;
    haveVar = true;
  }
  return steps;
}

/** Every run case, by file (conformance/cases/run/<group>.json). */
export function runCaseFiles(): Map<string, { $comment: string; cases: Case[] }> {
  const out = new Map<string, { $comment: string; cases: Case[] }>();
  for (const s of SCENARIOS) {
    const id = `run/RunStateV1/${s.id}`;
    const steps = stepsOf(s);
    const refuses = steps.some((x) => 'error' in x.expect);
    const c: Case = {
      id,
      title: s.title,
      gate: GATE,
      subject: 'RunStateV1',
      spec: SPEC,
      ...requirementsOf({ id, spec: SPEC, steps }, 'operation', [
        'RUN-001',
        'RUN-017',
        'PROTO-701',
        ...(refuses ? ['PROTO-702'] : []),
        ...(s.extra ?? []),
      ]),
      requires: ['run', 'clock'],
      steps,
    };
    const file = `run/${s.id.split('/')[0]}.json`;
    const entry = out.get(file) ?? {
      $comment:
        'Generated by scripts/cases/run.ts from the reference run controller (packages/engines) with a fixed clock; do not edit.',
      cases: [],
    };
    entry.cases.push(c);
    out.set(file, entry);
  }
  return out;
}
