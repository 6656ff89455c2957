import type {
  LocalTaskTraceReplayV1,
  LocalTaskTraceTerminalResult,
  LocalTaskTraceV1,
} from '@agent-contracts/schemas';
import type { Clock } from '../clock.js';
import {
  appendToTrace,
  closeTrace,
  openTrace,
  type TraceAppendInput,
  type TraceAppendResult,
  type TraceOpenInput,
  type TraceOpenResult,
} from './recorder.js';
import { replayTrace } from './replay.js';

/**
 * A thin holder of the current turn's trace around the pure recorder functions: it holds at most
 * one trace and replaces it only with what an accepted operation returns. Persisting each new
 * trace atomically is the caller's job (A11).
 *
 * @example
 * const recorder = new LocalTaskTraceRecorder(new ManualClock(Date.parse('2026-11-30T05:53:08.114Z')));
 * recorder.open({ turnKey: 'turn-1' });
 * recorder.append({ type: 'UserPromptSubmit', result: 'observed', occurrenceKey: 'host-seq-1', payload: {} });
 * recorder.close('complete', 'host-stop');
 * console.log(recorder.replay().ok);
 */
export class LocalTaskTraceRecorder {
  readonly #clock: Clock;
  #trace: unknown;

  /** @param stored the trace loaded from storage, if any; it is validated before any append (A2). */
  constructor(clock: Clock, stored: unknown = null) {
    this.#clock = clock;
    this.#trace = stored;
  }

  /** The current trace (`null` when none), exactly as stored or last written. */
  get trace(): LocalTaskTraceV1 | null {
    return (this.#trace ?? null) as LocalTaskTraceV1 | null;
  }

  /** {@link openTrace} on the held trace. */
  open(input: TraceOpenInput): TraceOpenResult {
    const r = openTrace(this.#trace, input, this.#clock);
    if (r.ok) this.#trace = r.trace;
    return r;
  }

  /** {@link appendToTrace} on the held trace. */
  append(input: TraceAppendInput): TraceAppendResult {
    const r = appendToTrace(this.#trace, input, this.#clock);
    if (r.ok) this.#trace = r.trace;
    return r;
  }

  /** {@link closeTrace} on the held trace. */
  close(result: LocalTaskTraceTerminalResult, reason: string): TraceAppendResult {
    const r = closeTrace(this.#trace, result, reason, this.#clock);
    if (r.ok) this.#trace = r.trace;
    return r;
  }

  /** {@link replayTrace} of the held trace (`TRACE_NOT_FOUND` when there is none). */
  replay(): LocalTaskTraceReplayV1 {
    return replayTrace(this.#trace ?? undefined);
  }
}
