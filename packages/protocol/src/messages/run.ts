// `run.step` (docs/protocol.md#runstep-v1-capability-run): one event of the run controller.
import type { RunEvent, RunStateV1 } from '@agent-contracts/schemas';

/** Params of `run.step`. */
export interface RunStepParams {
  /** The run's current state as the previous step returned it, or `null` before `start`. */
  readonly state: RunStateV1 | null;
  /** The event to apply. */
  readonly event: RunEvent;
}

/** A notice of an accepted step: the controller stopped or paused the run itself. */
export interface RunStepNotice {
  /** `RUN_BUDGET_EXHAUSTED` (the run failed: a limit ran out) or `RUN_LOOP_DETECTED` (the run is blocked: a loop threshold was reached). */
  readonly code: 'RUN_BUDGET_EXHAUSTED' | 'RUN_LOOP_DETECTED';
  /** What the runtime does next: `start-a-new-run` or `replan-or-takeover`. */
  readonly requiredAction: 'start-a-new-run' | 'replan-or-takeover';
}

/** Result of `run.step`. */
export interface RunStepResult {
  /** The next state. */
  readonly state: RunStateV1;
  /** Whether the event took effect; `false` when the controller stopped the run instead of starting the work it announced. */
  readonly applied: boolean;
  /** Set when the controller stopped or paused the run itself, else `null`. */
  readonly notice: RunStepNotice | null;
}

/** Error `data` of a refused `run.step` (the state is unchanged). */
export interface RunRefusalData {
  /** A `RUN_*` refusal code of docs/spec/run-control-gate.md. */
  readonly code: string;
  /** What the runtime does next (one token per code, listed on the page). */
  readonly requiredAction: string;
  /**
   * For `RUN_STATE_INVALID`: the issues of the state given (code and JSON Pointer), as `validate` reports them.
   * @maxItems 64
   */
  readonly issues?: ReadonlyArray<{
    /** The issue code. */
    readonly code: string;
    /** JSON Pointer into `params.state`. */
    readonly path: string;
  }>;
}
