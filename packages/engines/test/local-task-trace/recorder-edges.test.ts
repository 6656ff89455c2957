// @module-tag unit
// The recorder's operations at their edges (docs/spec/local-task-trace-gate.md, "Recorder
// operations"): the order of the A5 checks, the limits, the clamp of A8, O2's default end reason
// and the holder's refusals.
import type { LocalTaskTraceV1 } from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import { appendToTrace, LocalTaskTraceRecorder, openTrace } from '../../src/local-task-trace/index.ts';
import { accepted, clockAt, hostEvent, loaded, type Mutable, opened, T0 } from './helpers.ts';

const later = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();

describe('A5', () => {
  it('an unknown result is TRACE_EVENT_INVALID even on a TurnTerminal (the enumeration comes first)', () => {
    const r = appendToTrace(
      opened(),
      { type: 'TurnTerminal', result: 'nope', occurrenceKey: 'turn-terminal', payload: {} },
      clockAt(),
    );
    expect(r).toMatchObject({ ok: false, code: 'TRACE_EVENT_INVALID', step: 'A5' });
  });

  it('a payload of exactly 32 keys is accepted', () => {
    const payload = Object.fromEntries(Array.from({ length: 32 }, (_, i) => [`k${i}`, i]));
    expect(accepted(appendToTrace(opened(), hostEvent('k', { payload }), clockAt())).event.payload).toEqual(
      payload,
    );
  });

  it('the T9 refusal says which way round the pairing is wrong', () => {
    const terminal = appendToTrace(
      opened(),
      { type: 'TurnTerminal', result: 'observed', occurrenceKey: 'turn-terminal', payload: {} },
      clockAt(),
    );
    expect(terminal).toMatchObject({ ok: false, code: 'TRACE_TERMINAL_INVALID', step: 'A5' });
    expect(!terminal.ok && terminal.message).toBe(
      'TurnTerminal needs a terminal result (complete, failed, interrupted), not observed.',
    );
    const stop = appendToTrace(
      opened(),
      { type: 'Stop', result: 'complete', occurrenceKey: 'host-seq-1', payload: {} },
      clockAt(),
    );
    expect(stop).toMatchObject({ ok: false, code: 'TRACE_TERMINAL_INVALID', step: 'A5' });
    expect(!stop.ok && stop.message).toBe(
      'Stop cannot carry the terminal result complete; emit terminal results only through the terminal path (TurnTerminal).',
    );
  });
});

describe('A8', () => {
  it('a clock reading equal in instant to the last observedAt is written as read', () => {
    const floor = `${T0.slice(0, -1)}000Z`; // T0 with more precision
    const trace = accepted(appendToTrace(opened(), hostEvent('a', { observedAt: floor }), clockAt())).trace;
    expect(trace.events[0]!.observedAt).toBe(floor);
    expect(accepted(appendToTrace(trace, hostEvent('b'), clockAt())).event.observedAt).toBe(T0);
  });

  it.each([
    ['outside the Date range', 1e20],
    ['not finite', Number.POSITIVE_INFINITY],
    ['past year 9999', Date.parse('9999-12-31T23:59:59.999Z') + 1],
  ])('a clock reading %s is refused with TRACE_SEQUENCE_INVALID', (_, ms) => {
    expect(appendToTrace(opened(), hostEvent('k'), { now: () => ms })).toMatchObject({
      ok: false,
      code: 'TRACE_SEQUENCE_INVALID',
      step: 'A8',
    });
  });
});

describe('O2', () => {
  it('closes the open trace of another turn with the reason superseded-by-new-prompt by default', () => {
    const r = openTrace(opened(), { turnKey: 'turn-2', openedAt: later(10) }, clockAt(later(10)));
    if (!r.ok) expect.fail(r.message);
    const previous = r.previous as LocalTaskTraceV1;
    expect(previous.events.at(-1)).toMatchObject({
      type: 'TurnTerminal',
      result: 'interrupted',
      payload: { reason: 'superseded-by-new-prompt' },
    });
  });
});

describe('O1, O2 run no code of the current trace', () => {
  const withAccessor = (key: string, value: string, seen: string[]) => {
    const current = loaded(opened()) as Mutable;
    Object.defineProperty(current, key, {
      enumerable: true,
      get() {
        seen.push(key);
        return value;
      },
    });
    return current;
  };

  it.each([
    ['status', 'open', 'turn-2'],
    ['turnKey', 'turn-1', 'turn-1'],
  ])(
    'a current trace with an accessor %s is no trace: it is replaced as it is, the accessor never read',
    (key, value, turnKey) => {
      const seen: string[] = [];
      const current = withAccessor(key, value, seen);
      const r = openTrace(current, { turnKey, openedAt: later(10) }, clockAt(later(10)));
      expect(seen).toEqual([]);
      expect(r.ok && r.unchanged).toBe(false);
      expect(r.ok && r.previous).toBe(current);
      expect(r.ok && r.trace.events).toEqual([]);
    },
  );
});

describe('append shares what it may', () => {
  it('the events of a trace this recorder wrote are kept, not copied', () => {
    const clock = clockAt();
    const first = accepted(appendToTrace(opened(), hostEvent('k1'), clock)).trace;
    const second = accepted(appendToTrace(first, hostEvent('k2'), clock)).trace;
    expect(second.events[0]).toBe(first.events[0]);
  });
});

describe('LocalTaskTraceRecorder', () => {
  it('a refused open keeps the trace it holds', () => {
    const recorder = new LocalTaskTraceRecorder(clockAt());
    expect(recorder.open({ turnKey: 'turn-1' }).ok).toBe(true);
    const held = recorder.trace;
    expect(held).not.toBeNull();
    expect(recorder.open({ turnKey: 'a b' })).toMatchObject({
      ok: false,
      code: 'TRACE_NOT_FOUND',
      step: 'O1',
    });
    expect(recorder.trace).toBe(held);
  });
});

describe('an append to a trace this recorder did not write', () => {
  const stored = () => loaded(accepted(appendToTrace(opened(), hostEvent('k1'), clockAt())).trace) as Mutable;

  it('copies the retained events even when the stored events array is frozen: the input is left as it was', () => {
    const input = stored();
    Object.freeze(input.events);
    const r = accepted(appendToTrace(input, hostEvent('k2'), clockAt()));
    expect(Object.isFrozen(input.events[0])).toBe(false);
    expect(Object.isFrozen(input.events[0].payload)).toBe(false);
    expect(r.trace.events[0]).not.toBe(input.events[0]);
    expect(r.trace.events[0]).toEqual(input.events[0]);
  });

  it('the result is deeply frozen even when a stored event was frozen only at its top', () => {
    const input = stored();
    Object.freeze(input.events[0]);
    Object.freeze(input.events);
    const r = accepted(appendToTrace(input, hostEvent('k2'), clockAt()));
    expect(Object.isFrozen(r.trace.events[0]!.payload)).toBe(true);
    // and a later write to the input cannot reach the trace the recorder wrote
    input.events[0].payload.toolCallId = 'changed';
    expect(r.trace.events[0]!.payload).toEqual({ toolCallId: 'k1' });
  });
});
