// @module-tag unit
import type { Fence } from '@agent-contracts/engines';
import { describe, expect, it } from 'vitest';
import {
  checkFencedInvariants,
  checkLinearizable,
  type DurableLogEntry,
  type HistoryEvent,
} from '../src/index.ts';

const T = 'task-1';
const f = (stateSequence: number, writerGeneration = 1): Fence => ({ stateSequence, writerGeneration });
const commit = (expected: Fence, next: Fence, digest: string) => ({ expected, next, digest });

/** Builders for one process's events. */
const p = (process: number | string) => ({
  invoke: (expected: Fence, next: Fence, digest: string): HistoryEvent => ({
    type: 'invoke',
    process,
    task: T,
    f: 'commit',
    value: commit(expected, next, digest),
  }),
  ok: (expected: Fence, next: Fence, digest: string): HistoryEvent => ({
    type: 'ok',
    process,
    task: T,
    f: 'commit',
    value: commit(expected, next, digest),
  }),
  fail: (expected: Fence, next: Fence, digest: string, current: Fence): HistoryEvent => ({
    type: 'fail',
    process,
    task: T,
    f: 'commit',
    value: { ...commit(expected, next, digest), current },
  }),
  info: (expected: Fence, next: Fence, digest: string): HistoryEvent => ({
    type: 'info',
    process,
    task: T,
    f: 'commit',
    value: commit(expected, next, digest),
  }),
  read: (): HistoryEvent => ({ type: 'invoke', process, task: T, f: 'read', value: null }),
  readOk: (fence: Fence, digest: string | null): HistoryEvent => ({
    type: 'ok',
    process,
    task: T,
    f: 'read',
    value: { fence, digest },
  }),
});
const [a, b, c] = [p(1), p(2), p(3)];
const log = (...entries: [number, number, string][]): Map<string, DurableLogEntry[]> =>
  new Map([
    [T, entries.map(([sequence, writerGeneration, digest]) => ({ sequence, writerGeneration, digest }))],
  ]);

// A correct concurrent history: a creates the task, then a and b race from (1, 1); b wins, a is
// refused with b's fence; c's commit from (2, 1) is in doubt (crash) and did take effect; a then
// reads the result.
const good: HistoryEvent[] = [
  a.invoke(f(0, 0), f(1), 'd1'),
  a.ok(f(0, 0), f(1), 'd1'),
  a.invoke(f(1), f(2), 'a2'),
  b.invoke(f(1), f(2), 'b2'),
  b.ok(f(1), f(2), 'b2'),
  a.fail(f(1), f(2), 'a2', f(2)),
  c.invoke(f(2), f(3, 2), 'c3'),
  c.info(f(2), f(3, 2), 'c3'),
  a.read(),
  a.readOk(f(3, 2), 'c3'),
];
const goodLog = log([1, 1, 'd1'], [2, 1, 'b2'], [3, 2, 'c3']);

describe('history checkers on a correct history', () => {
  it('accept concurrency, refusals and an in-doubt commit that applied', () => {
    expect(checkLinearizable(good).anomalies).toEqual([]);
    expect(checkFencedInvariants(good, goodLog).anomalies).toEqual([]);
  });

  it('accept an in-doubt commit that did not apply', () => {
    const h = good.slice(0, 8).concat([a.read(), a.readOk(f(2), 'b2')]);
    expect(checkLinearizable(h).ok).toBe(true);
    expect(checkFencedInvariants(h, log([1, 1, 'd1'], [2, 1, 'b2'])).ok).toBe(true);
  });

  it('accept a process killed mid-commit (no completion at all)', () => {
    const h = [...good.slice(0, 6), c.invoke(f(2), f(3, 2), 'c3')];
    expect(checkLinearizable(h).ok).toBe(true);
    expect(checkFencedInvariants(h, goodLog).ok).toBe(true);
  });
});

describe('history checkers reject broken histories', () => {
  it('lost update: two acknowledged commits from the same fence', () => {
    const h: HistoryEvent[] = [
      a.invoke(f(0, 0), f(1), 'd1'),
      a.ok(f(0, 0), f(1), 'd1'),
      a.invoke(f(1), f(2), 'a2'),
      b.invoke(f(1), f(2), 'b2'),
      a.ok(f(1), f(2), 'a2'),
      b.ok(f(1), f(2), 'b2'),
    ];
    expect(checkLinearizable(h).anomalies.map((x) => x.type)).toEqual(['not-linearizable']);
    const types = checkFencedInvariants(h, log([1, 1, 'd1'], [2, 1, 'b2'])).anomalies.map((x) => x.type);
    expect(types).toContain('lost-update');
    expect(types).toContain('acked-not-durable');
  });

  it('stale read: a read after an acknowledged commit returns the older fence', () => {
    const h: HistoryEvent[] = [
      a.invoke(f(0, 0), f(1), 'd1'),
      a.ok(f(0, 0), f(1), 'd1'),
      a.invoke(f(1), f(2), 'a2'),
      a.ok(f(1), f(2), 'a2'),
      b.read(),
      b.readOk(f(1), 'd1'),
    ];
    expect(checkLinearizable(h).ok).toBe(false);
    expect(checkFencedInvariants(h, log([1, 1, 'd1'], [2, 1, 'a2'])).anomalies.map((x) => x.type)).toEqual([
      'stale-read',
    ]);
  });

  it('a refusal that names the expected fence as current', () => {
    const h: HistoryEvent[] = [
      a.invoke(f(0, 0), f(1), 'd1'),
      a.ok(f(0, 0), f(1), 'd1'),
      b.invoke(f(1), f(2), 'b2'),
      b.fail(f(1), f(2), 'b2', f(1)),
    ];
    expect(checkLinearizable(h).ok).toBe(false);
    expect(checkFencedInvariants(h, log([1, 1, 'd1'])).anomalies.map((x) => x.type)).toEqual([
      'stale-refusal',
    ]);
  });

  it('an acknowledged commit missing from the durable log', () => {
    const h = good.slice(0, 6);
    expect(checkFencedInvariants(h, log([1, 1, 'd1'])).anomalies.map((x) => x.type)).toEqual([
      'acked-not-durable',
    ]);
  });

  it('durable entries no acknowledged commit explains, and gaps and generation jumps', () => {
    const h = good.slice(0, 2);
    const r = checkFencedInvariants(h, log([1, 1, 'd1'], [2, 1, 'zz'], [4, 3, 'yy']));
    expect(r.anomalies.map((x) => x.type).sort()).toEqual([
      'generation-jump',
      'log-gap',
      'phantom-write',
      'phantom-write',
    ]);
  });

  it('a commit refused to its caller that is nevertheless durable', () => {
    const h = good.slice(0, 6);
    const r = checkFencedInvariants(h, log([1, 1, 'd1'], [2, 1, 'a2']));
    expect(r.anomalies.map((x) => x.type).sort()).toEqual(['acked-not-durable', 'unacked-durable']);
  });

  it('real-time order: a later commit with a lower sequence', () => {
    const h: HistoryEvent[] = [
      a.invoke(f(0, 0), f(1), 'd1'),
      a.ok(f(0, 0), f(1), 'd1'),
      a.invoke(f(2), f(3), 'a3'),
      a.ok(f(2), f(3), 'a3'),
      b.invoke(f(1), f(2), 'b2'),
      b.ok(f(1), f(2), 'b2'),
    ];
    expect(checkLinearizable(h).ok).toBe(false);
    expect(
      checkFencedInvariants(h, log([1, 1, 'd1'], [2, 1, 'b2'], [3, 1, 'a3'])).anomalies.map((x) => x.type),
    ).toEqual(['real-time-order']);
  });

  it('malformed: a crashed process that invokes again', () => {
    const h = [...good.slice(0, 8), c.invoke(f(3, 2), f(4, 2), 'c4')];
    expect(checkFencedInvariants(h, goodLog).anomalies.map((x) => x.type)).toContain('malformed-history');
  });
});

describe('linearizability search scales to a race-test-sized history', () => {
  it('accepts 40 rounds of 8 racing writers and rejects the same history with one lost update', () => {
    const h: HistoryEvent[] = [a.invoke(f(0, 0), f(1), 'd1'), a.ok(f(0, 0), f(1), 'd1')];
    let seq = 1;
    for (let round = 0; round < 40; round++) {
      const procs = Array.from({ length: 8 }, (_, i) => p(`r${round}w${i}`));
      const from = f(seq);
      for (const [i, q] of procs.entries()) h.push(q.invoke(from, f(seq + 1), `r${round}w${i}`));
      const winner = round % 8;
      h.push(procs[winner]!.ok(from, f(seq + 1), `r${round}w${winner}`));
      for (const [i, q] of procs.entries())
        if (i !== winner) h.push(q.fail(from, f(seq + 1), `r${round}w${i}`, f(seq + 1)));
      seq++;
    }
    expect(checkLinearizable(h).ok).toBe(true);
    const broken = h.map((e) =>
      e.type === 'fail' && e.process === 'r20w3' ? { ...e, type: 'ok' as const } : e,
    );
    expect(checkLinearizable(broken as HistoryEvent[]).ok).toBe(false);
  });
});
