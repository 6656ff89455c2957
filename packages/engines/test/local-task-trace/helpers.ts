import { type LocalTaskTraceV1, traceEventIdOf } from '@agent-contracts/schemas';
import { expect } from 'vitest';
import { ManualClock } from '../../src/clock.ts';
import {
  appendToTrace,
  closeTrace,
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

/**
 * A valid closed trace of seven events, 10 ms apart from T0: a prompt, a tool call with its lease
 * and result, a Stop and the TurnTerminal `complete` (index 6).
 */
export function closedTrace(): LocalTaskTraceV1 {
  const clock = clockAt();
  let t = opened();
  const steps = [
    { type: 'UserPromptSubmit', result: 'observed', occurrenceKey: 'host-seq-1', payload: {} },
    {
      type: 'PreToolUse',
      result: 'observed',
      occurrenceKey: 'toolu_1',
      payload: { toolCallId: 'toolu_1', command: 'rm -rf /' },
    },
    {
      type: 'ToolLeaseStarted',
      result: 'allowed',
      occurrenceKey: 'toolu_1',
      payload: { toolCallId: 'toolu_1' },
    },
    { type: 'PostToolUse', result: 'observed', occurrenceKey: 'toolu_1', payload: { path: '/etc/passwd' } },
    { type: 'ToolLeaseCompleted', result: 'success', occurrenceKey: 'toolu_1', payload: {} },
    { type: 'Stop', result: 'observed', occurrenceKey: 'host-seq-2', payload: {} },
  ];
  for (const s of steps) {
    clock.advance(10);
    t = accepted(appendToTrace(t, s, clock)).trace;
  }
  return accepted(closeTrace(t, 'complete', 'host-stop', clock)).trace;
}

// biome-ignore lint/suspicious/noExplicitAny: tests edit traces freely to break exactly one rule
export type Mutable = { [k: string]: any };

/** A loaded (unfrozen) copy of `trace` (the closed trace by default) with `edit` applied, deep-frozen afterwards. */
export function broken(edit: (t: Mutable) => void, trace: LocalTaskTraceV1 = closedTrace()): unknown {
  const t = loaded(trace) as Mutable;
  edit(t);
  return deepFreeze(t);
}

/** Recompute every eventId after an edit, so only the intended rule fires. */
export function reid(t: Mutable): void {
  for (const e of t.events) e.eventId = traceEventIdOf(t.traceId, e.type, e.occurrenceKey);
}
