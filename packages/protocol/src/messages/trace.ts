// The `trace.*` methods (docs/protocol.md#trace-v1-capability-trace).
import type {
  LocalTaskTraceEvent,
  LocalTaskTraceReplayV1,
  LocalTaskTraceTerminalResult,
  LocalTaskTraceV1,
  LocalTaskTraceViolation,
} from '@agent-contracts/schemas';

/** Params of `trace.open`. */
export interface TraceOpenParams {
  /** The turn layer's key of the turn that starts. */
  readonly turnKey: string;
  /** The turn's start time, an RFC 3339 timestamp (default: now). */
  readonly openedAt?: string;
  /** How the current turn ended when an open trace of another turn is closed first (O2). */
  readonly previousTurnEndReason?: 'superseded-by-new-prompt' | 'stale-turn-recovered-by-new-prompt';
}

/** Result of `trace.open`. */
export interface TraceOpenResult {
  /** The current trace after the operation. */
  readonly trace: LocalTaskTraceV1;
  /** True when the trace already belonged to this turn and nothing was opened (O1). */
  readonly unchanged: boolean;
  /** The trace that was replaced, as it ended, or null. */
  readonly previous: unknown;
}

/** Params of `trace.append`. */
export interface TraceAppendParams {
  /** Event type (A5). */
  readonly type: string;
  /** Event result (A5). */
  readonly result: string;
  /** The host's or recorder's key of the occurrence (A5, A7). */
  readonly occurrenceKey: string;
  /** Inert evidence: a JSON object of at most 32 keys and 8192 JCS bytes (A5, A6). */
  readonly payload: unknown;
  /** When given, the append is refused unless it is the trace's `sequence + 1` (A4). */
  readonly expectedSequence?: number;
  /** The observation time, an RFC 3339 timestamp (default: now; refused if earlier than the last event, A8). */
  readonly observedAt?: string;
}

/** Result of `trace.append` and `trace.close`. */
export interface TraceAppendResult {
  /** The new trace. */
  readonly trace: LocalTaskTraceV1;
  /** The event as written. */
  readonly event: LocalTaskTraceEvent;
  /** Events removed to keep the bounds, oldest first (A10). */
  readonly dropped: readonly LocalTaskTraceEvent[];
}

/** Params of `trace.close`. */
export interface TraceCloseParams {
  /** The turn's result. */
  readonly result: LocalTaskTraceTerminalResult;
  /** `payload.reason` of the `TurnTerminal` event. */
  readonly reason: string;
}

/** Result of `trace.replay`. */
export type TraceReplayResult = LocalTaskTraceReplayV1;

/** Result of `trace.current`: the current trace exactly as held, or null. */
export type TraceCurrentResult = unknown;

/** Params of `trace.load`. */
export interface TraceLoadParams {
  /** The document that becomes the stored trace as is, or null (no trace). */
  readonly trace: unknown;
}

/** Error `data` of a refused `trace.*` operation. */
export interface TraceRefusalData {
  /** The page's code. */
  readonly code: string;
  /** The step that refused (`O1`, `A1`...`A10`). */
  readonly step: 'O1' | 'A1' | 'A2' | 'A3' | 'A4' | 'A5' | 'A6' | 'A7' | 'A8' | 'A10';
  /** A2 only: the verdict on the stored trace. */
  readonly violations?: readonly LocalTaskTraceViolation[];
  /** A7 only: the eventId of the retained event that already records this occurrence. */
  readonly eventId?: string;
}
