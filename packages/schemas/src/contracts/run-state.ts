// RunStateV1 (docs/spec/run-control-gate.md): where one agent run stands, what it may still
// spend, which tool calls it made with their outcome, and the loop signals that force a replan
// or a human takeover.
import type { ContractEntry } from '../gates.js';
import type { BudgetUsage, RunBudget } from './budget.js';
import type {
  NonNegativeInteger,
  NullableSha256Hex,
  NullableTimestamp,
  PositiveInteger,
  Sha256Hex,
  Timestamp,
} from './common.js';
import type { ToolErrorClass } from './task-contract.js';

/**
 * Where a run stands: `running`; the resumable pauses `awaiting-approval`, `awaiting-dependency`,
 * `blocked`; the terminal states `succeeded`, `failed`, `cancelled`, which nothing moves again.
 */
export type RunStatus =
  | 'running'
  | 'awaiting-approval'
  | 'awaiting-dependency'
  | 'blocked'
  | 'succeeded'
  | 'failed'
  | 'cancelled';

/**
 * Why a paused run waits, or `null` when it is not paused: `approval-pending` (awaiting-approval),
 * `dependency-pending` (awaiting-dependency), `loop-detected` or `human-takeover` (blocked).
 */
export type NullableRunPauseReason =
  | 'approval-pending'
  | 'dependency-pending'
  | 'loop-detected'
  | 'human-takeover'
  | null;

/**
 * Why a terminal run ended, or `null` while it has not: `completion-verified` (succeeded: the task's
 * completion criteria were checked), `completion-failed` (failed: they were checked and not met),
 * `budget-exhausted` (failed: a hard limit ran out), `cancelled` (cancelled).
 */
export type NullableRunTerminalReason =
  | 'completion-verified'
  | 'completion-failed'
  | 'budget-exhausted'
  | 'cancelled'
  | null;

/** An error class, or `null` when the call did not fail. */
export type NullableToolErrorClass = ToolErrorClass | null;

/**
 * The error code the tool reported, or `null` when the call did not fail.
 * @minLength 1
 * @maxLength 128
 */
export type NullableToolErrorCode = string | null;

/**
 * A tool call id, or `null`.
 * @pattern ^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$
 */
export type NullableToolCallId = string | null;

/**
 * Where a run's operator takes over (a queue, channel or URL), or `null` when there is none.
 * @minLength 1
 * @maxLength 512
 */
export type NullableTakeoverChannel = string | null;

/** What the runtime learnt by querying the external effect of an `unknown-outcome` call. */
export interface ToolCallQuery {
  /** When the effect was queried. */
  queriedAt: Timestamp;
  /**
   * What the query found: `effect-applied` (the call took effect; never retry it), `no-effect`
   * (it did not; a retry is allowed), `still-unknown` (the query could not tell; no retry).
   */
  resolution: 'effect-applied' | 'no-effect' | 'still-unknown';
}

/** A query, or `null` when the call's effect was not queried. */
export type NullableToolCallQuery = ToolCallQuery | null;

/** One tool call of the run, with its outcome as far as it is known. */
export interface ToolCallRecord {
  /**
   * The call's id, unique within the run.
   * @pattern ^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$
   */
  callId: string;
  /**
   * The tool, as its ToolContractV1 names it.
   * @minLength 1
   * @maxLength 256
   */
  toolName: string;
  /**
   * digestOf(`{toolName, input}`) as the runtime computes it: two calls with the same digest are
   * the same action (loop detection compares these).
   */
  actionDigest: Sha256Hex;
  /**
   * The step the call belongs to: `usage.steps` when the call was made, or 1 for a call before the
   * first `step-started`.
   */
  step: PositiveInteger;
  /** When the call was made. */
  calledAt: Timestamp;
  /** `in-flight` (no outcome yet), `succeeded` or `failed`. */
  status: 'in-flight' | 'succeeded' | 'failed';
  /** How the call failed; non-null exactly when `status` is `failed`. */
  errorClass: NullableToolErrorClass;
  /** The tool's error code; non-null exactly when `status` is `failed`. */
  errorCode: NullableToolErrorCode;
  /** The earlier call of this run that this call retries, or `null` for a first attempt. */
  retryOf: NullableToolCallId;
  /** The query of the call's effect; non-null only when `errorClass` is `unknown-outcome`. */
  query: NullableToolCallQuery;
}

/** Loop thresholds: how many repetitions force a replan or a takeover. */
export interface RunLoopThresholds {
  /**
   * Consecutive calls of the same action (same `actionDigest`) that force a replan or takeover; at most 3.
   * @TJS-type integer
   * @minimum 2
   * @maximum 3
   */
  repeatedAction: number;
  /**
   * Consecutive failures with the same error (same tool, error class and error code) that force a replan or takeover; at most 3.
   * @TJS-type integer
   * @minimum 2
   * @maximum 3
   */
  repeatedError: number;
  /**
   * Consecutive finished steps without a state change that force a replan or takeover; at most 10.
   * @TJS-type integer
   * @minimum 2
   * @maximum 10
   */
  noProgressSteps: number;
}

/** The loop signals of a run and the thresholds they are judged against. */
export interface RunLoopSignals {
  /** The thresholds of this run. */
  thresholds: RunLoopThresholds;
  /** `actionDigest` of the latest tool call, or `null` before the first one and after a replan. */
  lastActionDigest: NullableSha256Hex;
  /** How many consecutive calls (the latest included) had `lastActionDigest`. */
  repeatedActionCount: NonNegativeInteger;
  /**
   * digestOf(`{toolName, errorClass, errorCode}`) of the latest failed call, or `null` when the
   * latest settled call succeeded, before any failure, and after a replan.
   */
  lastErrorDigest: NullableSha256Hex;
  /** How many consecutive failures (the latest included) had `lastErrorDigest`. */
  repeatedErrorCount: NonNegativeInteger;
  /** How many consecutive finished steps changed no task state. */
  stepsWithoutStateChange: NonNegativeInteger;
}

/** What lets a person stop or take over the run. */
export interface RunControls {
  /** Whether a cancel request reaches the run (and moves it to `cancelled`). */
  cancellable: boolean;
  /** Where an operator takes the run over, or `null` when nobody can. */
  takeoverChannel: NullableTakeoverChannel;
}

/**
 * The state of one agent run: its status and why, its hard limits and what it used of them, every
 * tool call with its outcome, and the loop signals. Written by the run controller after every event.
 */
export interface RunStateV1 {
  /** Contract discriminator. */
  schemaVersion: 'RunStateV1';
  /**
   * `run-` + the first 24 hex characters of digestOf(`{taskId, startedAt}`).
   * @pattern ^run-[a-f0-9]{24}$
   */
  runId: string;
  /**
   * The task the run carries out (the id of its TaskContractV1).
   * @minLength 1
   * @maxLength 256
   */
  taskId: string;
  /**
   * `bounded` (the run stops at its completion criteria or a limit) or `until-done` ("run until
   * done"; valid only with a budget, cancellation and a takeover channel).
   */
  mode: 'bounded' | 'until-done';
  /** How the run is stopped or taken over. */
  controls: RunControls;
  /** Where the run stands. */
  status: RunStatus;
  /** Why a paused run waits; `null` unless the status is a pause. */
  pauseReason: NullableRunPauseReason;
  /** Why a terminal run ended; `null` unless the status is terminal. */
  terminalReason: NullableRunTerminalReason;
  /** The hard limits. */
  budget: RunBudget;
  /** What the run used of them. */
  usage: BudgetUsage;
  /** The loop signals. */
  loop: RunLoopSignals;
  /**
   * Every tool call of the run, in the order they were made.
   * @maxItems 1000
   */
  toolCalls: ToolCallRecord[];
  /** When the run started. */
  startedAt: Timestamp;
  /** When the latest event was applied. */
  updatedAt: Timestamp;
  /** When the run reached a terminal state, or `null` while it has not. */
  endedAt: NullableTimestamp;
  /**
   * How many events the controller answered with a state, `start` and events answered with
   * `applied: false` included (a refused event counts nothing).
   */
  eventCount: PositiveInteger;
  /**
   * digestOf(the whole document without `stateDigest`).
   * @pattern ^[a-f0-9]{64}$
   */
  stateDigest: string;
}

/** The terminal statuses. */
export const RUN_TERMINAL_STATUSES: readonly RunStatus[] = ['succeeded', 'failed', 'cancelled'];
/** The resumable pauses. */
export const RUN_PAUSE_STATUSES: readonly RunStatus[] = [
  'awaiting-approval',
  'awaiting-dependency',
  'blocked',
];

/** Each member of BudgetUsage and the limit of RunBudget it is judged against (RunControlGate invariant 6). */
export const RUN_BUDGET_LIMITS = [
  ['steps', 'maxSteps'],
  ['toolCalls', 'maxToolCalls'],
  ['retries', 'maxRetries'],
  ['elapsedMs', 'maxDurationMs'],
  ['costMicros', 'maxCostMicros'],
] as const satisfies ReadonlyArray<readonly [keyof BudgetUsage, keyof RunBudget]>;

/** Whether `status` is a terminal state (succeeded, failed, cancelled). */
export function isTerminalRunStatus(status: RunStatus): boolean {
  return RUN_TERMINAL_STATUSES.includes(status);
}

/**
 * Whether a retry of `target` is allowed (RunControlGate invariants 13 and 14): `allowed` for a
 * `transient` failure, or an `unknown-outcome` failure whose effect was queried and found not
 * applied; `query-first` while an unknown outcome was not queried or the query could not tell;
 * `not-retryable` otherwise (a success, a call in flight, a business rejection, a permanent
 * failure, an effect found applied).
 *
 * @example
 * runRetryVerdict({ status: 'failed', errorClass: 'unknown-outcome', query: null }); // 'query-first'
 */
export function runRetryVerdict(
  target: Pick<ToolCallRecord, 'status' | 'errorClass' | 'query'>,
): 'allowed' | 'query-first' | 'not-retryable' {
  if (target.status !== 'failed') return 'not-retryable';
  if (target.errorClass === 'transient') return 'allowed';
  if (target.errorClass === 'unknown-outcome') {
    if (target.query?.resolution === 'no-effect') return 'allowed';
    return target.query?.resolution === 'effect-applied' ? 'not-retryable' : 'query-first';
  }
  return 'not-retryable';
}

// ---------------------------------------------------------------------------------------------
// The events of the run controller (docs/spec/run-control-gate.md#run-controller): what a
// runtime tells the controller, one at a time. Not contracts; `run.step` carries them.

/** `start`: a new run (the state before it is `null`). */
export interface RunStartEvent {
  /** The event. */
  readonly type: 'start';
  /**
   * The task the run carries out (the id of its TaskContractV1).
   * @minLength 1
   * @maxLength 256
   */
  readonly taskId: string;
  /** `bounded` or `until-done`. */
  readonly mode: 'bounded' | 'until-done';
  /** How the run is stopped or taken over. */
  readonly controls: RunControls;
  /** The hard limits. */
  readonly budget: RunBudget;
  /** The loop thresholds. */
  readonly thresholds: RunLoopThresholds;
}

/** `step-started`: the model is asked for its next action (one step). */
export interface RunStepStartedEvent {
  /** The event. */
  readonly type: 'step-started';
}

/** `step-finished`: the step's actions are done and its result is verified. */
export interface RunStepFinishedEvent {
  /** The event. */
  readonly type: 'step-finished';
  /** What the step cost (model and tools not reported by `tool-result`), in millionths of the budget's currency. */
  readonly costMicros: NonNegativeInteger;
  /** Whether the step committed any change to the task state (a confirmed fact, an artefact, a verification result). */
  readonly stateChanged: boolean;
}

/** `tool-called`: the runtime is about to make a tool call. */
export interface RunToolCalledEvent {
  /** The event. */
  readonly type: 'tool-called';
  /**
   * The call's id, unique within the run.
   * @pattern ^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$
   */
  readonly callId: string;
  /**
   * The tool.
   * @minLength 1
   * @maxLength 256
   */
  readonly toolName: string;
  /** digestOf(`{toolName, input}`): the same digest is the same action. */
  readonly actionDigest: Sha256Hex;
  /** The earlier call this one retries, or `null` for a first attempt. */
  readonly retryOf: NullableToolCallId;
}

/** `tool-result`: a call's outcome arrived. */
export interface RunToolResultEvent {
  /** The event. */
  readonly type: 'tool-result';
  /**
   * The call.
   * @pattern ^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$
   */
  readonly callId: string;
  /** `succeeded` or `failed`. */
  readonly outcome: 'succeeded' | 'failed';
  /** How it failed; non-null exactly when `outcome` is `failed` (a timed-out remote write is `unknown-outcome`). */
  readonly errorClass: NullableToolErrorClass;
  /** The tool's error code; non-null exactly when `outcome` is `failed`. */
  readonly errorCode: NullableToolErrorCode;
  /** What the call cost, in millionths of the budget's currency. */
  readonly costMicros: NonNegativeInteger;
}

/** `tool-queried`: the runtime queried the external effect of an `unknown-outcome` call. */
export interface RunToolQueriedEvent {
  /** The event. */
  readonly type: 'tool-queried';
  /**
   * The call.
   * @pattern ^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$
   */
  readonly callId: string;
  /** What the query found. */
  readonly resolution: ToolCallQuery['resolution'];
}

/** An event without members of its own: a pause, a resume, a replan, a takeover, a cancel. */
export interface RunSignalEvent {
  /**
   * `approval-requested` (pause for an approval), `approval-granted` (resume), `dependency-wait`
   * (pause for a dependency), `dependency-ready` (resume), `replanned` (a new plan: the loop
   * counters reset and a blocked run resumes), `takeover` (a person takes the run over: blocked,
   * human-takeover), `cancel` (the run is cancelled).
   */
  readonly type:
    | 'approval-requested'
    | 'approval-granted'
    | 'dependency-wait'
    | 'dependency-ready'
    | 'replanned'
    | 'takeover'
    | 'cancel';
}

/** `complete`: the task's completion criteria were checked. */
export interface RunCompleteEvent {
  /** The event. */
  readonly type: 'complete';
  /** `succeeded` when every completion criterion was checked and met, `failed` when one was not. */
  readonly outcome: 'succeeded' | 'failed';
}

/** One event of the run controller. */
export type RunEvent =
  | RunStartEvent
  | RunStepStartedEvent
  | RunStepFinishedEvent
  | RunToolCalledEvent
  | RunToolResultEvent
  | RunToolQueriedEvent
  | RunSignalEvent
  | RunCompleteEvent;

/** Catalogue entries of this area, in spec order. */
export const RUN_STATE_CONTRACTS: readonly ContractEntry[] = [
  {
    name: 'RunStateV1',
    gate: 'RunControlGate',
    summary:
      'Status, pause or terminal reason, hard limits and usage, tool calls with their outcome, and loop signals of one agent run.',
  },
];
