import type { LocalTaskTraceV1 } from '@agent-contracts/schemas';
import { expect } from 'vitest';
import { ManualClock } from '../../src/clock.ts';
import {
  openTrace,
  type TraceAppendInput,
  type TraceAppendResult,
} from '../../src/local-task-trace/index.ts';

export const T0 = '2026-11-30T05:53:08.114Z';

export function clockAt(iso = T0): ManualClock {
  return new ManualClock(Date.parse(iso));
}

/** A freshly opened trace of `turnKey` at T0. */
export function opened(turnKey = 'turn-1', openedAt = T0): LocalTaskTraceV1 {
  const r = openTrace(null, { turnKey, openedAt }, clockAt(openedAt));
  if (!r.ok) throw new Error(r.message);
  return r.trace;
}

/** A host event input with result `observed`. */
export function hostEvent(occurrenceKey: string, extra: Partial<TraceAppendInput> = {}): TraceAppendInput {
  return {
    type: 'PreToolUse',
    result: 'observed',
    occurrenceKey,
    payload: { toolCallId: occurrenceKey },
    ...extra,
  };
}

/** Unwrap an accepted append, failing the test on a refusal. */
export function accepted(r: TraceAppendResult) {
  if (!r.ok) expect.fail(`refused ${r.code} at ${r.step}: ${r.message}`);
  return r;
}

/** Recursively freeze a value, so any write to it throws in strict mode. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** A deep, unfrozen copy of a trace (as if loaded from storage). */
export function loaded<T>(trace: T): T {
  return JSON.parse(JSON.stringify(trace)) as T;
}
