// @module-tag unit
import { digestOf } from '@agent-contracts/digest';
import {
  jcsByteLength,
  type LocalTaskTraceV1,
  prefixDigestOf,
  TRACE_MAX_BYTES,
  TRACE_MAX_EVENTS,
  traceEventIdOf,
  traceIdOf,
} from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import {
  appendToTrace,
  closeTrace,
  LocalTaskTraceRecorder,
  openTrace,
  replayTrace,
  traceVerdict,
} from '../../src/local-task-trace/index.ts';
import { accepted, clockAt, deepFreeze, hostEvent, loaded, opened, T0 } from './helpers.ts';

const later = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();

/** A trace with `n` PreToolUse events appended one millisecond apart. */
function withEvents(
  n: number,
  payload: (i: number) => Record<string, unknown> = () => ({}),
): LocalTaskTraceV1 {
  const clock = clockAt();
  let trace = opened();
  for (let i = 0; i < n; i++) {
    clock.advance(1);
    trace = accepted(appendToTrace(trace, hostEvent(`call-${i}`, { payload: payload(i) }), clock)).trace;
  }
  return trace;
}

describe('open (O1-O3)', () => {
  it('opens an empty trace with a derived traceId', () => {
    const r = openTrace(null, { turnKey: 'turn-1', openedAt: T0 }, clockAt());
    expect(r.ok && r.trace).toEqual({
      schemaVersion: 'LocalTaskTraceV1',
      traceId: traceIdOf('turn-1', T0),
      turnKey: 'turn-1',
      status: 'open',
      sequence: 0,
      openedAt: T0,
      completedAt: null,
      sequenceBase: 0,
      droppedEvents: 0,
      prefixDigest: null,
      events: [],
    });
  });

  it('takes openedAt from the clock when not given', () => {
    const r = openTrace(null, { turnKey: 'turn-1' }, clockAt(later(5)));
    expect(r.ok && r.trace.openedAt).toBe(later(5));
  });

  it.each([
    ['a turnKey outside the key format', { turnKey: 'session 42 / turn 4', openedAt: T0 }],
    ['an empty turnKey', { turnKey: '', openedAt: T0 }],
    ['a turnKey over 256 characters', { turnKey: 'a'.repeat(257), openedAt: T0 }],
    ['an openedAt with an offset', { turnKey: 'turn-1', openedAt: '2026-11-30T13:53:08+08:00' }],
    ['an openedAt that is no date', { turnKey: 'turn-1', openedAt: '2026-02-30T00:00:00Z' }],
  ])('refuses %s with TRACE_NOT_FOUND (O1)', (_, input) => {
    const r = openTrace(null, input, clockAt());
    expect(r).toMatchObject({ ok: false, code: 'TRACE_NOT_FOUND', step: 'O1' });
  });

  it('returns the current trace unchanged for a re-delivered start of the same turn', () => {
    const trace = withEvents(2);
    const r = openTrace(trace, { turnKey: 'turn-1', openedAt: later(99) }, clockAt());
    expect(r).toMatchObject({ ok: true, unchanged: true, previous: null });
    expect(r.ok && r.trace).toBe(trace);
  });

  it('closes an open trace of another turn with TurnTerminal interrupted before replacing it (O2)', () => {
    const trace = withEvents(2);
    const clock = clockAt(later(60_000));
    const r = openTrace(
      trace,
      { turnKey: 'turn-2', previousTurnEndReason: 'stale-turn-recovered-by-new-prompt' },
      clock,
    );
    if (!r.ok) expect.fail(r.message);
    const previous = r.previous as LocalTaskTraceV1;
    expect(previous.status).toBe('interrupted');
    expect(previous.completedAt).toBe(later(60_000));
    expect(previous.events.at(-1)).toMatchObject({
      type: 'TurnTerminal',
      result: 'interrupted',
      occurrenceKey: 'turn-terminal',
      payload: { reason: 'stale-turn-recovered-by-new-prompt' },
    });
    expect(replayTrace(previous).ok).toBe(true);
    expect(r.trace).toMatchObject({
      turnKey: 'turn-2',
      status: 'open',
      sequence: 0,
      openedAt: later(60_000),
    });
    expect(trace.status).toBe('open');
  });

  it('replaces a closed trace as it is, and leaves an invalid open trace as it is', () => {
    const closed = accepted(closeTrace(withEvents(1), 'complete', 'host-stop', clockAt(later(9)))).trace;
    const r1 = openTrace(closed, { turnKey: 'turn-2', openedAt: later(10) }, clockAt());
    expect(r1.ok && r1.previous).toBe(closed);
    const broken = { ...loaded(withEvents(1)), sequence: 7 };
    const r2 = openTrace(broken, { turnKey: 'turn-2', openedAt: later(10) }, clockAt());
    expect(r2.ok && r2.previous).toBe(broken);
    expect(broken.events).toHaveLength(1);
  });
});

describe('append (A1-A9)', () => {
  it('writes the event with the next sequence, a derived eventId and a copy of the payload', () => {
    const trace = opened();
    const payload = { toolCallId: 'toolu_1', toolName: 'Read', artifactPaths: ['a.ts'] };
    const r = accepted(
      appendToTrace(
        trace,
        { type: 'PreToolUse', result: 'observed', occurrenceKey: 'toolu_1', payload },
        clockAt(later(3)),
      ),
    );
    expect(r.event).toEqual({
      eventId: traceEventIdOf(trace.traceId, 'PreToolUse', 'toolu_1'),
      occurrenceKey: 'toolu_1',
      sequence: 1,
      observedAt: later(3),
      type: 'PreToolUse',
      result: 'observed',
      payload,
    });
    expect(r.event.payload).not.toBe(payload);
    payload.artifactPaths.push('b.ts');
    expect(r.trace.events[0]!.payload.artifactPaths).toEqual(['a.ts']);
    expect(r.trace.sequence).toBe(1);
    expect(Object.isFrozen(r.trace.events[0]!.payload)).toBe(true);
    expect(trace.events).toEqual([]);
  });

  it('A1: refuses with TRACE_NOT_FOUND when there is no trace', () => {
    expect(appendToTrace(null, hostEvent('k'), clockAt())).toMatchObject({
      code: 'TRACE_NOT_FOUND',
      step: 'A1',
    });
    expect(appendToTrace(undefined, hostEvent('k'), clockAt())).toMatchObject({
      code: 'TRACE_NOT_FOUND',
      step: 'A1',
    });
  });

  it('A2: refuses to append to an invalid stored trace, with its highest-precedence code, and writes nothing', () => {
    const stored = deepFreeze({ ...loaded(withEvents(2)), droppedEvents: 1 });
    const r = appendToTrace(stored, hostEvent('k'), clockAt(later(50)));
    expect(r).toMatchObject({ ok: false, code: 'TRACE_PREFIX_INVALID', step: 'A2' });
    // T14 and T15 both fail with (TRACE_PREFIX_INVALID, null): one merged entry
    expect(!r.ok && r.violations?.map((v) => [v.errorCode, v.eventIndex])).toEqual([
      ['TRACE_PREFIX_INVALID', null],
    ]);
    const noIdentity = { ...loaded(withEvents(1)), traceId: undefined };
    expect(appendToTrace(noIdentity, hostEvent('k'), clockAt())).toMatchObject({
      code: 'TRACE_NOT_FOUND',
      step: 'A2',
    });
    const bad = loaded(withEvents(2)) as unknown as { events: Array<{ sequence: number }> };
    bad.events[1]!.sequence = 5;
    expect(appendToTrace(bad, hostEvent('k'), clockAt())).toMatchObject({
      code: 'TRACE_SEQUENCE_INVALID',
      step: 'A2',
    });
  });

  it('A2: appends to a valid trace loaded from storage (not written by this recorder)', () => {
    const stored = deepFreeze(loaded(withEvents(3)));
    const r = accepted(appendToTrace(stored, hostEvent('k'), clockAt(later(50))));
    expect(r.trace.sequence).toBe(4);
  });

  it('A3: refuses any append after the terminal event with TRACE_TERMINAL_INVALID', () => {
    const closed = accepted(closeTrace(withEvents(2), 'failed', 'host-error', clockAt(later(9)))).trace;
    expect(closed).toMatchObject({ status: 'failed', completedAt: later(9) });
    for (const input of [
      hostEvent('late'),
      { type: 'PostToolUse', result: 'observed', occurrenceKey: 'x', payload: {} },
    ]) {
      expect(appendToTrace(closed, input, clockAt(later(10)))).toMatchObject({
        code: 'TRACE_TERMINAL_INVALID',
        step: 'A3',
      });
    }
    expect(closeTrace(closed, 'complete', 'host-stop', clockAt(later(10)))).toMatchObject({ step: 'A3' });
  });

  it('A4: refuses an expectedSequence that is not sequence + 1', () => {
    const trace = withEvents(2);
    for (const expectedSequence of [2, 4, 0, 3.5, Number.NaN]) {
      expect(appendToTrace(trace, hostEvent('k', { expectedSequence }), clockAt(later(9)))).toMatchObject({
        code: 'TRACE_SEQUENCE_INVALID',
        step: 'A4',
      });
    }
    expect(
      accepted(appendToTrace(trace, hostEvent('k', { expectedSequence: 3 }), clockAt(later(9)))).event
        .sequence,
    ).toBe(3);
  });

  it.each([
    ['a type outside the enumeration', { type: 'pre_tool_use' }, 'TRACE_EVENT_INVALID'],
    ['a result outside the enumeration', { result: 'ok' }, 'TRACE_EVENT_INVALID'],
    [
      'an occurrenceKey outside the key format',
      { occurrenceKey: '-starts-with-dash' },
      'TRACE_EVENT_INVALID',
    ],
    ['an occurrenceKey over 256 characters', { occurrenceKey: 'k'.repeat(257) }, 'TRACE_EVENT_INVALID'],
    ['a string payload', { payload: 'rm -rf dist' }, 'TRACE_EVENT_INVALID'],
    ['an array payload', { payload: [1] }, 'TRACE_EVENT_INVALID'],
    [
      'a payload of 33 keys',
      { payload: Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, i])) },
      'TRACE_EVENT_INVALID',
    ],
    ['a payload that is not JSON data', { payload: { run: () => 1 } }, 'TRACE_EVENT_INVALID'],
    ['a payload with a lone surrogate', { payload: { s: '\uD800' } }, 'TRACE_EVENT_INVALID'],
    [
      'a terminal result on PostToolUse',
      { type: 'PostToolUse', result: 'complete' },
      'TRACE_TERMINAL_INVALID',
    ],
    [
      'a non-terminal result on TurnTerminal',
      { type: 'TurnTerminal', result: 'observed' },
      'TRACE_TERMINAL_INVALID',
    ],
    [
      'a result allowed only for another type',
      { type: 'ToolLeaseStarted', result: 'success' },
      'TRACE_EVENT_INVALID',
    ],
  ])('A5: refuses %s', (_, edit, code) => {
    const trace = withEvents(1);
    const r = appendToTrace(trace, { ...hostEvent('k'), ...edit } as never, clockAt(later(9)));
    expect(r).toMatchObject({ ok: false, code, step: 'A5' });
  });

  it('A5: never invokes a getter in the payload', () => {
    let touched = false;
    const payload = Object.defineProperty({}, 'command', {
      enumerable: true,
      get() {
        touched = true;
        return 'rm -rf /';
      },
    });
    expect(appendToTrace(withEvents(1), hostEvent('k', { payload }), clockAt())).toMatchObject({
      step: 'A5',
    });
    expect(touched).toBe(false);
  });

  it('A6: refuses a payload over 8192 JCS bytes, and accepts one of exactly 8192', () => {
    const trace = withEvents(1);
    const exact = { blob: 'x'.repeat(8192 - jcsByteLength({ blob: '' })) };
    expect(jcsByteLength(exact)).toBe(8192);
    accepted(appendToTrace(trace, hostEvent('k', { payload: exact }), clockAt(later(9))));
    const over = { blob: `${exact.blob}é` };
    expect(appendToTrace(trace, hostEvent('k', { payload: over }), clockAt(later(9)))).toMatchObject({
      code: 'TRACE_BOUNDS_EXCEEDED',
      step: 'A6',
    });
  });

  it('A7: refuses a re-delivered occurrence with TRACE_DUPLICATE_EVENT; the existing event stands', () => {
    const trace = withEvents(3);
    const r = appendToTrace(trace, hostEvent('call-1', { payload: { other: true } }), clockAt(later(9)));
    expect(r).toMatchObject({
      ok: false,
      code: 'TRACE_DUPLICATE_EVENT',
      step: 'A7',
      eventId: trace.events[1]!.eventId,
    });
    // the same occurrenceKey under another type is another occurrence
    accepted(appendToTrace(trace, { ...hostEvent('call-1'), type: 'PostToolUse' }, clockAt(later(9))));
  });

  it('A7 covers retained events only: a re-delivery of a dropped occurrence is appended', () => {
    const trace = withEvents(TRACE_MAX_EVENTS + 1);
    expect(trace.droppedEvents).toBe(1);
    const r = accepted(appendToTrace(trace, hostEvent('call-0'), clockAt(later(999))));
    expect(r.event.eventId).toBe(traceEventIdOf(trace.traceId, 'PreToolUse', 'call-0'));
  });

  it('A8: refuses an earlier observedAt or a malformed one; equal instants are allowed', () => {
    const trace = withEvents(2); // last observedAt = T0 + 2 ms
    expect(appendToTrace(trace, hostEvent('k', { observedAt: later(1) }), clockAt())).toMatchObject({
      code: 'TRACE_SEQUENCE_INVALID',
      step: 'A8',
    });
    expect(
      appendToTrace(trace, hostEvent('k', { observedAt: '2026-11-30 05:53:08Z' }), clockAt()),
    ).toMatchObject({
      code: 'TRACE_SEQUENCE_INVALID',
      step: 'A8',
    });
    // same instant, written with more precision
    const same = `${later(2).slice(0, -1)}000000Z`;
    expect(
      accepted(appendToTrace(trace, hostEvent('k', { observedAt: same }), clockAt())).event.observedAt,
    ).toBe(same);
    const empty = opened();
    expect(
      appendToTrace(empty, hostEvent('k', { observedAt: '2026-11-30T05:53:08.113999Z' }), clockAt()),
    ).toMatchObject({
      step: 'A8',
    });
  });

  it('A8: clamps a clock that stepped back to the last observedAt', () => {
    const trace = accepted(
      appendToTrace(opened(), hostEvent('a', { observedAt: later(500) }), clockAt()),
    ).trace;
    const r = accepted(appendToTrace(trace, hostEvent('b'), clockAt(later(-60_000))));
    expect(r.event.observedAt).toBe(later(500));
    const unreadable = { now: () => Number.NaN };
    expect(appendToTrace(trace, hostEvent('c'), unreadable)).toMatchObject({
      code: 'TRACE_SEQUENCE_INVALID',
      step: 'A8',
    });
  });

  it('checks run in the page order: the first failing check decides the code', () => {
    const closed = accepted(closeTrace(withEvents(1), 'complete', 'host-stop', clockAt(later(5)))).trace;
    // closed (A3) beats a wrong expectedSequence (A4) and a bad type (A5)
    expect(
      appendToTrace(closed, { ...hostEvent('k', { expectedSequence: 9 }), type: 'x' }, clockAt()),
    ).toMatchObject({ step: 'A3' });
    const open = withEvents(1);
    // A4 beats A5; A5 beats A6; A6 beats A7; A7 beats A8
    expect(
      appendToTrace(open, { ...hostEvent('k', { expectedSequence: 9 }), type: 'x' }, clockAt()),
    ).toMatchObject({ step: 'A4' });
    const big = { blob: 'x'.repeat(9000) };
    expect(appendToTrace(open, { ...hostEvent('k', { payload: big }), type: 'x' }, clockAt())).toMatchObject({
      step: 'A5',
    });
    expect(appendToTrace(open, hostEvent('call-0', { payload: big }), clockAt())).toMatchObject({
      step: 'A6',
    });
    expect(appendToTrace(open, hostEvent('call-0', { observedAt: later(-1) }), clockAt())).toMatchObject({
      step: 'A7',
    });
  });

  it('a TurnTerminal closes the trace: status is its result, completedAt its observedAt', () => {
    const r = accepted(closeTrace(withEvents(2), 'interrupted', 'host-interrupt', clockAt(later(7))));
    expect(r.trace).toMatchObject({ status: 'interrupted', completedAt: later(7), sequence: 3 });
    expect(r.event).toMatchObject({
      type: 'TurnTerminal',
      result: 'interrupted',
      payload: { reason: 'host-interrupt' },
    });
    expect(traceVerdict(r.trace).violations).toEqual([]);
  });

  it('a tool result never closes the trace', () => {
    const clock = clockAt(later(5));
    let trace = withEvents(1);
    trace = accepted(appendToTrace(trace, { ...hostEvent('call-0'), type: 'PostToolUse' }, clock)).trace;
    trace = accepted(
      appendToTrace(trace, { ...hostEvent('call-0'), type: 'ToolLeaseCompleted', result: 'success' }, clock),
    ).trace;
    expect(trace).toMatchObject({ status: 'open', completedAt: null });
  });
});

describe('bounds (A10)', () => {
  it('appending the 129th event drops the oldest one and folds it into prefixDigest', () => {
    const full = withEvents(TRACE_MAX_EVENTS);
    expect(full).toMatchObject({ droppedEvents: 0, prefixDigest: null });
    const r = accepted(appendToTrace(full, hostEvent('one-more'), clockAt(later(10_000))));
    expect(r.dropped).toEqual([full.events[0]]);
    expect(r.trace).toMatchObject({
      sequence: TRACE_MAX_EVENTS + 1,
      sequenceBase: 1,
      droppedEvents: 1,
      prefixDigest: digestOf({ prefixDigest: null, event: full.events[0] }),
    });
    expect(r.trace.events).toHaveLength(TRACE_MAX_EVENTS);
    expect(r.trace.events[0]!.sequence).toBe(2);
  });

  it('after n drops sequenceBase = droppedEvents = n and prefixDigest is the single-event fold over them', () => {
    const clock = clockAt();
    let trace = opened();
    const all: LocalTaskTraceV1['events'] = [];
    for (let i = 0; i < 300; i++) {
      clock.advance(1);
      const r = accepted(appendToTrace(trace, hostEvent(`k${i}`), clock));
      all.push(r.event);
      trace = r.trace;
    }
    expect(trace).toMatchObject({ sequence: 300, sequenceBase: 172, droppedEvents: 172 });
    expect(trace.prefixDigest).toBe(prefixDigestOf(all.slice(0, 172)));
    expect(trace.events).toEqual(all.slice(172));
  });

  it('the byte bound drops events before the count bound does when payloads are large', () => {
    const payload = (i: number) => ({ i, blob: 'y'.repeat(7_000) });
    const trace = withEvents(40, payload);
    expect(trace.events.length).toBeLessThan(TRACE_MAX_EVENTS);
    expect(trace.droppedEvents).toBe(40 - trace.events.length);
    expect(jcsByteLength(trace)).toBeLessThanOrEqual(TRACE_MAX_BYTES);
    // minimal: the state just before the last drop broke the byte bound
    const d = trace.droppedEvents;
    const lastDropped = withEvents(d, payload).events.at(-1)!;
    expect(lastDropped.sequence).toBe(d);
    const beforeLastDrop = {
      ...trace,
      sequenceBase: d - 1,
      droppedEvents: d - 1,
      events: [lastDropped, ...trace.events],
    };
    expect(jcsByteLength(beforeLastDrop)).toBeGreaterThan(TRACE_MAX_BYTES);
  });

  it('one append may drop several events; the fold is the same as dropping them one at a time', () => {
    // 17 small events, then large ones that each push out several small ones at once
    const clock = clockAt();
    let trace = opened();
    const all: LocalTaskTraceV1['events'] = [];
    const push = (input: ReturnType<typeof hostEvent>) => {
      clock.advance(1);
      const r = accepted(appendToTrace(trace, input, clock));
      all.push(r.event);
      trace = r.trace;
      return r;
    };
    for (let i = 0; i < 120; i++) push(hostEvent(`s${i}`, { payload: { blob: 'z'.repeat(600) } }));
    const batches: number[] = [];
    for (let i = 0; i < 14; i++)
      batches.push(push(hostEvent(`L${i}`, { payload: { blob: 'w'.repeat(8_000) } })).dropped.length);
    expect(Math.max(...batches)).toBeGreaterThan(1);
    expect(trace.prefixDigest).toBe(prefixDigestOf(all.slice(0, trace.droppedEvents)));
    expect(jcsByteLength(trace)).toBeLessThanOrEqual(TRACE_MAX_BYTES);
    const putBack = { ...trace, events: [all[trace.droppedEvents - 1]!, ...trace.events] };
    expect(jcsByteLength(putBack) > TRACE_MAX_BYTES || putBack.events.length > TRACE_MAX_EVENTS).toBe(true);
    expect(traceVerdict(trace).violations).toEqual([]);
  });

  it('sequence, status and completedAt do not change when the terminal append drops events', () => {
    const r = accepted(
      closeTrace(withEvents(TRACE_MAX_EVENTS), 'complete', 'host-stop', clockAt(later(9_999))),
    );
    expect(r.trace).toMatchObject({
      status: 'complete',
      completedAt: later(9_999),
      sequence: 129,
      droppedEvents: 1,
    });
    expect(traceVerdict(r.trace).violations).toEqual([]);
  });
});

describe('LocalTaskTraceRecorder', () => {
  it('holds one trace and replaces it only on accepted operations', () => {
    const clock = clockAt();
    const recorder = new LocalTaskTraceRecorder(clock);
    expect(recorder.append(hostEvent('a'))).toMatchObject({ code: 'TRACE_NOT_FOUND' });
    expect(recorder.replay()).toMatchObject({ ok: false, errorCode: 'TRACE_NOT_FOUND', traceDigest: null });
    recorder.open({ turnKey: 'turn-1' });
    clock.advance(5);
    expect(
      recorder.append({
        type: 'UserPromptSubmit',
        result: 'observed',
        occurrenceKey: 'host-seq-1',
        payload: {},
      }).ok,
    ).toBe(true);
    const before = recorder.trace;
    expect(
      recorder.append({
        type: 'UserPromptSubmit',
        result: 'observed',
        occurrenceKey: 'host-seq-1',
        payload: {},
      }),
    ).toMatchObject({
      code: 'TRACE_DUPLICATE_EVENT',
    });
    expect(recorder.trace).toBe(before);
    expect(recorder.close('complete', 'host-stop').ok).toBe(true);
    expect(recorder.replay()).toMatchObject({ ok: true, status: 'complete', sequence: 2 });
  });

  it('validates a stored trace before appending to it (restart)', () => {
    const stored = { ...loaded(withEvents(2)), status: 'complete' };
    const recorder = new LocalTaskTraceRecorder(clockAt(later(9)), stored);
    expect(recorder.append(hostEvent('x'))).toMatchObject({ code: 'TRACE_TERMINAL_INVALID', step: 'A2' });
    expect(recorder.trace).toBe(stored);
  });
});
