// @module-tag unit
// The LocalTaskTraceGate rules over the area's fixtures: every semantic fixture fails with its
// code at its path and with no other code (it breaks exactly one rule), every valid document
// passes, and the trace-replay bundles judge as recorded.
import { appendToTrace, ManualClock, openTrace } from '@agent-contracts/engines';
import { jcsByteLength, type LocalTaskTraceV1, TRACE_MAX_BYTES } from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import {
  LOCAL_TASK_TRACE_BUNDLES,
  LOCAL_TASK_TRACE_FIXTURES,
} from '../../../../scripts/fixtures/local-task-trace.ts';
import { BUNDLE_KINDS, validate, validateBundle } from '../../src/index.ts';
import { LOCAL_TASK_TRACE_BUNDLE_RULES, LOCAL_TASK_TRACE_RULES } from '../../src/rules/local-task-trace.ts';

const PAGE_CODES = [
  'TRACE_BOUNDS_EXCEEDED',
  'TRACE_SEQUENCE_INVALID',
  'TRACE_DUPLICATE_EVENT',
  'TRACE_EVENT_INVALID',
  'TRACE_TERMINAL_INVALID',
  'TRACE_PREFIX_INVALID',
];

describe('LOCAL_TASK_TRACE_RULES', () => {
  it('has one rule per semantic code of the page, each citing the page', () => {
    expect(
      LOCAL_TASK_TRACE_RULES.filter((r) => r.contract === 'LocalTaskTraceV1').map((r) => r.code),
    ).toEqual(PAGE_CODES);
    expect(
      LOCAL_TASK_TRACE_RULES.filter((r) => r.contract === 'LocalTaskTraceReplayV1').map((r) => r.code),
    ).toEqual(['TRACE_REPLAY_MISMATCH']);
    for (const r of [...LOCAL_TASK_TRACE_RULES, ...LOCAL_TASK_TRACE_BUNDLE_RULES])
      expect(r.specSection).toMatch(/^docs\/spec\/local-task-trace-gate\.md#invariants(-1)?$/);
    expect(BUNDLE_KINDS).toContain('trace-replay');
  });

  it('every semantic code (and TRACE_ID_MISMATCH) has at least one fixture', () => {
    const produced = new Set(
      LOCAL_TASK_TRACE_FIXTURES.flatMap((s) => (s.semantic ?? []).map((f) => f.expect.code)),
    );
    for (const code of [...PAGE_CODES, 'TRACE_ID_MISMATCH', 'TRACE_REPLAY_MISMATCH'])
      expect(produced).toContain(code);
  });
});

for (const set of LOCAL_TASK_TRACE_FIXTURES) {
  describe(set.contract, () => {
    for (const [name, doc] of Object.entries(set.valid)) {
      it(`valid ${name} passes every rule`, () => {
        const r = validate(doc);
        expect(r.ok ? [] : r.issues).toEqual([]);
      });
    }
    for (const f of set.semantic ?? []) {
      it(`${f.name} fails with exactly ${f.expect.code}, at ${f.expect.path}`, () => {
        const r = validate(f.document);
        if (r.ok) expect.fail('accepted');
        expect(r.issues.filter((i) => i.code === f.expect.code && i.path === f.expect.path)).not.toEqual([]);
        expect([...new Set(r.issues.map((i) => i.code))]).toEqual([f.expect.code]);
        for (const i of r.issues) expect(i.severity).toBe('error');
      });
    }
  });
}

for (const set of LOCAL_TASK_TRACE_BUNDLES) {
  describe(`bundle ${set.kind}`, () => {
    it('has at least 2 valid bundles and an invalid one per bundle code', () => {
      expect(Object.keys(set.valid).length).toBeGreaterThanOrEqual(2);
      const codes = new Set(set.invalid.map((f) => f.expect.code));
      for (const r of LOCAL_TASK_TRACE_BUNDLE_RULES) expect(codes).toContain(r.code);
    });
    for (const [name, documents] of Object.entries(set.valid)) {
      it(`valid ${name}`, () => {
        const r = validateBundle({ kind: set.kind, documents });
        expect(r.ok ? [] : r.issues).toEqual([]);
      });
    }
    for (const f of set.invalid) {
      it(`${f.name} fails with exactly ${f.expect.code} at ${f.expect.path}`, () => {
        for (const d of f.documents) expect(validate(d).ok).toBe(true);
        const r = validateBundle({ kind: set.kind, documents: f.documents });
        if (r.ok) expect.fail('accepted');
        expect(r.issues.filter((i) => i.code === f.expect.code && i.path === f.expect.path)).not.toEqual([]);
        expect([...new Set(r.issues.map((i) => i.code))]).toEqual([f.expect.code]);
      });
    }
    it('refuses a bundle that is not [trace, replay]', () => {
      const [trace, replay] = Object.values(set.valid)[0]!;
      const r = validateBundle({ kind: set.kind, documents: [replay, trace] });
      expect(r.ok ? [] : r.issues.map((i) => i.code)).toEqual(['BUNDLE_INVALID']);
    });
  });
}

describe('T8 on short and long traces', () => {
  // Repeats are found pairwise in a trace of up to 8 events and through a set above; both name
  // every later copy with the index of the first.
  function recorded(events: number): LocalTaskTraceV1 {
    const clock = new ManualClock(Date.parse('2026-11-30T06:00:00.000Z'));
    const opened = openTrace(null, { turnKey: 'turn-t8' }, clock);
    if (!opened.ok) throw new Error(opened.message);
    let t = opened.trace;
    for (let i = 0; i < events; i++) {
      clock.advance(1_000);
      const r = appendToTrace(
        t,
        { type: 'PreToolUse', result: 'observed', occurrenceKey: `k-${i}`, payload: {} },
        clock,
      );
      if (!r.ok) throw new Error(r.message);
      t = r.trace;
    }
    return structuredClone(t) as LocalTaskTraceV1;
  }
  const duplicates = (doc: LocalTaskTraceV1) => {
    const r = validate(doc);
    return r.ok
      ? []
      : r.issues.filter((i) => i.code === 'TRACE_DUPLICATE_EVENT').map((i) => [i.path, i.message]);
  };

  for (const n of [2, 8, 9, 40]) {
    it(`${n} events: none without a repeat, every later copy named with a repeat`, () => {
      const doc = recorded(n);
      expect(duplicates(doc)).toEqual([]);
      doc.events[n - 1]!.eventId = doc.events[0]!.eventId;
      if (n > 2) doc.events[1]!.eventId = doc.events[0]!.eventId;
      const later = n > 2 ? [1, n - 1] : [1];
      expect(duplicates(doc)).toEqual(
        later.map((i) => [
          `/events/${i}/eventId`,
          `T8: events[${i}] repeats the eventId of events[0] (a re-delivered occurrence); a recorder refuses the duplicate instead of appending it. Refuse the trace.`,
        ]),
      );
    });
  }
});

describe('T1 at the byte bound', () => {
  // A trace grown to exactly TRACE_MAX_BYTES of JCS by its payloads (which no derived id covers),
  // then one byte over: the per-event count must agree with measuring the whole JCS text, also for
  // payloads with non-ASCII text and escapes, and for events whose properties come in another order.
  function traceOfSize(target: number, reorder: boolean): LocalTaskTraceV1 {
    const clock = new ManualClock(Date.parse('2026-11-30T06:00:00.000Z'));
    const opened = openTrace(null, { turnKey: 'turn-bound' }, clock);
    if (!opened.ok) throw new Error(opened.message);
    let t = opened.trace;
    for (let i = 0; i < 20; i++) {
      clock.advance(1_000 + i);
      const r = appendToTrace(
        t,
        { type: 'PreToolUse', result: 'observed', occurrenceKey: `k-${i}`, payload: {} },
        clock,
      );
      if (!r.ok) throw new Error(r.message);
      t = r.trace;
    }
    const doc = structuredClone(t) as LocalTaskTraceV1;
    doc.events.forEach((e, i) => {
      e.payload = { note: i % 3 === 0 ? 'caf\u00e9 \u2603 "quoted"\n' : 'plain', blob: '' };
    });
    let missing = target - jcsByteLength(doc);
    for (const e of doc.events) {
      const add = Math.min(missing, 7_000);
      (e.payload as { blob: string }).blob = 'x'.repeat(add);
      missing -= add;
    }
    if (missing !== 0 || jcsByteLength(doc) !== target) throw new Error('could not reach the target size');
    if (reorder)
      doc.events = doc.events.map((e) => Object.fromEntries(Object.entries(e).reverse()) as typeof e);
    return doc;
  }

  for (const reorder of [false, true]) {
    it(`passes at ${TRACE_MAX_BYTES} bytes and fails one byte over${reorder ? ' (properties reordered)' : ''}`, () => {
      const at = validate(traceOfSize(TRACE_MAX_BYTES, reorder));
      expect(at.ok ? [] : at.issues).toEqual([]);
      const over = validate(traceOfSize(TRACE_MAX_BYTES + 1, reorder));
      expect(over.ok ? [] : over.issues.map((i) => [i.code, i.path])).toEqual([
        ['TRACE_BOUNDS_EXCEEDED', ''],
      ]);
      expect(over.ok ? '' : over.issues[0]!.message).toContain(`${TRACE_MAX_BYTES + 1} bytes`);
    });
  }

  it('counts the trace fields of a closed trace, a prefix and long numbers as the whole JCS text does', () => {
    // The trace's own fields are counted from their types (the other rules complain about the
    // values; T1 reports the size, which must be the JCS text's).
    const edits: Array<(d: Record<string, unknown>) => void> = [
      (d) => {
        d.completedAt = '2026-11-30T06:00:59.123456789Z';
        d.status = 'interrupted';
      },
      (d) => {
        d.prefixDigest = 'ab'.repeat(32);
        d.sequenceBase = 9_007_199_254_740_991;
        d.droppedEvents = 1_000_000;
      },
      (d) => {
        d.sequence = 123_456_789_012;
        d.turnKey = 'k'.repeat(256);
      },
    ];
    for (const edit of edits) {
      const doc = traceOfSize(TRACE_MAX_BYTES + 1, false) as unknown as Record<string, unknown>;
      edit(doc);
      const size = jcsByteLength(doc);
      const r = validate(doc);
      const bounds = r.ok ? [] : r.issues.filter((i) => i.code === 'TRACE_BOUNDS_EXCEEDED');
      expect(bounds.map((i) => i.message.match(/the trace is (\d+) bytes/)?.[1])).toEqual([String(size)]);
    }
  });
});
