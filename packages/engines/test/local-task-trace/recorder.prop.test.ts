// @module-tag unit
// Model-based test of the trace recorder: random command sequences (append valid, duplicate,
// out-of-order, earlier observedAt, after terminal, bursts that overflow both bounds, close,
// next turn, replay) against a small model, with the trace invariants checked after every command.
import { digestOf } from '@agent-contracts/digest';
import {
  foldPrefixDigest,
  jcsByteLength,
  type LocalTaskTraceEvent,
  type LocalTaskTraceTerminalResult,
  type LocalTaskTraceV1,
  TRACE_MAX_BYTES,
  TRACE_MAX_EVENTS,
  traceEventIdOf,
} from '@agent-contracts/schemas';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.ts';
import {
  LocalTaskTraceRecorder,
  type TraceAppendResult,
  traceInstantKey,
  traceVerdict,
} from '../../src/local-task-trace/index.ts';

interface Model {
  turn: number;
  status: 'open' | LocalTaskTraceTerminalResult;
  /** Every event appended in the current turn, as written, oldest first. */
  all: LocalTaskTraceEvent[];
  dropped: number;
  prefix: string | null;
  nextKey: number;
}
interface Real {
  recorder: LocalTaskTraceRecorder;
  clock: ManualClock;
}

/** How often each bound made the recorder drop, so the test shows it exercised both. */
const stats = { countDrops: 0, byteDrops: 0 };

const START = Date.parse('2026-11-30T05:53:08.114Z');
const PAIRS: Array<[string, string]> = [
  ['UserPromptSubmit', 'observed'],
  ['PreToolUse', 'observed'],
  ['PostToolUse', 'observed'],
  ['ToolLeaseStarted', 'allowed'],
  ['ToolLeaseCompleted', 'success'],
  ['ToolLeaseCompleted', 'error'],
  ['ToolLeaseResultDeferred', 'duplicate'],
  ['UnknownHostEvent', 'observed'],
];
const SIZES = { small: 0, medium: 900, large: 7_600 } as const;
type Size = keyof typeof SIZES;
const payloadOf = (size: Size, n: number) => (SIZES[size] ? { n, blob: 'p'.repeat(SIZES[size]) } : { n });

function current(r: Real): LocalTaskTraceV1 {
  const t = r.recorder.trace;
  if (!t) throw new Error('no trace');
  return t;
}

/** The invariants of the page, checked against the model after every command. */
function checkInvariants(m: Model, r: Real): void {
  const t = current(r);
  expect(traceVerdict(t).violations).toEqual([]);
  expect(t.turnKey).toBe(`turn-${m.turn}`);
  expect(t.status).toBe(m.status);
  expect(t.sequence).toBe(m.all.length);
  expect(t.sequenceBase).toBe(m.dropped);
  expect(t.droppedEvents).toBe(m.dropped);
  expect(t.prefixDigest).toBe(m.prefix);
  expect(t.events).toEqual(m.all.slice(m.dropped));
  expect(t.events.length).toBeLessThanOrEqual(TRACE_MAX_EVENTS);
  expect(jcsByteLength(t)).toBeLessThanOrEqual(TRACE_MAX_BYTES);
  expect(t.completedAt).toBe(m.status === 'open' ? null : m.all.at(-1)!.observedAt);
}

/** Record an accepted append in the model: the new event, and the drops (monotonic and minimal). */
function recordAccepted(
  m: Model,
  r: Real,
  result: TraceAppendResult,
  expected: {
    type: string;
    result: string;
    occurrenceKey: string;
    floor: string;
    reading: string | undefined;
  },
): void {
  if (!result.ok) expect.fail(`refused ${result.code} at ${result.step}: ${result.message}`);
  const t = current(r);
  const e = result.event;
  expect(e).toMatchObject({
    eventId: traceEventIdOf(t.traceId, expected.type, expected.occurrenceKey),
    sequence: m.all.length + 1,
    type: expected.type,
    result: expected.result,
  });
  if (expected.reading !== undefined) {
    const clamped = traceInstantKey(expected.reading) < traceInstantKey(expected.floor);
    expect(e.observedAt).toBe(clamped ? expected.floor : expected.reading);
  }
  m.all.push(e);
  const newlyDropped = t.droppedEvents - m.dropped;
  expect(newlyDropped).toBeGreaterThanOrEqual(0);
  expect(result.dropped).toEqual(m.all.slice(m.dropped, t.droppedEvents));
  for (const d of result.dropped) m.prefix = foldPrefixDigest(m.prefix, d);
  m.dropped = t.droppedEvents;
  if (newlyDropped > 0) {
    // minimal: keeping the last dropped event would have broken a bound
    const last = m.all[m.dropped - 1]!;
    const kept = {
      ...t,
      sequenceBase: m.dropped - 1,
      droppedEvents: m.dropped - 1,
      events: [last, ...t.events],
    };
    const byCount = kept.events.length > TRACE_MAX_EVENTS;
    expect(byCount || jcsByteLength(kept) > TRACE_MAX_BYTES).toBe(true);
    if (byCount) stats.countDrops += 1;
    else stats.byteDrops += 1;
  }
  if (expected.type === 'TurnTerminal') m.status = expected.result as LocalTaskTraceTerminalResult;
}

const timestamp = (ms: number) => new Date(ms).toISOString();

function appendNew(m: Model, r: Real, pair: [string, string], size: Size, stepMs: number): void {
  r.clock.advance(stepMs);
  const before = current(r);
  const occurrenceKey = `key-${m.nextKey++}`;
  const floor = before.events.at(-1)?.observedAt ?? before.openedAt;
  const res = r.recorder.append({
    type: pair[0],
    result: pair[1],
    occurrenceKey,
    payload: payloadOf(size, m.nextKey),
  });
  if (m.status !== 'open') {
    expect(res).toMatchObject({ ok: false, code: 'TRACE_TERMINAL_INVALID', step: 'A3' });
    expect(current(r)).toBe(before);
    return;
  }
  recordAccepted(m, r, res, {
    type: pair[0],
    result: pair[1],
    occurrenceKey,
    floor,
    reading: timestamp(r.clock.now()),
  });
}

class AppendNew implements fc.Command<Model, Real> {
  constructor(
    readonly pair: [string, string],
    readonly size: Size,
    readonly stepMs: number,
  ) {}
  check = () => true;
  run(m: Model, r: Real): void {
    appendNew(m, r, this.pair, this.size, this.stepMs);
    checkInvariants(m, r);
  }
  toString = () => `append(${this.pair.join('/')}, ${this.size}, ${this.stepMs}ms)`;
}

class Burst implements fc.Command<Model, Real> {
  constructor(
    readonly count: number,
    readonly size: Size,
  ) {}
  check = (m: Readonly<Model>) => m.status === 'open';
  run(m: Model, r: Real): void {
    for (let i = 0; i < this.count; i++) appendNew(m, r, PAIRS[i % PAIRS.length]!, this.size, 3);
    checkInvariants(m, r);
  }
  toString = () => `burst(${this.count}, ${this.size})`;
}

class AppendDuplicate implements fc.Command<Model, Real> {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) => m.all.length > m.dropped;
  run(m: Model, r: Real): void {
    const before = current(r);
    const e = before.events[this.pick % before.events.length]!;
    const res = r.recorder.append({
      type: e.type,
      result: e.result,
      occurrenceKey: e.occurrenceKey,
      payload: { again: true },
    });
    expect(res).toMatchObject(
      m.status === 'open'
        ? { ok: false, code: 'TRACE_DUPLICATE_EVENT', step: 'A7', eventId: e.eventId }
        : { ok: false, code: 'TRACE_TERMINAL_INVALID', step: 'A3' },
    );
    expect(current(r)).toBe(before);
    checkInvariants(m, r);
  }
  toString = () => `duplicate(${this.pick})`;
}

class AppendOutOfOrder implements fc.Command<Model, Real> {
  constructor(readonly offset: number) {}
  check = () => true;
  run(m: Model, r: Real): void {
    const before = current(r);
    const res = r.recorder.append({
      type: 'PreToolUse',
      result: 'observed',
      occurrenceKey: `ooo-${m.nextKey++}`,
      payload: {},
      expectedSequence: before.sequence + this.offset,
    });
    expect(res).toMatchObject({
      ok: false,
      code: m.status === 'open' ? 'TRACE_SEQUENCE_INVALID' : 'TRACE_TERMINAL_INVALID',
    });
    expect(current(r)).toBe(before);
    checkInvariants(m, r);
  }
  toString = () => `outOfOrder(${this.offset})`;
}

class AppendEarlier implements fc.Command<Model, Real> {
  constructor(readonly backMs: number) {}
  check = () => true;
  run(m: Model, r: Real): void {
    const before = current(r);
    const floor = before.events.at(-1)?.observedAt ?? before.openedAt;
    const res = r.recorder.append({
      type: 'Stop',
      result: 'observed',
      occurrenceKey: `early-${m.nextKey++}`,
      payload: {},
      observedAt: timestamp(Date.parse(floor) - this.backMs),
    });
    expect(res).toMatchObject({
      ok: false,
      code: m.status === 'open' ? 'TRACE_SEQUENCE_INVALID' : 'TRACE_TERMINAL_INVALID',
    });
    expect(current(r)).toBe(before);
    checkInvariants(m, r);
  }
  toString = () => `earlier(${this.backMs}ms)`;
}

class Close implements fc.Command<Model, Real> {
  constructor(readonly result: LocalTaskTraceTerminalResult) {}
  check = () => true;
  run(m: Model, r: Real): void {
    r.clock.advance(7);
    const before = current(r);
    const floor = before.events.at(-1)?.observedAt ?? before.openedAt;
    const res = r.recorder.close(this.result, 'host-stop');
    if (m.status !== 'open') {
      expect(res).toMatchObject({ ok: false, code: 'TRACE_TERMINAL_INVALID', step: 'A3' });
      expect(current(r)).toBe(before);
    } else {
      recordAccepted(m, r, res, {
        type: 'TurnTerminal',
        result: this.result,
        occurrenceKey: 'turn-terminal',
        floor,
        reading: timestamp(r.clock.now()),
      });
    }
    checkInvariants(m, r);
  }
  toString = () => `close(${this.result})`;
}

class NextTurn implements fc.Command<Model, Real> {
  check = () => true;
  run(m: Model, r: Real): void {
    r.clock.advance(1_000);
    const wasOpen = m.status === 'open';
    const res = r.recorder.open({ turnKey: `turn-${m.turn + 1}` });
    if (!res.ok) expect.fail(res.message);
    const previous = res.previous as LocalTaskTraceV1;
    expect(traceVerdict(previous).violations).toEqual([]);
    expect(previous.status).toBe(wasOpen ? 'interrupted' : m.status);
    if (wasOpen) expect(previous.sequence).toBe(m.all.length + 1);
    Object.assign(m, { turn: m.turn + 1, status: 'open', all: [], dropped: 0, prefix: null });
    checkInvariants(m, r);
  }
  toString = () => 'nextTurn';
}

class Replay implements fc.Command<Model, Real> {
  check = () => true;
  run(m: Model, r: Real): void {
    const before = current(r);
    const bytes = JSON.stringify(before);
    const replay = r.recorder.replay();
    expect(replay).toMatchObject({
      ok: true,
      violations: [],
      traceDigest: digestOf(before),
      sequence: m.all.length,
    });
    expect(Object.values(replay.capabilityBoundary)).toEqual([true, false, false, false, false]);
    expect(current(r)).toBe(before);
    expect(JSON.stringify(before)).toBe(bytes);
    checkInvariants(m, r);
  }
  toString = () => 'replay';
}

const commands = [
  fc
    .tuple(
      fc.constantFrom(...PAIRS),
      fc.constantFrom<Size>('small', 'small', 'medium', 'large'),
      fc.integer({ min: -5_000, max: 60_000 }),
    )
    .map(([p, s, ms]) => new AppendNew(p, s, ms)),
  fc
    .tuple(fc.integer({ min: 1, max: 150 }), fc.constantFrom<Size>('small', 'small', 'medium', 'large'))
    .map(([n, s]) => new Burst(n, s)),
  fc.nat(200).map((i) => new AppendDuplicate(i)),
  fc
    .oneof(fc.integer({ min: -5, max: 0 }), fc.integer({ min: 2, max: 5 }))
    .map((o) => new AppendOutOfOrder(o)),
  fc.integer({ min: 1, max: 100_000 }).map((ms) => new AppendEarlier(ms)),
  fc.constantFrom<LocalTaskTraceTerminalResult>('complete', 'failed', 'interrupted').map((x) => new Close(x)),
  fc.constant(new NextTurn()),
  fc.constant(new Replay()),
];

describe('LocalTaskTrace recorder against a model', () => {
  it('keeps every invariant after every command', () => {
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 40 }), (cmds) => {
        const clock = new ManualClock(START);
        const recorder = new LocalTaskTraceRecorder(clock);
        const opened = recorder.open({ turnKey: 'turn-0' });
        expect(opened.ok).toBe(true);
        const model: Model = { turn: 0, status: 'open', all: [], dropped: 0, prefix: null, nextKey: 0 };
        fc.modelRun(() => ({ model, real: { recorder, clock } }), cmds);
      }),
      {
        numRuns: 60,
        // Random sequences reach a bound only now and then; these two always run first, so both
        // bounds are exercised on every run (a 150-event burst of small events breaks the count
        // bound, 30 large events the byte bound).
        examples: [
          [[new Burst(150, 'small'), new Close('complete')]],
          [[new Burst(30, 'large'), new Replay()]],
        ],
      },
    );
    expect(stats.countDrops).toBeGreaterThan(0);
    expect(stats.byteDrops).toBeGreaterThan(0);
  });
});
