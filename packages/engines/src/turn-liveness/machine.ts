// The turn liveness state machine: count, recovery check, edge
// (docs/spec/turn-liveness-recovery-gate.md#state-machine). Pure: state + event + context in,
// next state (and at most one recovery card) out.
import { derivedId } from '@agent-contracts/digest';
import type {
  CheckpointV1,
  TurnEndReason,
  TurnHostEventType,
  TurnLivenessStateV1,
  TurnLivenessThresholdsV1,
  TurnOperationLeaseV1,
  TurnRecoveryCardV1,
  TurnSummaryV1,
  TurnTerminalStatus,
} from '@agent-contracts/schemas';
import { buildCheckpoint, type CheckpointPhase, mergeArtifactPaths } from '../checkpoint/checkpoint.js';
import { type CheckpointEvidence, validateCheckpoint } from '../checkpoint/validation.js';
import { timestampOf } from '../clock.js';
import { type EngineRefusal, refusal } from '../refusal.js';
import { buildRecoveryCard, dueNoticeKey, type StaleClassification } from './card.js';
import { classifyAt, isTerminalState } from './classify.js';
import { normaliseThresholds, postExecutionDeadlineMs } from './thresholds.js';

/** A host event delivered to the liveness core, with the host's own event time `at` (ms since the epoch). */
export type TurnHostEvent =
  | {
      readonly type: 'UserPromptSubmit';
      readonly at: number;
      /** The host's own turn or request id; derived from `sessionKey` when absent (D-TLR-18). */
      readonly turnKey?: string;
      /** The host session id, used to derive a turn key when the host has none. */
      readonly sessionKey?: string;
      /** The new turn's LocalTaskTraceV1 `traceId`; derived as `trace-` + digest({turnKey, openedAt}) when absent. */
      readonly taskTraceId?: string;
    }
  | {
      readonly type: 'PreToolUse';
      readonly at: number;
      readonly operationId: string;
      readonly toolName: string;
      /** The host permission layer's decision; only `allowed` calls get a lease. */
      readonly hostDecision: 'allowed' | 'blocked';
      readonly mutating: boolean;
      /** Workspace-relative targets the call declares (at most 20 kept). */
      readonly targetPaths?: readonly string[];
      /** `recordDigest` of the TaskOperationRecordV1 tracking the call, when it is a formal operation. */
      readonly operationRecordDigest?: string | null;
    }
  | {
      readonly type: 'PostToolUse';
      readonly at: number;
      readonly operationId: string;
      /** `error` writes phase `tool-error-observed`; default `success`. */
      readonly outcome?: 'success' | 'error';
      /** Targets the call changed, appended to the checkpoint's artifacts; default: the lease's targets when mutating. */
      readonly mutatedTargets?: readonly string[];
    }
  | {
      readonly type: 'PreCompact' | 'Stop' | 'TurnError' | 'TurnInterrupted' | 'UnknownHostEvent';
      readonly at: number;
    };

/** What the liveness core knows about the world outside the turn when an event arrives. */
export interface TurnEventContext {
  /** Whether the task has an unresolved operation (TaskContinuityWriteGate); `Stop` is refused while it has. */
  readonly unresolvedOperation: boolean;
  /** `settledSetDigest` of the task's TaskOperationSetV1 as last read, when the turn runs in a formal task. */
  readonly taskOperationSetDigest?: string | null;
  /** The channel delivering the event (default `hook-event-time`); named in any card. */
  readonly observer?: 'hook-event-time' | 'host-native-watchdog';
}

/** Runtime codes of refused (or partly refused) events. */
export type TurnEventCode =
  | 'TURN_NOT_STARTED'
  | 'TURN_TERMINAL_FINAL'
  | 'TURN_OPERATION_LEASE_HELD'
  | 'TURN_LEASE_NOT_HOST_ALLOWED'
  | 'TURN_TOOL_OUTPUT_UNMATCHED'
  | 'TURN_TERMINAL_OPERATIONS_UNSETTLED'
  | 'TURN_KEY_REUSED'
  | 'TURN_KEY_INVALID'
  | 'TURN_TRACE_ID_INVALID';

/** The turn layer's key format (docs/spec/turn-liveness-recovery-gate.md, "Key formats"). */
const TURN_KEY_FORMAT = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;

/** Whether a host-supplied key has the turn layer's format: 1 to 256 characters of {@link TURN_KEY_FORMAT}. */
const isTurnLayerKey = (key: string): boolean => key.length <= 256 && TURN_KEY_FORMAT.test(key);

/**
 * Result of {@link applyTurnEvent}. Every delivered event is counted, so `state` is always the
 * state to persist, refused or not; `card` is the one recovery card the event produced, if any.
 */
export type TurnEventResult =
  | { readonly ok: true; readonly state: TurnLivenessStateV1; readonly card: TurnRecoveryCardV1 | null }
  /** `code` says what was refused: the whole edge, or only the lease (`TURN_OPERATION_LEASE_HELD`, `TURN_LEASE_NOT_HOST_ALLOWED`). */
  | EngineRefusal<
      TurnEventCode,
      { readonly state: TurnLivenessStateV1; readonly card: TurnRecoveryCardV1 | null }
    >;

/** The blocking issue a refused `Stop` records until the task's operations are settled. */
export const UNSETTLED_ISSUE = 'task-operation-unsettled';
/** The action recorded with {@link UNSETTLED_ISSUE}. */
export const UNSETTLED_ACTION = 'reconcile-operation-before-completion';
const MAX_TARGET_PATHS = 20;

/**
 * A fresh, idle TurnLivenessStateV1 (no turn yet). Thresholds are normalised before they are
 * stored (D-TLR-09).
 *
 * @example
 * const state = createTurnState({ initializedAt: Date.parse('2026-11-30T05:40:00.000Z') });
 * state.state; // 'idle'
 */
export function createTurnState(options: {
  readonly initializedAt: number;
  readonly thresholds?: Partial<TurnLivenessThresholdsV1>;
}): TurnLivenessStateV1 {
  return {
    schemaVersion: 'TurnLivenessStateV1',
    state: 'idle',
    turnKey: null,
    eventSequence: 0,
    initializedAt: timestampOf(options.initializedAt),
    startedAt: null,
    lastEventType: null,
    lastEventAt: null,
    lastToolCallId: null,
    lastToolOutputAt: null,
    continuationAckAt: null,
    inFlightOperation: null,
    terminalAt: null,
    terminalReason: null,
    thresholds: normaliseThresholds(options.thresholds),
    checkpoint: null,
    checkpointValidation: null,
    taskTraceId: null,
    taskOperationSetDigest: null,
    previousTurn: null,
    lastRecoveryNoticeKey: null,
  };
}

/** What a lease is requested for. Only a host-allowed tool call can ever get one. */
export type LeaseRequest =
  | { readonly kind: 'tool-call'; readonly hostDecision: 'allowed' | 'blocked' }
  | { readonly kind: 'user-process' | 'pid'; readonly pid?: number };

/** Result of {@link requestLease}. */
export type LeaseDecision =
  | { readonly ok: true }
  | EngineRefusal<
      'TURN_LEASE_NOT_HOST_ALLOWED' | 'TURN_OPERATION_LEASE_HELD' | 'TURN_NOT_STARTED' | 'TURN_TERMINAL_FINAL'
    >;

/**
 * Whether a lease may be granted in `state`: only for a host-allowed tool call, at most one in
 * flight, and only in a started, non-terminal turn. A user process or a PID is never leased.
 *
 * @example
 * requestLease(state, { kind: 'pid', pid: 4242 }); // { ok: false, code: 'TURN_LEASE_NOT_HOST_ALLOWED', ... }
 */
export function requestLease(state: TurnLivenessStateV1, request: LeaseRequest): LeaseDecision {
  if (request.kind !== 'tool-call') {
    return refusal(
      'TURN_LEASE_NOT_HOST_ALLOWED',
      `a ${request.kind} is never a lease: only a host-allowed tool call of the agent gets one; nothing was leased.`,
    );
  }
  if (request.hostDecision !== 'allowed') {
    return refusal(
      'TURN_LEASE_NOT_HOST_ALLOWED',
      'the host blocked this tool call, so it gets no lease; nothing was leased.',
    );
  }
  if (state.state === 'idle')
    return refusal('TURN_NOT_STARTED', 'no turn has started; a lease needs a running turn.');
  if (isTerminalState(state.state))
    return refusal('TURN_TERMINAL_FINAL', `the turn is ${state.state}; a new prompt starts the next turn.`);
  if (state.inFlightOperation !== null) {
    return refusal(
      'TURN_OPERATION_LEASE_HELD',
      `lease ${state.inFlightOperation.operationId} is still in flight; the call proceeds without a lease and the held lease keeps the turn alive.`,
    );
  }
  return { ok: true };
}

const terminalOf: Partial<Record<TurnHostEventType, { status: TurnTerminalStatus; reason: TurnEndReason }>> =
  {
    Stop: { status: 'completed', reason: 'host-stop' },
    TurnError: { status: 'error', reason: 'host-error' },
    TurnInterrupted: { status: 'interrupted', reason: 'host-interrupt' },
  };

function responseItem(
  type: TurnHostEventType,
  eventSequence: number,
  observedAt: string,
): CheckpointEvidence {
  const kind = type === 'PostToolUse' ? 'tool-output' : type === 'PreCompact' ? 'pre-compact' : 'host-event';
  return { kind, eventType: type, eventSequence, observedAt };
}

interface EdgeOutcome {
  readonly state: TurnLivenessStateV1;
  /** The item appended to the post-execution evidence (accepted tool outputs, PreCompact, terminals). */
  readonly postItem: CheckpointEvidence | null;
  readonly refusal?: { readonly code: TurnEventCode; readonly message: string };
  /** The refused Stop: post-execution becomes blocked. */
  readonly stopRefused?: boolean;
}

function judge(
  turnKey: string,
  mode: 'response-time' | 'post-execution',
  evidence: readonly CheckpointEvidence[],
  blockingIssues: readonly string[],
  deadlineAt: string | null,
  nowMs: number,
) {
  const r = validateCheckpoint(
    {
      turnKey,
      mode,
      evidence,
      blockingIssues,
      ...(blockingIssues.length ? { requiredActions: [UNSETTLED_ACTION] } : {}),
      deadlineAt,
    },
    { now: () => nowMs },
  );
  if (!r.ok) throw new Error(`internal: ${r.message}`); // unreachable: the inputs are built here
  return r.result;
}

/** Recompute the validation pair after an edge of a started turn (state machine step 3). */
function revalidate(
  s: TurnLivenessStateV1,
  type: TurnHostEventType,
  outcome: EdgeOutcome,
  ctx: TurnEventContext,
  nowMs: number,
): TurnLivenessStateV1 {
  const pair = s.checkpointValidation!;
  const turnKey = s.turnKey!;
  const at = s.lastEventAt!;
  const held = pair.postExecution.blockingIssues.includes(UNSETTLED_ISSUE) && ctx.unresolvedOperation;
  const issues = outcome.stopRefused || held ? [UNSETTLED_ISSUE] : [];
  const post = outcome.postItem
    ? [...pair.postExecution.evidence, outcome.postItem]
    : pair.postExecution.evidence;
  return {
    ...s,
    checkpointValidation: {
      responseTime: judge(
        turnKey,
        'response-time',
        [responseItem(type, s.eventSequence, at)],
        [],
        null,
        nowMs,
      ),
      postExecution: judge(turnKey, 'post-execution', post, issues, pair.postExecution.deadlineAt, nowMs),
    },
  };
}

function checkpointFrom(
  s: TurnLivenessStateV1,
  phase: CheckpointPhase,
  operationId: string | null,
  nextAction: string,
  added: readonly string[] = [],
): CheckpointV1 {
  return buildCheckpoint({
    turnKey: s.turnKey!,
    phase,
    operationId,
    artifactPaths: mergeArtifactPaths(s.checkpoint?.artifactPaths ?? [], added),
    nextAction,
    recordedAt: s.lastEventAt!,
  });
}

/** (A): acknowledge continuation when the turn awaits it. */
const ack = (s: TurnLivenessStateV1): TurnLivenessStateV1 =>
  s.state === 'awaiting-continuation' ? { ...s, continuationAckAt: s.lastEventAt } : s;

function startTurn(
  s: TurnLivenessStateV1,
  event: Extract<TurnHostEvent, { type: 'UserPromptSubmit' }>,
  nowMs: number,
): EdgeOutcome {
  const t = s.lastEventAt!;
  // A host-supplied key or trace id becomes part of the persisted state: one that is not in the
  // turn layer's format would be stored in a state that fails its own schema (TLR-501).
  if (event.turnKey !== undefined && !isTurnLayerKey(event.turnKey)) {
    return {
      state: s,
      postItem: null,
      refusal: {
        code: 'TURN_KEY_INVALID',
        message: `turn key ${JSON.stringify(event.turnKey.slice(0, 64))} is not 1 to 256 characters matching ${TURN_KEY_FORMAT.source}; send the host's id only when it has that form, otherwise omit turnKey so the key is derived.`,
      },
    };
  }
  if (event.taskTraceId !== undefined && !isTurnLayerKey(event.taskTraceId)) {
    return {
      state: s,
      postItem: null,
      refusal: {
        code: 'TURN_TRACE_ID_INVALID',
        message: `task trace id ${JSON.stringify(event.taskTraceId.slice(0, 64))} is not 1 to 256 characters matching ${TURN_KEY_FORMAT.source}; omit taskTraceId so the trace id is derived.`,
      },
    };
  }
  const turnKey =
    event.turnKey ??
    derivedId(
      'turn-',
      { sessionKey: event.sessionKey ?? null, eventSequence: s.eventSequence, startedAt: t },
      24,
    );
  if (turnKey === s.turnKey || turnKey === s.previousTurn?.turnKey) {
    return {
      state: s,
      postItem: null,
      refusal: {
        code: 'TURN_KEY_REUSED',
        message: `turn key ${turnKey} is the current or previous turn's key; derive a fresh key for the new turn.`,
      },
    };
  }
  let previousTurn: TurnSummaryV1 | null = s.previousTurn;
  if (s.state === 'running' || s.state === 'awaiting-continuation') {
    previousTurn = {
      turnKey: s.turnKey!,
      terminalState: 'interrupted',
      terminalAt: t,
      reason:
        s.lastRecoveryNoticeKey !== null ? 'stale-turn-recovered-by-new-prompt' : 'superseded-by-new-prompt',
    };
  } else if (isTerminalState(s.state)) {
    previousTurn = {
      turnKey: s.turnKey!,
      terminalState: s.state,
      terminalAt: s.terminalAt!,
      reason: s.terminalReason!,
    };
  }
  const deadlineAt = timestampOf(Date.parse(t) + postExecutionDeadlineMs(s.thresholds));
  const started: TurnLivenessStateV1 = {
    ...s,
    state: 'running',
    turnKey,
    startedAt: t,
    lastToolCallId: null,
    lastToolOutputAt: null,
    continuationAckAt: null,
    inFlightOperation: null,
    terminalAt: null,
    terminalReason: null,
    lastRecoveryNoticeKey: null,
    previousTurn,
    taskTraceId: event.taskTraceId ?? derivedId('trace-', { turnKey, openedAt: t }, 24),
    checkpoint: buildCheckpoint({
      turnKey,
      phase: 'turn-started',
      operationId: null,
      artifactPaths: [],
      nextAction: 'await agent response',
      recordedAt: t,
    }),
    checkpointValidation: {
      responseTime: judge(
        turnKey,
        'response-time',
        [responseItem('UserPromptSubmit', s.eventSequence, t)],
        [],
        null,
        nowMs,
      ),
      postExecution: judge(turnKey, 'post-execution', [], [], deadlineAt, nowMs),
    },
  };
  return { state: started, postItem: null };
}

function edge(s: TurnLivenessStateV1, event: TurnHostEvent, ctx: TurnEventContext): EdgeOutcome {
  const t = s.lastEventAt!;
  switch (event.type) {
    case 'PreToolUse': {
      const decision = requestLease(s, { kind: 'tool-call', hostDecision: event.hostDecision });
      if (!decision.ok && decision.code === 'TURN_OPERATION_LEASE_HELD')
        return { state: s, postItem: null, refusal: decision };
      // A blocked call still acknowledges continuation; it gets no lease and the checkpoint stays.
      if (!decision.ok) return { state: { ...ack(s), state: 'running' }, postItem: null, refusal: decision };
      const lease: TurnOperationLeaseV1 = {
        operationId: event.operationId,
        toolName: event.toolName,
        ownedByAgent: true,
        hostDecision: 'allowed',
        mutating: event.mutating,
        targetPaths: [...new Set(event.targetPaths ?? [])].slice(0, MAX_TARGET_PATHS),
        startedAt: t,
        leaseExpiresAt: timestampOf(Date.parse(t) + s.thresholds.operationLeaseMs),
        operationRecordDigest: event.operationRecordDigest ?? null,
      };
      const acked = ack(s);
      return {
        state: {
          ...acked,
          state: 'running',
          inFlightOperation: lease,
          checkpoint: checkpointFrom(acked, `tool:${event.toolName}`, event.operationId, 'await PostToolUse'),
        },
        postItem: null,
      };
    }
    case 'PostToolUse': {
      const lease = s.inFlightOperation;
      if (s.state === 'running' && lease !== null && lease.operationId === event.operationId) {
        const error = event.outcome === 'error';
        const targets = event.mutatedTargets ?? (lease.mutating ? lease.targetPaths : []);
        return {
          state: {
            ...s,
            state: 'awaiting-continuation',
            lastToolCallId: event.operationId,
            lastToolOutputAt: t,
            continuationAckAt: null,
            inFlightOperation: null,
            checkpoint: checkpointFrom(
              s,
              error ? 'tool-error-observed' : 'tool-output-persisted',
              event.operationId,
              'await continuation ACK',
              targets,
            ),
          },
          postItem: {
            kind: 'tool-output',
            eventType: 'PostToolUse',
            eventSequence: s.eventSequence,
            observedAt: t,
          },
        };
      }
      if (event.operationId === s.lastToolCallId) return { state: s, postItem: null };
      return {
        state: s,
        postItem: null,
        refusal: {
          code: 'TURN_TOOL_OUTPUT_UNMATCHED',
          message: `tool output ${event.operationId} names neither the in-flight lease nor the last output; it is recorded as deferred and the lease is untouched.`,
        },
      };
    }
    case 'PreCompact': {
      const acked = ack(s);
      return {
        state: {
          ...acked,
          state: 'running',
          checkpoint: checkpointFrom(
            acked,
            'pre-compact',
            s.inFlightOperation?.operationId ?? null,
            'await agent continuation after compaction',
          ),
        },
        postItem: {
          kind: 'pre-compact',
          eventType: 'PreCompact',
          eventSequence: s.eventSequence,
          observedAt: t,
        },
      };
    }
    case 'Stop':
    case 'TurnError':
    case 'TurnInterrupted': {
      if (event.type === 'Stop' && ctx.unresolvedOperation) {
        return {
          state: s,
          postItem: null,
          stopRefused: true,
          refusal: {
            code: 'TURN_TERMINAL_OPERATIONS_UNSETTLED',
            message:
              'Stop arrived while the task has an unresolved operation; settle or reconcile it (TaskContinuityWriteGate), then the host stops again.',
          },
        };
      }
      const { status, reason } = terminalOf[event.type]!;
      const acked = ack(s);
      return {
        state: {
          ...acked,
          state: status,
          inFlightOperation: null,
          terminalAt: t,
          terminalReason: reason,
          checkpoint: checkpointFrom(acked, `terminal:${status}`, null, `none: turn ${status}`),
        },
        postItem: {
          kind: 'host-terminal-event',
          eventType: event.type,
          eventSequence: s.eventSequence,
          observedAt: t,
          terminalStatus: status,
        },
      };
    }
    case 'UnknownHostEvent':
      return { state: { ...ack(s), state: 'running' }, postItem: null };
    case 'UserPromptSubmit':
      throw new Error('internal: UserPromptSubmit is handled by startTurn');
  }
}

/**
 * Apply one host event to a valid persisted state (the three steps of the state machine):
 *
 * 1. Count: `eventSequence` + 1, `lastEventType`, and `lastEventAt` = the event's effective time
 *    `t` = max(event time, previous `lastEventAt`, `initializedAt`), so time evidence never moves
 *    backwards (D-TLR-22, D-TLR-23).
 * 2. Recovery check (running / awaiting-continuation only): classify the state before the event
 *    at `t`; a stale result whose notice key is not `lastRecoveryNoticeKey` yields exactly one
 *    TurnRecoveryCardV1 and records the key. Nothing else happens: no kill, restart, interrupt,
 *    resume or replay.
 * 3. Edge: the matching row of the edge table, then the validation pair is recomputed.
 *
 * Refused combinations change nothing beyond step 1 (and step 2) and come back as
 * `{ ok: false, code }` with the counted `state`. A `PostToolUse` never yields a terminal state,
 * and every terminal edge clears the in-flight lease.
 *
 * @example
 * let state = createTurnState({ initializedAt: T0 });
 * ({ state } = applyTurnEvent(state, { type: 'UserPromptSubmit', at: T0, turnKey: 'req_1' }, { unresolvedOperation: false }));
 * state.state; // 'running'
 */
export function applyTurnEvent(
  state: TurnLivenessStateV1,
  event: TurnHostEvent,
  context: TurnEventContext,
): TurnEventResult {
  const floor = Date.parse(state.lastEventAt ?? state.initializedAt);
  const eventMs = Math.floor(event.at);
  const tMs = Math.max(eventMs, floor);
  const t = eventMs > floor ? timestampOf(eventMs) : (state.lastEventAt ?? state.initializedAt);
  // Step 1: count.
  let next: TurnLivenessStateV1 = {
    ...state,
    eventSequence: state.eventSequence + 1,
    lastEventType: event.type,
    lastEventAt: t,
  };
  if (state.state === 'idle' && event.type !== 'UserPromptSubmit') {
    return refuse('TURN_NOT_STARTED', `no turn has started; ${event.type} is counted only.`, next, null);
  }
  if (isTerminalState(state.state) && event.type !== 'UserPromptSubmit') {
    return refuse(
      'TURN_TERMINAL_FINAL',
      `the turn is ${state.state}; ${event.type} is counted only and a new prompt starts the next turn.`,
      next,
      null,
    );
  }
  // Step 2: recovery check.
  let card: TurnRecoveryCardV1 | null = null;
  if (state.state === 'running' || state.state === 'awaiting-continuation') {
    const c = classifyAt(state, tMs);
    const key = dueNoticeKey(state.turnKey!, state.lastRecoveryNoticeKey, c);
    if (key !== null) {
      card = buildRecoveryCard(state, c as StaleClassification, tMs, context.observer ?? 'hook-event-time');
      next = { ...next, lastRecoveryNoticeKey: key };
    }
  }
  if (context.taskOperationSetDigest !== undefined)
    next = { ...next, taskOperationSetDigest: context.taskOperationSetDigest };
  // Step 3: edge.
  if (event.type === 'UserPromptSubmit') {
    const out = startTurn(next, event, tMs);
    if (out.refusal) return refuse(out.refusal.code, out.refusal.message, next, card);
    return { ok: true, state: out.state, card };
  }
  const out = edge(next, event, context);
  const revalidated = revalidate(out.state, event.type, out, context, tMs);
  if (out.refusal) return refuse(out.refusal.code, out.refusal.message, revalidated, card);
  return { ok: true, state: revalidated, card };
}

function refuse(
  code: TurnEventCode,
  message: string,
  state: TurnLivenessStateV1,
  card: TurnRecoveryCardV1 | null,
): TurnEventResult {
  return refusal(code, message, { state, card });
}
