// What the run controller answers (RunControlGate, "Run controller"): the next state, or a
// refusal that leaves the state as it was and says what the runtime does next.
import type { RunStateV1 } from '@agent-contracts/schemas';
import { type EngineRefusal, refusal } from '../refusal.js';

/** The refusal codes of `run.step`, each with the one thing the runtime does next. */
export const RUN_REFUSALS = {
  /** An event other than `start` with no state. */
  RUN_NOT_STARTED: 'start-the-run',
  /** An event string (a task id, tool name, error code, takeover channel) with no RFC 8785 form: a lone surrogate. */
  RUN_EVENT_NOT_CANONICAL: 'send-plain-json-strings',
  /** `start` with a state. */
  RUN_ALREADY_STARTED: 'continue-the-run',
  /** Any event on a terminal run. */
  RUN_TERMINAL: 'start-a-new-run',
  /** An event the run's status does not take (a tool call while paused, a resume while running). */
  RUN_EVENT_NOT_ALLOWED: 'resume-first',
  /** `start` in mode until-done without cancellation and a takeover channel. */
  RUN_UNTIL_DONE_UNCONTROLLED: 'add-cancellation-and-takeover',
  /** `tool-called` with a callId the run already recorded. */
  RUN_TOOL_CALL_DUPLICATE: 'use-a-new-call-id',
  /** A result, query or retry naming a call the run did not record (or, for a retry, of another tool). */
  RUN_TOOL_CALL_RETRY_UNKNOWN: 'name-a-recorded-call',
  /** A result for a call that is not in flight. */
  RUN_TOOL_CALL_NOT_IN_FLIGHT: 'name-an-in-flight-call',
  /** A `tool-result` whose error class and code do not match its outcome. */
  RUN_TOOL_CALL_OUTCOME_INCONSISTENT: 'state-the-outcome',
  /** A query of a call whose outcome is not unknown. */
  RUN_TOOL_CALL_QUERY_NOT_UNKNOWN: 'query-only-unknown-outcomes',
  /** A retry of an unknown-outcome call whose effect was not queried (or the query could not tell). */
  RUN_TOOL_CALL_BLIND_RETRY: 'query-the-effect-first',
  /** A retry of a call that is not retryable. */
  RUN_TOOL_CALL_RETRY_NOT_RETRYABLE: 'replan',
  /** `complete` with `succeeded` while a call is in flight. */
  RUN_SUCCESS_WITH_CALLS_IN_FLIGHT: 'record-the-outcome-first',
} as const;

/** A refusal code of `run.step`. */
export type RunRefusalCode = keyof typeof RUN_REFUSALS;

/** The notices of an applied step: the controller stopped or paused the run itself. */
export const RUN_NOTICES = {
  /** A hard limit ran out: the run failed with `budget-exhausted`. */
  RUN_BUDGET_EXHAUSTED: 'start-a-new-run',
  /** A loop counter reached its threshold: the run is blocked with `loop-detected`. */
  RUN_LOOP_DETECTED: 'replan-or-takeover',
} as const;

/** A notice code of `run.step`. */
export type RunNoticeCode = keyof typeof RUN_NOTICES;

/** A notice and its required action. */
export type RunNotice = {
  [C in RunNoticeCode]: { readonly code: C; readonly requiredAction: (typeof RUN_NOTICES)[C] };
}[RunNoticeCode];

/** What the controller did with an event it accepted. */
export interface RunStepAccepted {
  readonly ok: true;
  /** The next state (the same document shape, digests recomputed). */
  readonly state: RunStateV1;
  /**
   * Whether the event took effect. `false` when the controller stopped the run instead of
   * starting the work the event announced (a step or a call beyond a limit, any event after the
   * time limit): then `notice` says why.
   */
  readonly applied: boolean;
  /** Set when the controller stopped or paused the run itself. */
  readonly notice: RunNotice | null;
}

/** A refused event: the state is unchanged. `requiredAction` is the token of {@link RUN_REFUSALS} for the code. */
export type RunStepRefused = EngineRefusal<RunRefusalCode, { readonly requiredAction: string }>;

/** The answer of the run controller to one event. */
export type RunStepOutcome = RunStepAccepted | RunStepRefused;

/** A refusal with its required action. */
export function refuse(code: RunRefusalCode, message: string): RunStepRefused {
  return refusal(code, message, { requiredAction: RUN_REFUSALS[code] });
}
