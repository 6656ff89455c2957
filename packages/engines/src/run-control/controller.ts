// The reference run controller (RunControlGate, "Run controller"): `stepRun(state, event, clock)`
// is the next RunStateV1. Pure: the time comes from the injected clock, nothing else is read.
import { hasLoneSurrogate } from '@agent-contracts/digest';
import {
  computeRunErrorDigest,
  computeRunId,
  computeRunStateDigest,
  isTerminalRunStatus,
  RUN_BUDGET_LIMITS,
  type RunBudget,
  type RunEvent,
  type RunStateV1,
  runRetryVerdict,
  type ToolCallRecord,
} from '@agent-contracts/schemas';
import { type Clock, timestampOf } from '../clock.js';
import { RUN_NOTICES, type RunStepOutcome, refuse } from './refusal.js';

/** The most tool call records a state keeps (the schema's `maxItems`); a run stops at it. */
export const RUN_MAX_TOOL_CALL_RECORDS = 1000;

/** The events each non-terminal status takes (`start` is taken only without a state). */
const ALLOWED: Readonly<Record<string, ReadonlySet<RunEvent['type']>>> = {
  running: new Set([
    'step-started',
    'step-finished',
    'tool-called',
    'tool-result',
    'tool-queried',
    'approval-requested',
    'dependency-wait',
    'replanned',
    'takeover',
    'cancel',
    'complete',
  ]),
  'awaiting-approval': new Set(['approval-granted', 'tool-result', 'tool-queried', 'takeover', 'cancel']),
  'awaiting-dependency': new Set(['dependency-ready', 'tool-result', 'tool-queried', 'takeover', 'cancel']),
  'blocked:loop-detected': new Set(['replanned', 'tool-result', 'tool-queried', 'takeover', 'cancel']),
  'blocked:human-takeover': new Set(['replanned', 'tool-result', 'tool-queried', 'cancel', 'complete']),
};

const statusKey = (s: RunStateV1) => (s.status === 'blocked' ? `blocked:${s.pauseReason}` : s.status);

/** The first usage member beyond its limit, or null. */
function overLimit(usage: RunStateV1['usage'], budget: RunBudget): string | null {
  for (const [used, limit] of RUN_BUDGET_LIMITS) if (usage[used] > budget[limit]) return `usage.${used}`;
  return null;
}

type Draft = { -readonly [K in keyof RunStateV1]: RunStateV1[K] };

function finish(draft: Draft): RunStateV1 {
  const { stateDigest: _old, ...rest } = draft;
  return { ...rest, stateDigest: computeRunStateDigest(rest) };
}

function stop(d: Draft, now: string): void {
  d.status = 'failed';
  d.pauseReason = null;
  d.terminalReason = 'budget-exhausted';
  d.endedAt = now;
}

function resetLoop(d: Draft): void {
  d.loop = {
    ...d.loop,
    lastActionDigest: null,
    repeatedActionCount: 0,
    lastErrorDigest: null,
    repeatedErrorCount: 0,
    stepsWithoutStateChange: 0,
  };
}

function loopReached(s: RunStateV1): boolean {
  const t = s.loop.thresholds;
  return (
    s.loop.repeatedActionCount >= t.repeatedAction ||
    s.loop.repeatedErrorCount >= t.repeatedError ||
    s.loop.stepsWithoutStateChange >= t.noProgressSteps
  );
}

/** A new run from a `start` event. */
function started(event: Extract<RunEvent, { type: 'start' }>, now: string): RunStepOutcome {
  if (event.mode === 'until-done' && (!event.controls.cancellable || event.controls.takeoverChannel === null))
    return refuse(
      'RUN_UNTIL_DONE_UNCONTROLLED',
      '"run until done" needs a budget, cancellation and a takeover channel; make the run cancellable and name its takeover channel, or start it in mode bounded.',
    );
  const draft: Draft = {
    schemaVersion: 'RunStateV1',
    runId: computeRunId({ taskId: event.taskId, startedAt: now }),
    taskId: event.taskId,
    mode: event.mode,
    controls: { cancellable: event.controls.cancellable, takeoverChannel: event.controls.takeoverChannel },
    status: 'running',
    pauseReason: null,
    terminalReason: null,
    budget: { ...event.budget },
    usage: { steps: 0, toolCalls: 0, retries: 0, elapsedMs: 0, costMicros: 0 },
    loop: {
      thresholds: { ...event.thresholds },
      lastActionDigest: null,
      repeatedActionCount: 0,
      lastErrorDigest: null,
      repeatedErrorCount: 0,
      stepsWithoutStateChange: 0,
    },
    toolCalls: [],
    startedAt: now,
    updatedAt: now,
    endedAt: null,
    eventCount: 1,
    stateDigest: '',
  };
  return { ok: true, state: finish(draft), applied: true, notice: null };
}

/**
 * Apply one event to a run. `state` is a RunStateV1 that passed its contract's validation (or
 * `null` before `start`); the answer is the next state, or a refusal that leaves it unchanged.
 * A limit that runs out stops the run (`failed`, `budget-exhausted`): work an event announces
 * beyond a limit is not started (`applied: false`), and an outcome that overshoots one is still
 * recorded. A loop counter that reaches its threshold blocks a running run (`loop-detected`)
 * until `replanned` or `takeover`. A terminal run takes no event.
 *
 * @example
 * const clock = new ManualClock(Date.parse('2026-12-01T09:00:00.000Z'));
 * const r = stepRun(null, { type: 'start', taskId: 'task-1', mode: 'bounded',
 *   controls: { cancellable: true, takeoverChannel: null },
 *   budget: { maxSteps: 10, maxToolCalls: 20, maxRetries: 3, maxDurationMs: 600000, maxCostMicros: 2000000, currency: 'USD' },
 *   thresholds: { repeatedAction: 3, repeatedError: 3, noProgressSteps: 5 } }, clock);
 * r.ok && r.state.status; // 'running'
 */
export function stepRun(state: RunStateV1 | null, event: RunEvent, clock: Clock): RunStepOutcome {
  const now = timestampOf(clock.now());
  // The next state needs a digest, so every string it takes from the event needs an RFC 8785 form.
  const strings = (v: unknown): string[] =>
    typeof v === 'string'
      ? [v]
      : v !== null && typeof v === 'object'
        ? Object.values(v).flatMap(strings)
        : [];
  if (strings(event).some(hasLoneSurrogate))
    return refuse(
      'RUN_EVENT_NOT_CANONICAL',
      `"${event.type}" carries a string with a lone UTF-16 surrogate, which has no RFC 8785 form and so no digest; send well-formed Unicode.`,
    );
  if (state === null) {
    if (event.type !== 'start')
      return refuse('RUN_NOT_STARTED', `"${event.type}" needs a run; send "start" first (with state null).`);
    return started(event, now);
  }
  if (event.type === 'start')
    return refuse(
      'RUN_ALREADY_STARTED',
      `run ${state.runId} has started; send its next event, or start a new run with state null.`,
    );
  if (isTerminalRunStatus(state.status))
    return refuse(
      'RUN_TERMINAL',
      `run ${state.runId} is ${state.status} (${state.terminalReason}); a terminal run takes no event: start a new run.`,
    );
  if (!ALLOWED[statusKey(state)]?.has(event.type))
    return refuse(
      'RUN_EVENT_NOT_ALLOWED',
      `run ${state.runId} is ${state.status}${state.pauseReason ? ` (${state.pauseReason})` : ''} and does not take "${event.type}"; ${state.status === 'running' ? 'that event resumes a paused run only' : 'resume it first (approval-granted, dependency-ready or replanned) or cancel it'}.`,
    );

  const d: Draft = structuredClone(state) as Draft;
  const calls = d.toolCalls;
  const find = (id: string) => calls.find((c) => c.callId === id);

  // Refusals first: they leave the state as it was, whatever the budget says.
  if (event.type === 'tool-called') {
    if (find(event.callId))
      return refuse(
        'RUN_TOOL_CALL_DUPLICATE',
        `call "${event.callId}" is already recorded; give the new call its own id.`,
      );
    if (event.retryOf !== null) {
      const target = find(event.retryOf);
      if (target === undefined || target.toolName !== event.toolName)
        return refuse(
          'RUN_TOOL_CALL_RETRY_UNKNOWN',
          `call "${event.callId}" retries "${event.retryOf}", which is not a recorded call of ${event.toolName}; name the call it retries.`,
        );
      const verdict = runRetryVerdict(target);
      if (verdict === 'query-first')
        return refuse(
          'RUN_TOOL_CALL_BLIND_RETRY',
          `call "${target.callId}" has an unknown outcome${target.query ? ' the query could not settle' : ' and was not queried'}; query its effect (tool-queried) and retry only when it found no effect.`,
        );
      if (verdict === 'not-retryable')
        return refuse(
          'RUN_TOOL_CALL_RETRY_NOT_RETRYABLE',
          `call "${target.callId}" is ${target.status}${target.errorClass ? ` (${target.errorClass})` : ''}${target.query ? `, queried as ${target.query.resolution}` : ''}; it is not retried: replan.`,
        );
    }
  }
  if (event.type === 'tool-result' || event.type === 'tool-queried') {
    const target = find(event.callId);
    if (target === undefined)
      return refuse(
        'RUN_TOOL_CALL_RETRY_UNKNOWN',
        `call "${event.callId}" is not recorded in run ${state.runId}; name a recorded call.`,
      );
    if (event.type === 'tool-result' && target.status !== 'in-flight')
      return refuse(
        'RUN_TOOL_CALL_NOT_IN_FLIGHT',
        `call "${event.callId}" already has its outcome (${target.status}); send a result once per call.`,
      );
    if (event.type === 'tool-queried' && target.errorClass !== 'unknown-outcome')
      return refuse(
        'RUN_TOOL_CALL_QUERY_NOT_UNKNOWN',
        `call "${event.callId}" is ${target.status}${target.errorClass ? ` (${target.errorClass})` : ''}; only an unknown-outcome call is queried.`,
      );
  }
  if (
    event.type === 'tool-result' &&
    (event.outcome === 'failed'
      ? event.errorClass === null || event.errorCode === null
      : event.errorClass !== null || event.errorCode !== null)
  )
    return refuse(
      'RUN_TOOL_CALL_OUTCOME_INCONSISTENT',
      event.outcome === 'failed'
        ? `the failed result of "${event.callId}" has no error class and code; say how it failed (a timed-out remote write is unknown-outcome).`
        : `the succeeded result of "${event.callId}" carries an error; send errorClass and errorCode null.`,
    );
  if (event.type === 'complete' && event.outcome === 'succeeded') {
    const open = calls.find((c) => c.status === 'in-flight');
    if (open)
      return refuse(
        'RUN_SUCCESS_WITH_CALLS_IN_FLIGHT',
        `call "${open.callId}" is still in flight; record its outcome (or query it) before the run succeeds.`,
      );
  }

  d.eventCount += 1;
  d.updatedAt = now;
  d.usage.elapsedMs = Math.max(d.usage.elapsedMs, clock.now() - Date.parse(d.startedAt));
  const stopped = (applied: boolean): RunStepOutcome => {
    stop(d, now);
    const code = 'RUN_BUDGET_EXHAUSTED';
    return { ok: true, state: finish(d), applied, notice: { code, requiredAction: RUN_NOTICES[code] } };
  };

  // Outcomes and costs are facts: they are recorded before any limit is judged.
  const recordsFact =
    event.type === 'tool-result' || event.type === 'tool-queried' || event.type === 'step-finished';
  if (!recordsFact && event.type !== 'cancel' && d.usage.elapsedMs > d.budget.maxDurationMs)
    return stopped(false);

  switch (event.type) {
    case 'step-started':
      if (d.usage.steps + 1 > d.budget.maxSteps) return stopped(false);
      d.usage.steps += 1;
      break;
    case 'step-finished':
      d.usage.costMicros += event.costMicros;
      d.loop.stepsWithoutStateChange = event.stateChanged ? 0 : d.loop.stepsWithoutStateChange + 1;
      break;
    case 'tool-called': {
      const retry = event.retryOf !== null;
      if (
        d.usage.toolCalls + 1 > d.budget.maxToolCalls ||
        (retry && d.usage.retries + 1 > d.budget.maxRetries) ||
        calls.length >= RUN_MAX_TOOL_CALL_RECORDS
      )
        return stopped(false);
      const call: ToolCallRecord = {
        callId: event.callId,
        toolName: event.toolName,
        actionDigest: event.actionDigest,
        step: Math.max(d.usage.steps, 1),
        calledAt: now,
        status: 'in-flight',
        errorClass: null,
        errorCode: null,
        retryOf: event.retryOf,
        query: null,
      };
      calls.push(call);
      d.usage.toolCalls += 1;
      if (retry) d.usage.retries += 1;
      d.loop.repeatedActionCount =
        d.loop.lastActionDigest === event.actionDigest ? d.loop.repeatedActionCount + 1 : 1;
      d.loop.lastActionDigest = event.actionDigest;
      break;
    }
    case 'tool-result': {
      const call = find(event.callId) as ToolCallRecord;
      d.usage.costMicros += event.costMicros;
      if (event.outcome === 'succeeded') {
        call.status = 'succeeded';
        d.loop.lastErrorDigest = null;
        d.loop.repeatedErrorCount = 0;
      } else {
        call.status = 'failed';
        call.errorClass = event.errorClass;
        call.errorCode = event.errorCode;
        const digest = computeRunErrorDigest({
          toolName: call.toolName,
          errorClass: event.errorClass as string,
          errorCode: event.errorCode as string,
        });
        d.loop.repeatedErrorCount = d.loop.lastErrorDigest === digest ? d.loop.repeatedErrorCount + 1 : 1;
        d.loop.lastErrorDigest = digest;
      }
      break;
    }
    case 'tool-queried':
      (find(event.callId) as ToolCallRecord).query = { queriedAt: now, resolution: event.resolution };
      break;
    case 'approval-requested':
      d.status = 'awaiting-approval';
      d.pauseReason = 'approval-pending';
      break;
    case 'dependency-wait':
      d.status = 'awaiting-dependency';
      d.pauseReason = 'dependency-pending';
      break;
    case 'approval-granted':
    case 'dependency-ready':
      d.status = 'running';
      d.pauseReason = null;
      break;
    case 'replanned':
      resetLoop(d);
      d.status = 'running';
      d.pauseReason = null;
      break;
    case 'takeover':
      d.status = 'blocked';
      d.pauseReason = 'human-takeover';
      break;
    case 'cancel':
      d.status = 'cancelled';
      d.pauseReason = null;
      d.terminalReason = 'cancelled';
      d.endedAt = now;
      break;
    case 'complete':
      d.status = event.outcome;
      d.pauseReason = null;
      d.terminalReason = event.outcome === 'succeeded' ? 'completion-verified' : 'completion-failed';
      d.endedAt = now;
      break;
  }

  // A run never keeps running past a limit or a loop threshold.
  if (!isTerminalRunStatus(d.status) && overLimit(d.usage, d.budget) !== null) return stopped(true);
  if (d.status === 'running' && loopReached(d)) {
    d.status = 'blocked';
    d.pauseReason = 'loop-detected';
    const code = 'RUN_LOOP_DETECTED';
    return { ok: true, state: finish(d), applied: true, notice: { code, requiredAction: RUN_NOTICES[code] } };
  }
  return { ok: true, state: finish(d), applied: true, notice: null };
}
