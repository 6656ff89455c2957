// @module-tag unit
// The one walk over a trace (rules/local-task-trace-walk.ts) may only say "clean" when every
// digest rule and every semantic rule of LocalTaskTraceV1 reports nothing: validate() skips them
// then. Held here to the rules' own answers (validate with a copy of the registry, which never
// takes the walk) on every trace fixture, on traces from the engines' recorder, on one-rule edits
// of them and on random edits.
import { appendToTrace, closeTrace, ManualClock, openTrace } from '@agent-contracts/engines';
import {
  DIGEST_RULES,
  getSchema,
  TRACE_RESULTS_BY_TYPE,
  traceEventIdOf,
  traceIdOf,
} from '@agent-contracts/schemas';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { STRUCTURAL_VALIDATORS } from '../../src/generated/structural.generated.ts';
import { SEMANTIC_RULES, validate } from '../../src/index.ts';
import { CLEAN_WALKS } from '../../src/rules/index.ts';
import { TRACE_WALK_COVERS, traceIsClean } from '../../src/rules/local-task-trace-walk.ts';
import { listFixtures } from '../helpers.ts';

type Json = Record<string, unknown>;
type Trace = Json & { events: Json[] };

const CONTRACT = 'LocalTaskTraceV1';
const structural = STRUCTURAL_VALIDATORS[CONTRACT]!;
// A copy of the registry: validate() takes the walk only for the registry itself.
const RULES_THEMSELVES = { rules: [...SEMANTIC_RULES] };

function recorded(events: number, payload: (i: number) => Json = () => ({ toolName: 'read_file' })): Trace {
  const clock = new ManualClock(Date.parse('2026-11-30T06:00:00.000Z'));
  const opened = openTrace(null, { turnKey: '019378e4-5d2a-7c31-9b6e-0f4a8d2c1e57' }, clock);
  if (!opened.ok) throw new Error(opened.message);
  let t: unknown = opened.trace;
  for (let i = 0; i < events - 1; i++) {
    clock.advance(250);
    const r = appendToTrace(
      t,
      {
        type: i % 2 ? 'PostToolUse' : 'PreToolUse',
        result: 'observed',
        occurrenceKey: `tool-call-${i >> 1}-${i % 2 ? 'post' : 'pre'}`,
        payload: payload(i),
      },
      clock,
    );
    if (!r.ok) throw new Error(r.message);
    t = r.trace;
  }
  clock.advance(250);
  const closed = closeTrace(t, 'complete', 'host-stop', clock);
  if (!closed.ok) throw new Error(closed.message);
  return structuredClone(closed.trace) as unknown as Trace; // the recorder freezes its traces
}

/** The trace with its traceId and every eventId derived again (so that an edit breaks only its rule). */
function restamp(t: Trace): Trace {
  const out = structuredClone(t);
  if (typeof out.turnKey === 'string' && typeof out.openedAt === 'string')
    out.traceId = traceIdOf(out.turnKey, out.openedAt);
  for (const e of out.events)
    if (typeof e.type === 'string' && typeof e.occurrenceKey === 'string')
      e.eventId = traceEventIdOf(out.traceId as string, e.type, e.occurrenceKey);
  return out;
}

const tally = { clean: 0, refused: 0, issues: 0 };

/**
 * For a structurally valid trace: validate() answers exactly as the rules themselves do, and a
 * clean walk means the rules report nothing. Returns the walk's answer (null when not valid).
 */
function judge(doc: unknown, what = ''): boolean | null {
  if (!structural(doc)) return null;
  const clean = traceIsClean(doc);
  const themselves = validate(doc, RULES_THEMSELVES);
  expect(validate(doc), what).toEqual(themselves);
  if (clean) expect(themselves, what).toEqual({ ok: true, contract: CONTRACT, value: doc, warnings: [] });
  if (clean) tally.clean++;
  else tally.refused++;
  if (!themselves.ok) tally.issues++;
  return clean;
}

/** Edits that each break one rule of the trace (or none, for the mixed precisions). */
const EDITS: ReadonlyArray<[string, (t: Trace) => void]> = [
  [
    'T6 sequence',
    (t) => {
      (t.sequence as number) += 1;
    },
  ],
  [
    'T5 event sequence',
    (t) => {
      (t.events[1]!.sequence as number) += 1;
    },
  ],
  [
    'T7 observedAt earlier',
    (t) => {
      t.events[1]!.observedAt = '2026-11-30T05:00:00.000Z';
    },
  ],
  [
    'T7 observedAt earlier than openedAt',
    (t) => {
      t.events[0]!.observedAt = '2026-11-29T06:00:00.000Z';
    },
  ],
  [
    'T7 same instant, other precision',
    (t) => {
      t.events[0]!.observedAt = '2026-11-30T06:00:00.25Z';
    },
  ],
  [
    'T7 later, other precision',
    (t) => {
      t.openedAt = '2026-11-30T06:00:00Z';
    },
  ],
  // Earlier as an instant, later as a string.
  [
    'T7 earlier, other precision',
    (t) => {
      t.events.forEach((e, k) => {
        if (k > 0) e.observedAt = `2026-11-30T06:00:${String(k - 1).padStart(2, '0')}Z`;
      });
      t.completedAt = t.events.at(-1)!.observedAt;
    },
  ],
  [
    'T9 terminal result on a tool event',
    (t) => {
      t.events[0]!.result = 'complete';
    },
  ],
  [
    'T10 result not allowed',
    (t) => {
      t.events[0]!.result = 'allowed';
    },
  ],
  [
    'T11 TurnTerminal in the middle',
    (t) => {
      t.events[0]!.type = 'TurnTerminal';
      t.events[0]!.result = 'complete';
    },
  ],
  [
    'T12 open with completedAt',
    (t) => {
      t.status = 'open';
    },
  ],
  [
    'T12 open without a TurnTerminal but with completedAt',
    (t) => {
      t.events.pop();
      (t.sequence as number) -= 1;
      t.status = 'open';
    },
  ],
  [
    'open without a TurnTerminal',
    (t) => {
      t.events.pop();
      (t.sequence as number) -= 1;
      t.status = 'open';
      t.completedAt = null;
    },
  ],
  [
    'T12 open with a TurnTerminal',
    (t) => {
      t.status = 'open';
      t.completedAt = null;
    },
  ],
  [
    'T13 status differs from the terminal result',
    (t) => {
      t.status = 'failed';
    },
  ],
  [
    'T13 completedAt differs',
    (t) => {
      t.completedAt = '2026-12-01T00:00:00.000Z';
    },
  ],
  ['T13 no terminal event', (t) => void t.events.pop()],
  [
    'T8 repeated eventId',
    (t) => {
      t.events[1]!.eventId = t.events[0]!.eventId;
    },
  ],
  [
    'T8 repeated occurrence',
    (t) => {
      t.events[1]!.occurrenceKey = t.events[0]!.occurrenceKey;
    },
  ],
  [
    'T2 payload too large',
    (t) => {
      t.events[0]!.payload = { data: 'x'.repeat(8200) };
    },
  ],
  [
    'T2 payload at the bound',
    (t) => {
      t.events[0]!.payload = { data: 'x'.repeat(8192 - 11) };
    },
  ],
  [
    'T1 trace too large',
    (t) => {
      for (const e of t.events) e.payload = { data: 'x'.repeat(8000) };
    },
  ],
  [
    'payload not ASCII',
    (t) => {
      t.events[0]!.payload = { note: 'caf\u00e9 \u2603', n: [1.5, -0, 1e21] };
    },
  ],
  [
    'payload nested',
    (t) => {
      t.events[0]!.payload = { a: { b: { c: [null, true, false, {}] } } };
    },
  ],
  [
    'T14 droppedEvents',
    (t) => {
      (t.droppedEvents as number) += 1;
    },
  ],
  [
    'T15 dropped without prefixDigest',
    (t) => {
      (t.droppedEvents as number) += 1;
      (t.sequenceBase as number) += 1;
      (t.sequence as number) += 1;
      for (const e of t.events) (e.sequence as number) += 1;
    },
  ],
  [
    'dropped with a prefixDigest',
    (t) => {
      (t.droppedEvents as number) += 1;
      (t.sequenceBase as number) += 1;
      (t.sequence as number) += 1;
      for (const e of t.events) (e.sequence as number) += 1;
      t.prefixDigest = 'a'.repeat(64);
    },
  ],
  [
    'prefixDigest with nothing dropped',
    (t) => {
      t.prefixDigest = 'a'.repeat(64);
    },
  ],
  [
    'traceId',
    (t) => {
      t.traceId = `trace-${'0'.repeat(24)}`;
    },
  ],
  [
    'turnKey',
    (t) => {
      t.turnKey = 'another-turn';
    },
  ],
  [
    'eventId',
    (t) => {
      t.events[0]!.eventId = `event-${'0'.repeat(24)}`;
    },
  ],
  [
    'event type',
    (t) => {
      t.events[0]!.type = 'PostToolUse';
    },
  ],
  [
    'occurrenceKey',
    (t) => {
      t.events[0]!.occurrenceKey = 'another-occurrence';
    },
  ],
];

const fixtures = listFixtures().filter((f) => f.contract === CONTRACT);

describe('the one walk over a trace', () => {
  it('stands for exactly the digest rules and semantic rules of LocalTaskTraceV1', () => {
    expect(CLEAN_WALKS.get(CONTRACT)).toBe(traceIsClean);
    expect(DIGEST_RULES.filter((r) => r.contract === CONTRACT).map((r) => r.pointer)).toEqual(
      TRACE_WALK_COVERS.digests,
    );
    expect(SEMANTIC_RULES.filter((r) => r.contract === CONTRACT).map((r) => r.code)).toEqual(
      TRACE_WALK_COVERS.rules,
    );
  });

  it("relies on the result vocabulary for T9: only TurnTerminal's results are terminal", () => {
    const terminal = TRACE_RESULTS_BY_TYPE.TurnTerminal as readonly string[];
    expect(terminal).toEqual(['complete', 'failed', 'interrupted']);
    for (const [type, results] of Object.entries(TRACE_RESULTS_BY_TYPE))
      if (type !== 'TurnTerminal') for (const r of results) expect(terminal).not.toContain(r);
  });

  it('relies on schema patterns whose strings are their own JCS text between quotes', () => {
    // The walk writes the traceId input from turnKey and openedAt, and the eventId input from
    // occurrenceKey, traceId and type, without escaping.
    const schema = getSchema(CONTRACT) as {
      properties: Record<string, Json> & { events: { items: { properties: Record<string, Json> } } };
    };
    const event = schema.properties.events.items.properties;
    // openedAt: the date-time format, whose check (formats.ts) admits digits and -T:.Z alone.
    expect(schema.properties.openedAt!.format).toBe('date-time');
    const verbatim = (s: string) => JSON.stringify(s) === `"${s}"` && /^[\x20-\x7e]*$/.test(s);
    const patterns = [event.occurrenceKey!, schema.properties.turnKey!, schema.properties.traceId!].map(
      (p) => p.pattern as string,
    );
    for (const pattern of patterns) {
      const regex = new RegExp(pattern, 'u');
      expect(pattern.startsWith('^') && pattern.endsWith('$')).toBe(true);
      const accepted: string[] = [];
      for (let c = 0; c < 0x10000; c++) {
        const ch = String.fromCharCode(c);
        // Every position of these patterns after the first is one character class.
        for (const s of ['a', 'trace-0123456789abcdef0123456'])
          if (regex.test(s + ch)) {
            accepted.push(ch);
            expect(verbatim(ch), `${pattern} accepts U+${c.toString(16)}`).toBe(true);
          }
      }
      expect(accepted.length).toBeGreaterThan(0);
    }
    for (const type of event.type!.enum as string[]) expect(verbatim(type)).toBe(true);
  });

  it('answers as the rules on every trace fixture, and is clean on the valid ones', () => {
    expect(fixtures.length).toBeGreaterThan(10);
    for (const f of fixtures) {
      const clean = judge(f.document, f.name);
      if (f.kind === 'valid') expect(clean, f.name).toBe(true);
    }
  });

  it("is clean on the recorder's traces of 1, 2, 16 and 128 events", () => {
    for (const n of [1, 2, 16, 128]) expect(judge(recorded(n), `${n} events`)).toBe(true);
  });

  for (const [name, edit] of EDITS) {
    it(`answers as the rules after the edit "${name}", with and without the ids derived again`, () => {
      for (const n of [2, 3, 12]) {
        const t = recorded(n);
        edit(t);
        judge(t, `${name}, ${n} events`);
        judge(restamp(t), `${name}, ${n} events, restamped`);
      }
    });
  }

  it('answers as the rules on random edits of recorded traces', () => {
    const fields = ['sequence', 'observedAt', 'type', 'result', 'occurrenceKey', 'eventId', 'payload'];
    const top = [
      'sequence',
      'sequenceBase',
      'droppedEvents',
      'status',
      'completedAt',
      'openedAt',
      'prefixDigest',
    ];
    const value = fc.constantFrom<unknown>(
      0,
      1,
      2,
      3,
      null,
      'open',
      'complete',
      'failed',
      'observed',
      'allowed',
      'success',
      'TurnTerminal',
      'PreToolUse',
      'ToolLeaseCompleted',
      'k-1',
      '2026-11-30T06:00:00.250Z',
      '2026-11-30T06:00:00.5Z',
      '2026-11-30T06:00:01Z',
      'a'.repeat(64),
      `event-${'1'.repeat(24)}`,
      {},
      { big: 'y'.repeat(8190) },
    );
    const edit = fc.oneof(
      fc.tuple(fc.constant('event'), fc.nat(), fc.constantFrom(...fields), value),
      fc.tuple(fc.constant('trace'), fc.nat(), fc.constantFrom(...top), value),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.array(edit, { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        (n, edits, again) => {
          const t = recorded(n);
          for (const [where, i, key, v] of edits) {
            const target = where === 'event' ? t.events[i % t.events.length]! : t;
            target[key] = structuredClone(v);
          }
          judge(again ? restamp(t) : t);
        },
      ),
      { numRuns: 400, seed: 0x2525 },
    );
    // Both answers occur among structurally valid traces, so the comparison is not vacuous.
    expect(tally.clean).toBeGreaterThan(0);
    expect(tally.refused).toBeGreaterThan(0);
    expect(tally.issues).toBeGreaterThan(0);
  });
});
