// run.step (RunControlGate): the reference run controller at the implementation's clock.
// Stateless: the harness passes the state the previous step returned.
import { type ManualClock, stepRun } from '@agent-contracts/engines';
import { InvalidParams, Refusal, type RunStepResult } from '@agent-contracts/protocol';
import type { RunEvent, RunStateV1 } from '@agent-contracts/schemas';
import { validate } from '@agent-contracts/validators';
import { closed, isObject, objectParams } from './params.js';

/** The members of each event type and how each is checked (the rest of the shape is the engine's). */
const EVENT_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  start: ['taskId', 'mode', 'controls', 'budget', 'thresholds'],
  'step-started': [],
  'step-finished': ['costMicros', 'stateChanged'],
  'tool-called': ['callId', 'toolName', 'actionDigest', 'retryOf'],
  'tool-result': ['callId', 'outcome', 'errorClass', 'errorCode', 'costMicros'],
  'tool-queried': ['callId', 'resolution'],
  'approval-requested': [],
  'approval-granted': [],
  'dependency-wait': [],
  'dependency-ready': [],
  replanned: [],
  takeover: [],
  cancel: [],
  complete: ['outcome'],
};
const CALL_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
const SHA256 = /^[a-f0-9]{64}$/;
const isCount = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isName = (v: unknown, max: number) => typeof v === 'string' && v.length >= 1 && v.length <= max;

/** A well-formed event, or InvalidParams naming the first member that is not. */
function eventOf(raw: unknown): RunEvent {
  if (!isObject(raw)) throw new InvalidParams('run.step: params.event must be an object');
  const members = typeof raw.type === 'string' ? EVENT_MEMBERS[raw.type] : undefined;
  if (members === undefined)
    throw new InvalidParams(
      `run.step: params.event.type must be one of ${Object.keys(EVENT_MEMBERS).join(', ')}`,
    );
  for (const k of Object.keys(raw))
    if (k !== 'type' && !members.includes(k))
      throw new InvalidParams(`run.step: params.event.${k} is not a member of "${raw.type}"`);
  const bad = (k: string, what: string): never => {
    throw new InvalidParams(`run.step: params.event.${k} must be ${what}`);
  };
  const e = raw as Record<string, unknown>;
  const check: Record<string, () => void> = {
    taskId: () => isName(e.taskId, 256) || bad('taskId', 'a string of 1-256 characters'),
    mode: () => e.mode === 'bounded' || e.mode === 'until-done' || bad('mode', 'bounded or until-done'),
    controls: () => {
      const c = e.controls;
      if (
        !isObject(c) ||
        typeof c.cancellable !== 'boolean' ||
        !(c.takeoverChannel === null || isName(c.takeoverChannel, 512)) ||
        Object.keys(c).length !== 2
      )
        bad('controls', '{ cancellable: boolean, takeoverChannel: string | null }');
    },
    budget: () => {
      const b = e.budget;
      const keys = ['maxSteps', 'maxToolCalls', 'maxRetries', 'maxDurationMs', 'maxCostMicros'];
      if (
        !isObject(b) ||
        Object.keys(b).length !== 6 ||
        !keys.every((k) => isCount(b[k])) ||
        (b.maxSteps as number) < 1 ||
        (b.maxDurationMs as number) < 1 ||
        typeof b.currency !== 'string' ||
        !/^[A-Z]{3}$/.test(b.currency)
      )
        bad('budget', 'a RunBudget (every limit, and a currency code)');
    },
    thresholds: () => {
      const t = e.thresholds;
      const within = (v: unknown, lo: number, hi: number) =>
        isCount(v) && (v as number) >= lo && (v as number) <= hi;
      if (
        !isObject(t) ||
        Object.keys(t).length !== 3 ||
        !within(t.repeatedAction, 2, 3) ||
        !within(t.repeatedError, 2, 3) ||
        !within(t.noProgressSteps, 2, 10)
      )
        bad('thresholds', '{ repeatedAction: 2-3, repeatedError: 2-3, noProgressSteps: 2-10 }');
    },
    costMicros: () => isCount(e.costMicros) || bad('costMicros', 'a non-negative integer'),
    stateChanged: () => typeof e.stateChanged === 'boolean' || bad('stateChanged', 'a boolean'),
    callId: () =>
      (typeof e.callId === 'string' && CALL_ID.test(e.callId)) ||
      bad('callId', `a call id (${CALL_ID.source})`),
    toolName: () => isName(e.toolName, 256) || bad('toolName', 'a string of 1-256 characters'),
    actionDigest: () =>
      (typeof e.actionDigest === 'string' && SHA256.test(e.actionDigest)) ||
      bad('actionDigest', 'a SHA-256 hex digest'),
    retryOf: () =>
      e.retryOf === null ||
      (typeof e.retryOf === 'string' && CALL_ID.test(e.retryOf)) ||
      bad('retryOf', 'a call id or null'),
    outcome: () =>
      e.outcome === 'succeeded' || e.outcome === 'failed' || bad('outcome', 'succeeded or failed'),
    errorClass: () =>
      e.errorClass === null ||
      ['business-rejection', 'transient', 'permanent', 'unknown-outcome'].includes(e.errorClass as string) ||
      bad('errorClass', 'an error class or null'),
    errorCode: () =>
      e.errorCode === null ||
      isName(e.errorCode, 128) ||
      bad('errorCode', 'a string of 1-128 characters or null'),
    resolution: () =>
      ['effect-applied', 'no-effect', 'still-unknown'].includes(e.resolution as string) ||
      bad('resolution', 'effect-applied, no-effect or still-unknown'),
  };
  for (const k of members) {
    if (!(k in e)) throw new InvalidParams(`run.step: params.event.${k} is required for "${raw.type}"`);
    check[k]!();
  }
  return raw as unknown as RunEvent;
}

/**
 * The run.step method.
 *
 * @example
 * const methods = runMethods(clock);
 * methods['run.step']!({ state: null, event: { type: 'step-started' } }); // refused: RUN_NOT_STARTED
 */
export function runMethods(clock: ManualClock): Record<string, (params: unknown) => unknown> {
  return {
    'run.step'(params): RunStepResult {
      const p = objectParams(params, 'run.step');
      if (!('state' in p)) throw new InvalidParams('run.step: params.state is required (null before start)');
      closed(p, ['state', 'event'], 'params');
      const event = eventOf(p.event);
      let state: RunStateV1 | null = null;
      if (p.state !== null) {
        const r = validate(p.state, { contract: 'RunStateV1' });
        if (!r.ok) {
          const issues = r.issues
            .filter((i) => i.severity === 'error')
            .slice(0, 64)
            .map((i) => ({ code: i.code, path: i.path }));
          throw new Refusal(
            'RUN_STATE_INVALID',
            'run.step: params.state is not a valid RunStateV1; send the state the previous step returned',
            {
              requiredAction: 'send-a-valid-state',
              issues,
            },
          );
        }
        state = p.state as RunStateV1;
      }
      const r = stepRun(state, event, clock);
      if (!r.ok) throw Refusal.from(r);
      return { state: r.state, applied: r.applied, notice: r.notice };
    },
  };
}
