// @module-tag unit
// Edges of the turn-liveness engine (docs/spec/turn-liveness-recovery-gate.md): threshold
// normalisation of 0 and non-finite values, the stale classifications, when a notice is due,
// rehydration of what is not a state, the watchdog on a running turn, the 256-character key
// limit, the lease of a request that is no tool call, the 20 target paths of a lease, and the
// stored spelling of an instant an event does not move past.
import { describe, expect, it } from 'vitest';
import {
  applyTurnEvent,
  DEFAULT_TURN_THRESHOLDS,
  dueNoticeKey,
  isStale,
  type LeaseRequest,
  ManualClock,
  normaliseThresholds,
  noticeKeyOf,
  rehydrateTurnState,
  requestLease,
  type StaleClassification,
  watchdogCheck,
} from '../../src/index.ts';
import { bare, iso, pre, prompt, run, settled, T0 } from './helpers.ts';

describe('normaliseThresholds', () => {
  it('replaces 0, NaN and infinite values with the defaults', () => {
    expect(normaliseThresholds({ suspectAfterMs: 0 }).suspectAfterMs).toBe(120_000);
    expect(normaliseThresholds({ stalledAfterMs: Number.NaN }).stalledAfterMs).toBe(300_000);
    expect(normaliseThresholds({ operationLeaseMs: Number.POSITIVE_INFINITY }).operationLeaseMs).toBe(
      1_800_000,
    );
    expect(normaliseThresholds({})).toEqual(DEFAULT_TURN_THRESHOLDS);
  });
});

describe('isStale', () => {
  it('is true for suspect and stalled-recoverable only', () => {
    expect(isStale('suspect')).toBe(true);
    expect(isStale('stalled-recoverable')).toBe(true);
    for (const c of ['running', 'awaiting-continuation', 'idle', 'completed'] as const)
      expect(isStale(c)).toBe(false);
  });
});

describe('dueNoticeKey', () => {
  const referenceAt = iso(T0);
  const suspect: StaleClassification = {
    classification: 'suspect',
    reason: 'operation-lease-expired',
    referenceAt,
    ageMs: 1000,
  };
  it('a lease already reported stalled for the same instant is not reported suspect again', () => {
    const stalledKey = noticeKeyOf('req_1', {
      ...suspect,
      classification: 'stalled-recoverable',
      ageMs: 300_000,
    });
    expect(dueNoticeKey('req_1', stalledKey, suspect)).toBeNull();
  });
  it('a suspect turn whose recorded key is of another episode gets its own key', () => {
    const other = noticeKeyOf('req_1', { ...suspect, referenceAt: iso(T0 - 600_000) });
    expect(dueNoticeKey('req_1', other, suspect)).toBe(noticeKeyOf('req_1', suspect));
  });
});

describe('rehydrateTurnState: what is not a state', () => {
  const never = () => {
    throw new Error('the check must not be called');
  };
  it('refuses null, another schema and a function with no issues, without calling the check', () => {
    for (const doc of [
      null,
      { schemaVersion: 1 },
      Object.assign(() => undefined, { schemaVersion: 'TurnLivenessStateV1' }),
    ])
      expect(rehydrateTurnState(doc, never)).toMatchObject({
        ok: false,
        code: 'TURN_STATE_INVALID',
        issues: [],
      });
  });
  it('refuses with no issues when the check names none', () => {
    const state = run([prompt(T0)]).state;
    expect(rehydrateTurnState(state, () => ({ ok: false }))).toMatchObject({
      ok: false,
      code: 'TURN_STATE_INVALID',
      issues: [],
    });
  });
});

describe('watchdogCheck on a running turn', () => {
  it('emits the card of an expired lease, naming the lease', () => {
    const state = run([prompt(T0), pre(T0 + 1000, 'op1')]).state;
    const expiry = T0 + 1000 + 1_800_000;
    expect(watchdogCheck(state, new ManualClock(expiry - 1)).card).toBeNull();
    const tick = watchdogCheck(state, new ManualClock(expiry));
    expect(tick.card).toMatchObject({
      priorState: 'suspect',
      reason: 'operation-lease-expired',
      inFlightOperationId: 'op1',
      referenceAt: iso(expiry),
    });
    expect(tick.state.lastRecoveryNoticeKey).toBe(tick.card!.noticeKey);
  });
});

describe('host-supplied keys', () => {
  it('takes a turn key and a trace id of 256 characters and refuses 257', () => {
    const k256 = 'k'.repeat(256);
    const fresh = run([]).state;
    expect(applyTurnEvent(fresh, prompt(T0, k256), settled)).toMatchObject({
      ok: true,
      state: { turnKey: k256 },
    });
    expect(applyTurnEvent(fresh, prompt(T0, `${k256}k`), settled)).toMatchObject({
      ok: false,
      code: 'TURN_KEY_INVALID',
    });
    const traced = (taskTraceId: string) =>
      applyTurnEvent(fresh, { type: 'UserPromptSubmit', at: T0, turnKey: 'req_1', taskTraceId }, settled);
    expect(traced(k256)).toMatchObject({ ok: true, state: { taskTraceId: k256 } });
    expect(traced(`${k256}k`)).toMatchObject({ ok: false, code: 'TURN_TRACE_ID_INVALID' });
  });
});

describe('leases', () => {
  it('never leases a pid or a user process, whatever host decision the request carries', () => {
    const state = run([prompt(T0)]).state;
    for (const kind of ['pid', 'user-process'] as const)
      expect(
        requestLease(state, { kind, pid: 4242, hostDecision: 'allowed' } as unknown as LeaseRequest),
      ).toMatchObject({ ok: false, code: 'TURN_LEASE_NOT_HOST_ALLOWED' });
  });

  it('keeps the first 20 distinct target paths of a call', () => {
    const paths = Array.from({ length: 25 }, (_, i) => `src/f${i}.ts`);
    const state = run([prompt(T0), pre(T0 + 1000, 'op1', { targetPaths: [...paths, 'src/f0.ts'] })]).state;
    expect(state.inFlightOperation!.targetPaths).toEqual(paths.slice(0, 20));
  });
});

describe('step 1: the effective time', () => {
  it('keeps the stored spelling of lastEventAt for an event at that instant, and moves to a later one', () => {
    const state = { ...run([prompt(T0)]).state, lastEventAt: '2026-11-30T05:41:12Z' };
    expect(applyTurnEvent(state, bare('UnknownHostEvent', T0), settled).state.lastEventAt).toBe(
      '2026-11-30T05:41:12Z',
    );
    expect(applyTurnEvent(state, bare('UnknownHostEvent', T0 + 1), settled).state.lastEventAt).toBe(
      iso(T0 + 1),
    );
  });
});
