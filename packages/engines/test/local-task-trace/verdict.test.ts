// @module-tag unit
// The verdict's building blocks one by one (docs/spec/local-task-trace-gate.md, "Validation
// verdict", "Invariants", "Schema failures as rule codes"): each input is chosen so that one
// check alone decides the answer, and the expected verdict is given exactly.
import {
  jcsByteLength,
  type LocalTaskTraceViolation,
  TRACE_MAX_BYTES,
  TRACE_MAX_PAYLOAD_BYTES,
} from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import {
  appendToTrace,
  isTraceTimestamp,
  sortViolations,
  traceInstantKey,
  traceVerdict,
} from '../../src/local-task-trace/index.ts';
import {
  isInertJson,
  isTerminalResult,
  isTraceEventResult,
  isTraceEventType,
  isTraceKey,
} from '../../src/local-task-trace/verdict.ts';
import { accepted, broken, clockAt, hostEvent, type Mutable, opened, T0 } from './helpers.ts';

const pairs = (input: unknown) => traceVerdict(input).violations.map((v) => [v.errorCode, v.eventIndex]);
const messages = (input: unknown) => traceVerdict(input).violations.map((v) => v.message);
const later = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();
/** A second schema failure, (TRACE_SEQUENCE_INVALID, null), so that T1-T15 are not evaluated. */
const badSequence = (t: Mutable) => {
  t.sequence = 'seven';
};

describe('isInertJson: plain data only, read through descriptors', () => {
  it('accepts plain JSON data, a null-prototype object and an object with a `length` key', () => {
    expect(isInertJson({ a: [1, 'x', true, null, { b: {} }] })).toBe(true);
    const bare = Object.create(null) as Mutable;
    bare.k = 1;
    expect(isInertJson(bare)).toBe(true);
    expect(isInertJson({ length: 2 })).toBe(true);
    const shared = { x: 1 };
    expect(isInertJson({ a: shared, b: shared })).toBe(true); // shared, not a cycle
  });

  it('refuses what is not data: functions, undefined, bigints, symbols, non-finite numbers', () => {
    expect(isInertJson(() => 1)).toBe(false);
    expect(isInertJson(undefined)).toBe(false);
    expect(isInertJson(1n)).toBe(false);
    expect(isInertJson(Symbol('s'))).toBe(false);
    expect(isInertJson({ a: undefined })).toBe(false);
    expect(isInertJson([Number.NaN])).toBe(false);
  });

  it('refuses a function even when it has no own properties and a plain prototype', () => {
    const f = (() => 1) as unknown as Mutable;
    delete f.length;
    delete f.name;
    Object.setPrototypeOf(f, Object.prototype);
    expect(Object.getOwnPropertyNames(f)).toEqual([]);
    expect(isInertJson(f)).toBe(false);
  });

  it('refuses a cycle', () => {
    const a: Mutable = { b: {} };
    a.b.a = a;
    expect(isInertJson(a)).toBe(false);
  });

  it('refuses data nested too deeply to walk', () => {
    let v: unknown = 0;
    for (let i = 0; i < 200_000; i++) v = [v];
    expect(isInertJson(v)).toBe(false);
  });

  it('refuses non-plain prototypes: an array or an object that inherits from elsewhere', () => {
    expect(isInertJson(Object.setPrototypeOf([1], Object.prototype))).toBe(false);
    expect(isInertJson(Object.create({ inherited: 1 }))).toBe(false);
    expect(isInertJson(new Date(0))).toBe(false);
  });

  it('refuses symbol keys, non-enumerable properties and accessors', () => {
    expect(isInertJson({ [Symbol('s')]: 1 })).toBe(false);
    expect(isInertJson(Object.defineProperty({}, 'x', { value: 1, enumerable: false }))).toBe(false);
    expect(isInertJson(Object.defineProperty({}, 'x', { get: () => 1, enumerable: true }))).toBe(false);
  });

  it('refuses a sparse array', () => {
    // biome-ignore lint/suspicious/noSparseArray: the hole is the point
    expect(isInertJson([1, , 3])).toBe(false);
    expect(isInertJson(new Array(2))).toBe(false);
    expect(isInertJson([1, 2, 3])).toBe(true);
  });
});

describe('isTraceTimestamp: the profile, naming a real UTC date and time', () => {
  it.each([
    ['2024-02-29T00:00:00Z', true], // divisible by 4
    ['2023-02-29T00:00:00Z', false],
    ['2023-02-28T00:00:00Z', true],
    ['2100-02-29T00:00:00Z', false], // divisible by 100, not by 400
    ['2000-02-29T00:00:00Z', true], // divisible by 400
    ['2024-02-30T00:00:00Z', false],
  ])('February: %s is %s', (ts, ok) => {
    expect(isTraceTimestamp(ts)).toBe(ok);
  });

  it.each(['04', '06', '09', '11'])('month %s has 30 days', (m) => {
    expect(isTraceTimestamp(`2026-${m}-30T00:00:00Z`)).toBe(true);
    expect(isTraceTimestamp(`2026-${m}-31T00:00:00Z`)).toBe(false);
  });

  it.each(['01', '03', '05', '07', '08', '10', '12'])('month %s has 31 days', (m) => {
    expect(isTraceTimestamp(`2026-${m}-31T00:00:00Z`)).toBe(true);
    expect(isTraceTimestamp(`2026-${m}-32T00:00:00Z`)).toBe(false);
  });

  it.each([
    ['2026-00-10T00:00:00Z', false],
    ['2026-13-10T00:00:00Z', false],
    ['2026-01-00T00:00:00Z', false],
    ['2026-01-01T00:00:00Z', true],
    ['2026-12-15T00:00:00Z', true],
    ['2026-11-30T24:00:00Z', false],
    ['2026-11-30T23:00:00Z', true],
    ['2026-11-30T00:60:00Z', false],
    ['2026-11-30T00:59:00Z', true],
    ['2026-11-30T00:00:59Z', true],
    ['2026-11-30T00:00:60Z', false],
  ])('month, day, hour, minute and second ranges: %s is %s', (ts, ok) => {
    expect(isTraceTimestamp(ts)).toBe(ok);
  });

  it.each([
    ['2026-12-31T23:59:60Z', true],
    ['2026-06-30T23:59:60.5Z', true],
    ['2026-12-31T23:59:61Z', false],
    ['2026-12-31T10:59:60Z', false],
    ['2026-12-31T23:10:60Z', false],
    ['2026-12-31T23:00:61Z', false],
  ])('the leap second is 23:59:60 only: %s is %s', (ts, ok) => {
    expect(isTraceTimestamp(ts)).toBe(ok);
  });

  it('refuses what is not a string, even when it reads as a timestamp', () => {
    expect(isTraceTimestamp(new String(T0))).toBe(false);
    expect(isTraceTimestamp([T0])).toBe(false);
    expect(isTraceTimestamp(Date.parse(T0))).toBe(false);
    expect(isTraceTimestamp(T0)).toBe(true);
  });
});

describe('traceInstantKey', () => {
  it('pads the fraction to nanoseconds, and writes nine zeros when there is none', () => {
    expect(traceInstantKey('2026-11-30T05:53:08.114Z')).toBe('2026-11-30T05:53:08.114000000');
    expect(traceInstantKey('2026-11-30T05:53:08Z')).toBe('2026-11-30T05:53:08.000000000');
    expect(traceInstantKey('2026-11-30T05:53:08.123456789Z')).toBe('2026-11-30T05:53:08.123456789');
  });
});

describe('the key format and the enumerations', () => {
  it('isTraceKey: 1 to 256 characters of the pattern, strings only', () => {
    expect(isTraceKey('a'.repeat(256))).toBe(true);
    expect(isTraceKey('a'.repeat(257))).toBe(false);
    expect(isTraceKey('')).toBe(false);
    expect(isTraceKey(['turn-1'])).toBe(false);
    expect(isTraceKey(new String('turn-1'))).toBe(false);
  });

  it('isTraceEventType, isTraceEventResult, isTerminalResult: strings of the enumerations only', () => {
    expect(isTraceEventType('Stop')).toBe(true);
    expect(isTraceEventType(['Stop'])).toBe(false);
    expect(isTraceEventType('toString')).toBe(false);
    expect(isTraceEventResult('observed')).toBe(true);
    expect(isTraceEventResult('nope')).toBe(false);
    expect(isTraceEventResult(['observed'])).toBe(false);
    expect(isTerminalResult('failed')).toBe(true);
    expect(isTerminalResult('observed')).toBe(false);
  });
});

describe('sortViolations: code precedence, then eventIndex with null first', () => {
  const v = (errorCode: LocalTaskTraceViolation['errorCode'], eventIndex: number | null) => ({
    errorCode,
    eventIndex,
    message: `${errorCode}@${eventIndex}`,
  });
  const order = (list: LocalTaskTraceViolation[]) => sortViolations(list).map((x) => x.message);

  it.each([
    [[v('TRACE_EVENT_INVALID', 0), v('TRACE_EVENT_INVALID', null)]],
    [[v('TRACE_EVENT_INVALID', null), v('TRACE_EVENT_INVALID', 0)]],
    [[v('TRACE_EVENT_INVALID', 1), v('TRACE_EVENT_INVALID', null), v('TRACE_EVENT_INVALID', 0)]],
  ])('null comes before every index (%#)', (list) => {
    expect(order(list)).toEqual([
      'TRACE_EVENT_INVALID@null',
      ...(list.length === 3 ? ['TRACE_EVENT_INVALID@0', 'TRACE_EVENT_INVALID@1'] : ['TRACE_EVENT_INVALID@0']),
    ]);
  });

  it('orders by code before index, and returns a new array', () => {
    const list = [v('TRACE_PREFIX_INVALID', null), v('TRACE_NOT_FOUND', null), v('TRACE_ID_MISMATCH', 3)];
    const sorted = sortViolations(list);
    expect(sorted.map((x) => x.message)).toEqual([
      'TRACE_NOT_FOUND@null',
      'TRACE_ID_MISMATCH@3',
      'TRACE_PREFIX_INVALID@null',
    ]);
    expect(sorted).not.toBe(list);
    expect(list[0]!.errorCode).toBe('TRACE_PREFIX_INVALID');
  });
});

describe('traceVerdict: what is no trace', () => {
  it('says whether there is no document or one that is not a JSON object of plain data', () => {
    expect(traceVerdict(undefined)).toEqual({
      violations: [
        {
          errorCode: 'TRACE_NOT_FOUND',
          eventIndex: null,
          message: 'No LocalTaskTraceV1 exists for the turn; open a trace when the turn starts.',
        },
      ],
      jsonData: false,
    });
    expect(traceVerdict(null)).toEqual({
      violations: [
        {
          errorCode: 'TRACE_NOT_FOUND',
          eventIndex: null,
          message: 'The input is not a JSON object of plain data, so it is no trace; do not append to it.',
        },
      ],
      jsonData: true,
    });
  });

  it('inert data JCS cannot write (a lone surrogate) is not JSON data', () => {
    expect(traceVerdict('\uD800')).toMatchObject({ jsonData: false });
    expect(pairs('\uD800')).toEqual([['TRACE_NOT_FOUND', null]]);
    expect(traceVerdict('trace')).toMatchObject({ jsonData: true });
  });

  it('an identity failure is one violation whose message names the first failing member', () => {
    const named = (edit: (t: Mutable) => void) => {
      const input = broken(edit);
      expect(pairs(input)).toEqual([['TRACE_NOT_FOUND', null]]);
      return messages(input)[0]!;
    };
    expect(
      named((t) => {
        delete t.schemaVersion;
        t.traceId = 'trace-x';
      }),
    ).toMatch(/^schemaVersion is missing/);
    expect(named((t) => (t.traceId = 'trace-x'))).toMatch(/^traceId is missing/);
    expect(named((t) => (t.turnKey = 'a b'))).toMatch(/^turnKey is missing/);
    expect(named((t) => (t.openedAt = 'today'))).toMatch(/^openedAt is missing/);
    expect(named((t) => (t.extra = 1))).toMatch(/^the document has a property/);
  });

  it('a traceId that is not a string is an identity failure, even when it reads as one', () => {
    const input = broken((t) => {
      t.traceId = [t.traceId];
    });
    expect(pairs(input)).toEqual([['TRACE_NOT_FOUND', null]]);
  });
});

describe('traceVerdict: schema failures by location', () => {
  // Each edit below leaves the document's identity intact and adds (TRACE_SEQUENCE_INVALID, null),
  // so the verdict is the schema failures alone.
  it.each<[string, (t: Mutable) => void, Array<[string, number | null]>]>([
    [
      'an eventId that is not a string',
      (t) => (t.events[2].eventId = [t.events[2].eventId]),
      [['TRACE_ID_MISMATCH', 2]],
    ],
    ['a malformed occurrenceKey', (t) => (t.events[2].occurrenceKey = 'a b'), [['TRACE_EVENT_INVALID', 2]]],
    ['an event sequence of 0', (t) => (t.events[2].sequence = 0), [['TRACE_SEQUENCE_INVALID', 2]]],
    ['an unknown result', (t) => (t.events[2].result = 'nope'), [['TRACE_EVENT_INVALID', 2]]],
    ['a malformed completedAt', (t) => (t.completedAt = 'later'), [['TRACE_TERMINAL_INVALID', null]]],
    ['a negative droppedEvents', (t) => (t.droppedEvents = -1), [['TRACE_PREFIX_INVALID', null]]],
    ['a malformed prefixDigest', (t) => (t.prefixDigest = 'zz'), [['TRACE_PREFIX_INVALID', null]]],
    [
      'a prefixDigest that is not a string, even when it reads as one',
      (t) => (t.prefixDigest = ['a'.repeat(64)]),
      [['TRACE_PREFIX_INVALID', null]],
    ],
  ])('%s', (_, edit, expected) => {
    const input = broken((t) => {
      badSequence(t);
      edit(t);
    });
    const all: Array<[string, number | null]> = [['TRACE_SEQUENCE_INVALID', null], ...expected];
    expect(pairs(input)).toEqual(all.sort(byVerdictOrder));
  });

  it('events that is not an array is (TRACE_SEQUENCE_INVALID, null) and nothing else', () => {
    expect(pairs(broken((t) => (t.events = {})))).toEqual([['TRACE_SEQUENCE_INVALID', null]]);
    expect(pairs(broken((t) => (t.events = 'abc')))).toEqual([['TRACE_SEQUENCE_INVALID', null]]);
  });

  it('a pair keeps the message of its first failing check, which names the event', () => {
    const input = broken((t) => {
      t.events[3].sequence = 0;
      t.events[3].observedAt = 'yesterday';
    });
    expect(traceVerdict(input).violations).toEqual([
      {
        errorCode: 'TRACE_SEQUENCE_INVALID',
        eventIndex: 3,
        message: 'events[3].sequence is missing or not an integer >= 1; refuse the trace.',
      },
    ]);
  });

  it('a payload of exactly 32 keys is valid', () => {
    const payload = Object.fromEntries(Array.from({ length: 32 }, (_, i) => [`k${i}`, i]));
    expect(pairs(broken((t) => (t.events[5].payload = payload)))).toEqual([]);
    expect(pairs(broken((t) => (t.events[5].payload = { ...payload, k32: 32 })))).toEqual([
      ['TRACE_EVENT_INVALID', 5],
    ]);
  });
});

const PRECEDENCE = [
  'TRACE_NOT_FOUND',
  'TRACE_BOUNDS_EXCEEDED',
  'TRACE_ID_MISMATCH',
  'TRACE_SEQUENCE_INVALID',
  'TRACE_DUPLICATE_EVENT',
  'TRACE_EVENT_INVALID',
  'TRACE_TERMINAL_INVALID',
  'TRACE_PREFIX_INVALID',
];
function byVerdictOrder(a: [string, number | null], b: [string, number | null]): number {
  return PRECEDENCE.indexOf(a[0]) - PRECEDENCE.indexOf(b[0]) || (a[1] ?? -1) - (b[1] ?? -1);
}

describe('traceVerdict: the bounds at their limits (T1, T2)', () => {
  it('a payload of exactly 8192 JCS bytes is within T2', () => {
    const payload = { blob: 'x'.repeat(TRACE_MAX_PAYLOAD_BYTES - 11) };
    expect(jcsByteLength(payload)).toBe(TRACE_MAX_PAYLOAD_BYTES);
    const trace = accepted(appendToTrace(opened(), hostEvent('k', { payload }), clockAt())).trace;
    expect(pairs(trace)).toEqual([]);
  });

  it('a trace of exactly 131072 JCS bytes is within T1', () => {
    const clock = clockAt();
    let trace = opened();
    for (let i = 0; i < 15; i++)
      trace = accepted(
        appendToTrace(trace, hostEvent(`big-${i}`, { payload: { blob: 'x'.repeat(8000) } }), clock),
      ).trace;
    const probe = accepted(appendToTrace(trace, hostEvent('last', { payload: { blob: '' } }), clock)).trace;
    const blob = 'x'.repeat(TRACE_MAX_BYTES - jcsByteLength(probe));
    const full = accepted(appendToTrace(trace, hostEvent('last', { payload: { blob } }), clock));
    expect(jcsByteLength(full.trace)).toBe(TRACE_MAX_BYTES);
    expect(full.dropped).toEqual([]);
    expect(full.trace.events).toHaveLength(16);
    expect(pairs(full.trace)).toEqual([]);
  });
});

describe('traceVerdict: T5, T7 messages say what was expected', () => {
  it('T5 names the sequence the event should have', () => {
    const input = broken((t) => {
      t.events[2].sequence = 9;
    });
    expect(traceVerdict(input).violations).toEqual([
      {
        errorCode: 'TRACE_SEQUENCE_INVALID',
        eventIndex: 2,
        message: 'T5: events[2].sequence is 9, not sequenceBase + 3 = 3; do not renumber it.',
      },
    ]);
  });

  it('T7 names openedAt for the first event and the previous event otherwise', () => {
    const first = broken((t) => {
      t.events[0].observedAt = later(-1);
    });
    expect(traceVerdict(first).violations).toEqual([
      {
        errorCode: 'TRACE_SEQUENCE_INVALID',
        eventIndex: 0,
        message: 'T7: events[0].observedAt is earlier than openedAt.',
      },
    ]);
    const third = broken((t) => {
      t.events[2].observedAt = later(15);
    });
    expect(traceVerdict(third).violations).toEqual([
      {
        errorCode: 'TRACE_SEQUENCE_INVALID',
        eventIndex: 2,
        message: 'T7: events[2].observedAt is earlier than events[1].observedAt.',
      },
    ]);
  });
});

describe('traceVerdict: the terminal rules (T9, T12, T13)', () => {
  it('T9: a TurnTerminal with a non-terminal result', () => {
    const input = broken((t) => {
      t.events[6].result = 'observed';
    });
    expect(traceVerdict(input).violations).toEqual([
      {
        errorCode: 'TRACE_TERMINAL_INVALID',
        eventIndex: null,
        message:
          'T13: status is complete but the last event is not a TurnTerminal with that result whose observedAt is completedAt.',
      },
      {
        errorCode: 'TRACE_TERMINAL_INVALID',
        eventIndex: 6,
        message: 'T9: events[6] is TurnTerminal with the non-terminal result observed.',
      },
    ]);
  });

  it('T12: an open trace with a completedAt and no terminal event', () => {
    const trace = accepted(appendToTrace(opened(), hostEvent('k'), clockAt())).trace;
    expect(pairs(trace)).toEqual([]);
    expect(pairs(broken((t) => (t.completedAt = t.events[0].observedAt), trace))).toEqual([
      ['TRACE_TERMINAL_INVALID', null],
    ]);
  });

  it('T13: a closed trace without events', () => {
    const input = broken((t) => {
      t.events = [];
      t.sequence = 0;
      t.completedAt = t.openedAt;
    });
    expect(pairs(input)).toEqual([['TRACE_TERMINAL_INVALID', null]]);
  });

  it('T13: a closed trace whose last event carries the status but is no TurnTerminal', () => {
    const input = broken((t) => {
      t.events.pop();
      t.sequence -= 1;
      t.events[5].result = 'complete'; // the Stop: T9 at 5
      t.completedAt = t.events[5].observedAt;
    });
    expect(pairs(input)).toEqual([
      ['TRACE_TERMINAL_INVALID', null],
      ['TRACE_TERMINAL_INVALID', 5],
    ]);
  });

  it('T13: a closed trace whose TurnTerminal result differs from the status', () => {
    const input = broken((t) => {
      t.status = 'failed';
    });
    expect(pairs(input)).toEqual([['TRACE_TERMINAL_INVALID', null]]);
  });
});
