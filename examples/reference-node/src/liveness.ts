// The liveness.* methods (TurnLivenessRecoveryGate): one turn state per implementation process,
// driven by host events through the pure engine, classified at the injected clock, persisted as
// JSON under the state location after every change and rehydrated (validated, never repaired)
// when the process starts again.
import {
  applyTurnEvent,
  classify,
  createTurnState,
  type LeaseRequest,
  type ManualClock,
  observeTurnState,
  type RehydrateResult,
  rehydrateTurnState,
  requestLease,
  type TurnEventContext,
  type TurnHostEvent,
  watchdogCheck,
} from '@agent-contracts/engines';
import { InvalidParams, Refusal } from '@agent-contracts/protocol';
import type { TurnLivenessStateV1, TurnLivenessThresholdsV1 } from '@agent-contracts/schemas';
import { validate } from '@agent-contracts/validators';
import { isObject, objectParams, oneOf, optOneOf, optStr, optStrings, optTime, str } from './params.js';
import { readJson, stateFile, writeJsonAtomic } from './persist.js';

const HOST_EVENTS = [
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PreCompact',
  'Stop',
  'TurnError',
  'TurnInterrupted',
  'UnknownHostEvent',
] as const;

/** The file of the turn state inside a state directory. */
export const TURN_STATE_FILE = 'turn-liveness-state.json';

/** The turn state held in memory, or the refusal of the state found on disk. */
type Held = RehydrateResult;

const checkState = (document: unknown) => validate(document, { contract: 'TurnLivenessStateV1' });

// What a liveness state holds (TurnLivenessStateV1): a digest is 64 lowercase hex digits, a target
// a workspace-relative artifact path; params that break them are malformed (D-TLR-59).
const DIGEST = /^[a-f0-9]{64}$/;
const ARTIFACT_PATH = /^(?![/~])(?!.*(?:^|\/)\.\.?(?:\/|$))[^\\:*?"<>|]+$/;
function digestOrNull(v: unknown, name: string): string | null | undefined {
  if (v === undefined || v === null) return v;
  if (typeof v !== 'string' || !DIGEST.test(v))
    throw new InvalidParams(`liveness.event: ${name} must be 64 lowercase hex digits or null`);
  return v;
}
function artifactPaths(v: string[] | undefined, name: string): string[] | undefined {
  if (v?.some((t) => [...t].length > 512 || !ARTIFACT_PATH.test(t)))
    throw new InvalidParams(`liveness.event: every ${name} is a workspace-relative path of 1-512 characters`);
  return v;
}

/** Read a host event from params (`at`: RFC 3339, default the implementation's clock). */
function hostEvent(raw: unknown, nowMs: number): TurnHostEvent {
  if (!isObject(raw)) throw new InvalidParams('liveness.event: params.event must be an object');
  const w = 'event';
  const type = oneOf(raw, 'type', HOST_EVENTS, w);
  const at = optTime(raw, 'at', w) ?? nowMs;
  switch (type) {
    case 'UserPromptSubmit': {
      const turnKey = optStr(raw, 'turnKey', w);
      const sessionKey = optStr(raw, 'sessionKey', w);
      const taskTraceId = optStr(raw, 'taskTraceId', w);
      return {
        type,
        at,
        ...(turnKey === undefined ? {} : { turnKey }),
        ...(sessionKey === undefined ? {} : { sessionKey }),
        ...(taskTraceId === undefined ? {} : { taskTraceId }),
      };
    }
    case 'PreToolUse': {
      if (typeof raw.mutating !== 'boolean') throw new InvalidParams('event.mutating must be a boolean');
      const targetPaths = artifactPaths(optStrings(raw, 'targetPaths', w), 'event.targetPaths');
      const digest = digestOrNull(raw.operationRecordDigest, 'event.operationRecordDigest');
      return {
        type,
        at,
        operationId: str(raw, 'operationId', w),
        toolName: str(raw, 'toolName', w),
        hostDecision: oneOf(raw, 'hostDecision', ['allowed', 'blocked'] as const, w),
        mutating: raw.mutating,
        ...(targetPaths === undefined ? {} : { targetPaths }),
        ...(digest === undefined ? {} : { operationRecordDigest: digest }),
      };
    }
    case 'PostToolUse': {
      const outcome = optOneOf(raw, 'outcome', ['success', 'error'] as const, w);
      const mutatedTargets = artifactPaths(optStrings(raw, 'mutatedTargets', w), 'event.mutatedTargets');
      return {
        type,
        at,
        operationId: str(raw, 'operationId', w),
        ...(outcome === undefined ? {} : { outcome }),
        ...(mutatedTargets === undefined ? {} : { mutatedTargets }),
      };
    }
    default:
      return { type, at };
  }
}

function eventContext(raw: unknown): TurnEventContext {
  if (raw === undefined) return { unresolvedOperation: false };
  if (!isObject(raw)) throw new InvalidParams('liveness.event: params.context must be an object');
  const u = raw.unresolvedOperation;
  if (u !== undefined && typeof u !== 'boolean')
    throw new InvalidParams('context.unresolvedOperation must be a boolean');
  const d = digestOrNull(raw.taskOperationSetDigest, 'context.taskOperationSetDigest');
  const observer = optOneOf(raw, 'observer', ['hook-event-time', 'host-native-watchdog'] as const, 'context');
  return {
    unresolvedOperation: u ?? false,
    ...(d === undefined ? {} : { taskOperationSetDigest: d }),
    ...(observer === undefined ? {} : { observer }),
  };
}

function thresholdOverrides(raw: unknown): Partial<TurnLivenessThresholdsV1> {
  if (raw === undefined) return {};
  if (!isObject(raw)) throw new InvalidParams('liveness.reset: params.thresholds must be an object');
  const out: Record<string, number> = {};
  for (const k of ['suspectAfterMs', 'stalledAfterMs', 'operationLeaseMs']) {
    const v = raw[k];
    if (v === undefined) continue;
    if (typeof v !== 'number' || !Number.isFinite(v))
      throw new InvalidParams(`thresholds.${k} must be a number`);
    out[k] = v;
  }
  return out;
}

/**
 * The liveness.* methods over one held turn state.
 *
 * @example
 * const liveness = createLiveness(new ManualClock(Date.parse('2026-11-30T05:41:12.000Z')));
 * liveness.open(null);
 * await liveness.methods['liveness.event']!({ event: { type: 'UserPromptSubmit', turnKey: 'req_1' } });
 */
export function createLiveness(clock: ManualClock) {
  let held: Held = { ok: true, state: createTurnState({ initializedAt: clock.now() }) };
  let file: string | null = null;

  const adopt = (document: unknown): Held => {
    return rehydrateTurnState(document, checkState);
  };
  const current = (): TurnLivenessStateV1 => {
    if (!held.ok) throw Refusal.from(held);
    return held.state;
  };
  const store = (state: TurnLivenessStateV1) => {
    held = { ok: true, state };
    if (file) writeJsonAtomic(file, state);
  };

  const methods: Record<string, (params: unknown) => unknown> = {
    'liveness.reset'(params) {
      const p = objectParams(params, 'liveness.reset');
      const state = createTurnState({
        initializedAt: clock.now(),
        thresholds: thresholdOverrides(p.thresholds),
      });
      store(state);
      return state;
    },
    'liveness.rehydrate'(params) {
      const p = objectParams(params, 'liveness.rehydrate');
      if (!('state' in p)) throw new InvalidParams('liveness.rehydrate: params.state is required');
      if (file) writeJsonAtomic(file, p.state ?? undefined);
      held = adopt(p.state);
      return current();
    },
    'liveness.state'(params) {
      objectParams(params, 'liveness.state');
      return current();
    },
    'liveness.classify'(params) {
      objectParams(params, 'liveness.classify');
      return classify(current(), clock);
    },
    'liveness.evidence'(params) {
      objectParams(params, 'liveness.evidence');
      return observeTurnState(current(), clock);
    },
    'liveness.event'(params) {
      const p = objectParams(params, 'liveness.event');
      const event = hostEvent(p.event, clock.now());
      const r = applyTurnEvent(current(), event, eventContext(p.context));
      store(r.state);
      if (!r.ok) throw Refusal.from(r);
      return { state: r.state, card: r.card };
    },
    'liveness.watchdog'(params) {
      objectParams(params, 'liveness.watchdog');
      const before = current();
      const r = watchdogCheck(before, clock);
      if (r.state !== before) store(r.state);
      return { state: r.state, card: r.card };
    },
    'liveness.lease'(params) {
      const p = objectParams(params, 'liveness.lease');
      const kind = oneOf(p, 'kind', ['tool-call', 'user-process', 'pid'] as const, 'params');
      let request: LeaseRequest;
      if (kind === 'tool-call') {
        request = { kind, hostDecision: oneOf(p, 'hostDecision', ['allowed', 'blocked'] as const, 'params') };
      } else {
        if (p.pid !== undefined && (typeof p.pid !== 'number' || !Number.isInteger(p.pid)))
          throw new InvalidParams('params.pid must be an integer');
        request = { kind, ...(p.pid === undefined ? {} : { pid: p.pid as number }) };
      }
      const r = requestLease(current(), request);
      if (!r.ok) throw Refusal.from(r);
      return { ok: true };
    },
  };

  return {
    methods,
    /** (Re)open durable state at `location` (hello): rehydrate the stored state, writing nothing. */
    open(location: string | null): void {
      file = stateFile(location, TURN_STATE_FILE);
      const stored = file ? readJson(file) : undefined;
      held =
        stored === undefined
          ? { ok: true, state: createTurnState({ initializedAt: clock.now() }) }
          : adopt(stored.value);
    },
  };
}
