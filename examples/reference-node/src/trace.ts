// The trace.* methods (LocalTaskTraceGate): the recorder of the current turn's trace, held per
// implementation process, persisted atomically after every accepted operation (A11) and loaded
// as stored -- never normalised -- when the process starts again; it is validated before any
// append or replay (A2, Restart).
import {
  LocalTaskTraceRecorder,
  type ManualClock,
  type TraceAppendResult,
  type TraceOpenInput,
} from '@agent-contracts/engines';
import { InvalidParams, Refusal } from '@agent-contracts/protocol';
import type { LocalTaskTraceTerminalResult } from '@agent-contracts/schemas';
import { objectParams, oneOf, optOneOf, str } from './params.js';
import { readJson, stateFile, writeJsonAtomic } from './persist.js';

/** The file of the current trace inside a state directory. */
export const TRACE_FILE = 'local-task-trace.json';

/**
 * The trace.* methods over one held recorder.
 *
 * @example
 * const trace = createTrace(clock);
 * trace.open(null);
 * trace.methods['trace.open']!({ turnKey: 'turn-1' });
 */
export function createTrace(clock: ManualClock) {
  let recorder = new LocalTaskTraceRecorder(clock);
  let file: string | null = null;

  const persist = () => {
    if (file) writeJsonAtomic(file, recorder.trace ?? undefined);
  };
  const refuseOr = <T extends TraceAppendResult>(r: T) => {
    if (!r.ok) throw Refusal.from(r);
    persist();
    return { trace: r.trace, event: r.event, dropped: r.dropped };
  };

  const methods: Record<string, (params: unknown) => unknown> = {
    'trace.open'(params) {
      const p = objectParams(params, 'trace.open');
      if (typeof p.turnKey !== 'string') throw new InvalidParams('params.turnKey must be a string');
      if (p.openedAt !== undefined && typeof p.openedAt !== 'string')
        throw new InvalidParams('params.openedAt must be a string');
      const reason = optOneOf(
        p,
        'previousTurnEndReason',
        ['superseded-by-new-prompt', 'stale-turn-recovered-by-new-prompt'] as const,
        'params',
      );
      const input: TraceOpenInput = {
        turnKey: p.turnKey,
        ...(p.openedAt === undefined ? {} : { openedAt: p.openedAt }),
        ...(reason === undefined ? {} : { previousTurnEndReason: reason }),
      };
      const r = recorder.open(input);
      if (!r.ok) throw Refusal.from(r);
      persist();
      return { trace: r.trace, unchanged: r.unchanged, previous: r.previous };
    },
    'trace.append'(params) {
      const p = objectParams(params, 'trace.append');
      for (const k of ['type', 'result', 'occurrenceKey'])
        if (typeof p[k] !== 'string') throw new InvalidParams(`params.${k} must be a string`);
      if (!('payload' in p)) throw new InvalidParams('params.payload is required');
      if (p.expectedSequence !== undefined && typeof p.expectedSequence !== 'number')
        throw new InvalidParams('params.expectedSequence must be a number');
      if (p.observedAt !== undefined && typeof p.observedAt !== 'string')
        throw new InvalidParams('params.observedAt must be a string');
      return refuseOr(
        recorder.append({
          type: p.type as string,
          result: p.result as string,
          occurrenceKey: p.occurrenceKey as string,
          payload: p.payload,
          ...(p.expectedSequence === undefined ? {} : { expectedSequence: p.expectedSequence as number }),
          ...(p.observedAt === undefined ? {} : { observedAt: p.observedAt as string }),
        }),
      );
    },
    'trace.close'(params) {
      const p = objectParams(params, 'trace.close');
      const result = oneOf(p, 'result', ['complete', 'failed', 'interrupted'] as const, 'params');
      return refuseOr(recorder.close(result as LocalTaskTraceTerminalResult, str(p, 'reason', 'params')));
    },
    'trace.replay'(params) {
      objectParams(params, 'trace.replay');
      return recorder.replay();
    },
    'trace.current'(params) {
      objectParams(params, 'trace.current');
      return recorder.trace;
    },
    'trace.load'(params) {
      const p = objectParams(params, 'trace.load');
      if (!('trace' in p)) throw new InvalidParams('params.trace is required (null for no trace)');
      recorder = new LocalTaskTraceRecorder(clock, p.trace ?? null);
      persist();
      return null;
    },
  };

  return {
    methods,
    /** (Re)open durable state at `location` (hello): load the stored trace as it is. */
    open(location: string | null): void {
      file = stateFile(location, TRACE_FILE);
      const stored = file ? readJson(file) : undefined;
      recorder = new LocalTaskTraceRecorder(clock, stored === undefined ? null : (stored.value ?? null));
    },
  };
}
