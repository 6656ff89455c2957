// @module-tag unit
// The classification table and its conformance boundary vectors
// (docs/spec/turn-liveness-recovery-gate.md#classification).
import { digestOf } from '@agent-contracts/digest';
import { describe, expect, it } from 'vitest';
import { classify, classifyAt, ManualClock } from '../../src/index.ts';
import { bare, iso, post, pre, prompt, run, T0 } from './helpers.ts';

const T = T0 + 2000;
const awaiting = run([prompt(T0), pre(T0 + 1000, 'op1'), post(T, 'op1')]).state;
const leased = run([prompt(T0), pre(T, 'op2')]).state;
const agent = run([prompt(T)]).state;

describe('classification boundary vectors (default thresholds)', () => {
  const rows: Array<[string, typeof awaiting, number, string, string]> = [
    ['awaiting', awaiting, T + 119_999, 'awaiting-continuation', 'within-grace'],
    ['awaiting', awaiting, T + 120_000, 'suspect', 'continuation-grace-expired'],
    ['awaiting', awaiting, T + 299_999, 'suspect', 'continuation-grace-expired'],
    ['awaiting', awaiting, T + 300_000, 'stalled-recoverable', 'continuation-timeout'],
    ['lease', leased, T + 1_200_000, 'running', 'active-operation-lease'],
    ['lease', leased, T + 1_799_999, 'running', 'active-operation-lease'],
    ['lease', leased, T + 1_800_000, 'suspect', 'operation-lease-expired'],
    ['lease', leased, T + 2_099_999, 'suspect', 'operation-lease-expired'],
    ['lease', leased, T + 2_100_000, 'stalled-recoverable', 'operation-lease-expired'],
    ['running', agent, T + 1_799_999, 'running', 'agent-turn-within-lease'],
    ['running', agent, T + 1_800_000, 'suspect', 'agent-turn-lease-expired'],
    ['running', agent, T + 2_099_999, 'suspect', 'agent-turn-lease-expired'],
    ['running', agent, T + 2_100_000, 'stalled-recoverable', 'agent-turn-lease-expired'],
    ['awaiting', awaiting, T - 5000, 'awaiting-continuation', 'within-grace'],
  ];
  for (const [setup, state, now, classification, reason] of rows) {
    it(`${setup} at T${now - T >= 0 ? '+' : ''}${now - T} -> ${classification} / ${reason}`, () => {
      const before = digestOf(state);
      const c = classify(state, new ManualClock(now));
      expect([c.classification, c.reason]).toEqual([classification, reason]);
      expect(digestOf(state)).toBe(before);
    });
  }

  it('reference times: lastToolOutputAt, leaseExpiresAt, lastEventAt; age clamped at 0', () => {
    expect(classifyAt(awaiting, T + 5)).toMatchObject({ referenceAt: iso(T), ageMs: 5 });
    expect(classifyAt(awaiting, T - 5000)).toMatchObject({ referenceAt: iso(T), ageMs: 0 });
    expect(classifyAt(leased, T + 1_800_007)).toMatchObject({ referenceAt: iso(T + 1_800_000), ageMs: 7 });
    expect(classifyAt(leased, T)).toMatchObject({ referenceAt: iso(T + 1_800_000), ageMs: 0 });
    expect(classifyAt(agent, T + 9)).toMatchObject({ referenceAt: iso(T), ageMs: 9 });
  });

  it('a running turn with an acknowledgement is judged from lastEventAt, not the older tool output', () => {
    const acked = run([
      prompt(T0),
      pre(T0 + 1, 'op1'),
      post(T0 + 2, 'op1'),
      bare('UnknownHostEvent', T),
    ]).state;
    expect(classifyAt(acked, T + 1_799_999).classification).toBe('running');
  });

  it('idle and terminal states have no reference time', () => {
    const idle = run([]).state;
    expect(classifyAt(idle, T)).toEqual({
      classification: 'idle',
      reason: 'idle',
      referenceAt: null,
      ageMs: null,
    });
    for (const [type, status] of [
      ['Stop', 'completed'],
      ['TurnError', 'error'],
      ['TurnInterrupted', 'interrupted'],
    ] as const) {
      const done = run([prompt(T0), bare(type, T)]).state;
      expect(classifyAt(done, T + 10 * 3_600_000)).toEqual({
        classification: status,
        reason: 'terminal-state',
        referenceAt: null,
        ageMs: null,
      });
    }
  });

  it('custom thresholds move the boundaries', () => {
    const custom = {
      ...awaiting,
      thresholds: { suspectAfterMs: 1000, stalledAfterMs: 1000, operationLeaseMs: 5000 },
    };
    expect(classifyAt(custom, T + 999).classification).toBe('awaiting-continuation');
    expect(classifyAt(custom, T + 1000).classification).toBe('stalled-recoverable');
  });
});
