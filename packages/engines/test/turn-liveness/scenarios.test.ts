// @module-tag unit
// The fault scenarios of the gate, run against the pure core with a fixed clock and direct replay
// (docs/spec/turn-liveness-recovery-gate.md#fault-scenarios). "Never acts" is checked on every card.
import { digestOf } from '@agent-contracts/digest';
import { noticeKey } from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import {
  applyTurnEvent,
  classify,
  ManualClock,
  observeTurnState,
  rehydrateTurnState,
  validateCheckpoint,
  watchdogCheck,
} from '../../src/index.ts';
import { bare, iso, neverActs, post, pre, prompt, run, settled, T0 } from './helpers.ts';

const T1 = T0 + 2000;
const noContinuation = () => run([prompt(T0, 'req_nc'), pre(T0 + 1000, 'op1'), post(T1, 'op1')]);

describe('no-continuation', () => {
  it('1. after the output: awaiting, no lease, lastToolOutputAt = T1, phase tool-output-persisted', () => {
    const { state } = noContinuation();
    expect(state).toMatchObject({
      state: 'awaiting-continuation',
      inFlightOperation: null,
      lastToolOutputAt: iso(T1),
    });
    expect(state.checkpoint!.phase).toBe('tool-output-persisted');
  });

  it('2. classification boundaries; classification changes no byte of the state', () => {
    const { state } = noContinuation();
    const before = JSON.stringify(state);
    const at = (ms: number) => {
      const c = classify(state, new ManualClock(T1 + ms));
      return `${c.classification}/${c.reason}`;
    };
    expect(at(119_999)).toBe('awaiting-continuation/within-grace');
    expect(at(120_000)).toBe('suspect/continuation-grace-expired');
    expect(at(299_999)).toBe('suspect/continuation-grace-expired');
    expect(at(300_000)).toBe('stalled-recoverable/continuation-timeout');
    expect(JSON.stringify(state)).toBe(before);
  });

  it('3. post-execution stays unverified / HOST_RESULT_INCOMPLETE / blocking, source-backed by tool-output; never pass', () => {
    const { state } = noContinuation();
    const pe = state.checkpointValidation!.postExecution;
    expect(pe).toMatchObject({
      status: 'unverified',
      errorCode: 'HOST_RESULT_INCOMPLETE',
      blocking: true,
      evidenceState: 'source-backed',
    });
    expect(pe.evidence.map((e) => e.kind)).toEqual(['tool-output']);
    const later = validateCheckpoint(
      { turnKey: state.turnKey!, mode: 'post-execution', evidence: pe.evidence, deadlineAt: pe.deadlineAt },
      new ManualClock(T1 + 300_000),
    );
    expect(later.ok && later.result.status).toBe('unverified');
  });

  it('4. no card before the next event; UnknownHostEvent at T1+300000 yields exactly one card', () => {
    const { state, results } = noContinuation();
    expect(results.map((r) => r.card)).toEqual([null, null, null]);
    const r = applyTurnEvent(state, bare('UnknownHostEvent', T1 + 300_000), settled);
    const card = r.card!;
    expect(card).toMatchObject({
      priorState: 'stalled-recoverable',
      reason: 'continuation-timeout',
      referenceAt: iso(T1),
      ageMs: 300_000,
      sourceStateDigest: digestOf(state),
      sourceEventSequence: state.eventSequence,
    });
    expect(card.noticeKey).toBe(
      noticeKey({
        turnKey: 'req_nc',
        referenceAt: iso(T1),
        priorState: 'stalled-recoverable',
        reason: 'continuation-timeout',
      }),
    );
    expect(r.state).toMatchObject({
      state: 'running',
      continuationAckAt: iso(T1 + 300_000),
      lastRecoveryNoticeKey: card.noticeKey,
    });
    neverActs(card);
  });
});

describe('active-lease', () => {
  const T2 = T0 + 10_000;
  const setupA = () => run([prompt(T0, 'req_al'), pre(T2, 'op2', { mutating: true })]).state;

  it('A1-A3: a 30-minute lease covers a long tool; suspect at expiry, stalled 5 min later', () => {
    const s = setupA();
    expect(s.inFlightOperation).toMatchObject({
      leaseExpiresAt: iso(T2 + 1_800_000),
      ownedByAgent: true,
      hostDecision: 'allowed',
    });
    const at = (ms: number) => {
      const c = classify(s, new ManualClock(T2 + ms));
      return `${c.classification}/${c.reason}`;
    };
    expect(at(1_200_000)).toBe('running/active-operation-lease');
    expect(at(1_799_999)).toBe('running/active-operation-lease');
    expect(at(1_800_000)).toBe('suspect/operation-lease-expired');
    expect(at(2_099_999)).toBe('suspect/operation-lease-expired');
    expect(at(2_100_000)).toBe('stalled-recoverable/operation-lease-expired');
  });

  it('A4: a card on the next event names op2 and recommends verifying idempotency; it never acts', () => {
    const r = applyTurnEvent(setupA(), bare('UnknownHostEvent', T2 + 1_900_000), settled);
    expect(r.card).toMatchObject({
      inFlightOperationId: 'op2',
      recommendedAction: 'verify-idempotency-then-resume-via-host',
    });
    neverActs(r.card);
    expect(r.state.inFlightOperation!.operationId).toBe('op2');
  });

  it('B: an agent turn with no tool call is covered by the agent-turn lease', () => {
    const s = run([prompt(T0, 'req_b')]).state;
    const at = (ms: number) => {
      const c = classify(s, new ManualClock(T0 + ms));
      return `${c.classification}/${c.reason}`;
    };
    expect(at(300_000)).toBe('running/agent-turn-within-lease');
    expect(at(1_799_999)).toBe('running/agent-turn-within-lease');
    expect(at(1_800_000)).toBe('suspect/agent-turn-lease-expired');
    expect(at(2_100_000)).toBe('stalled-recoverable/agent-turn-lease-expired');
  });

  it('C: a blocked PreToolUse leaves inFlightOperation null', () => {
    const r = applyTurnEvent(
      run([prompt(T0, 'req_c')]).state,
      pre(T0 + 5, 'op3', { hostDecision: 'blocked' }),
      settled,
    );
    expect(r).toMatchObject({ ok: false, code: 'TURN_LEASE_NOT_HOST_ALLOWED' });
    expect(r.state.inFlightOperation).toBeNull();
  });
});

describe('restart-rehydrate', () => {
  it('rehydration and a sidecar read write nothing; the next prompt yields one card and a fresh turn', () => {
    const persisted = JSON.parse(JSON.stringify(noContinuation().state));
    const before = digestOf(persisted);
    const checked: unknown[] = [];
    const r = rehydrateTurnState(persisted, (doc) => {
      checked.push(doc);
      return { ok: true };
    });
    expect(r.ok).toBe(true);
    expect(checked).toHaveLength(1);
    expect(digestOf(persisted)).toBe(before);
    if (!r.ok) return;
    const restart = T1 + 600_000;
    const evidence = observeTurnState(r.state, new ManualClock(restart));
    expect(evidence).toMatchObject({
      classification: 'stalled-recoverable',
      reason: 'continuation-timeout',
      sourceStateDigest: before,
      capabilityBoundary: { observer: 'read-only-sidecar', stateMutation: false },
    });
    expect(digestOf(r.state)).toBe(before);
    const next = applyTurnEvent(r.state, prompt(restart, 'req_after_restart'), settled);
    expect(next.card).toMatchObject({ priorState: 'stalled-recoverable' });
    neverActs(next.card);
    expect(next.state).toMatchObject({
      previousTurn: {
        turnKey: 'req_nc',
        terminalState: 'interrupted',
        terminalAt: iso(restart),
        reason: 'stale-turn-recovered-by-new-prompt',
      },
      turnKey: 'req_after_restart',
      lastRecoveryNoticeKey: null,
      inFlightOperation: null,
    });
    expect(next.state.taskTraceId).not.toBe(r.state.taskTraceId);
    expect(next.state.checkpoint!.phase).toBe('turn-started');
    expect(next.state.checkpointValidation!.postExecution).toMatchObject({
      status: 'unverified',
      deadlineAt: iso(restart + 2_100_000),
    });
  });

  it('an invalid state is refused with TURN_STATE_INVALID and not repaired', () => {
    const doc = { ...noContinuation().state, state: 'suspect' };
    const copy = JSON.stringify(doc);
    const r = rehydrateTurnState(doc, () => ({ ok: false, issues: ['x'] }));
    expect(r).toMatchObject({ ok: false, code: 'TURN_STATE_INVALID', issues: ['x'] });
    expect(JSON.stringify(doc)).toBe(copy);
    expect(rehydrateTurnState({ schemaVersion: 1 }, () => ({ ok: true }))).toMatchObject({
      code: 'TURN_STATE_INVALID',
    });
  });
});

describe('duplicate-recovery', () => {
  const stalled = () => noContinuation().state;

  it('one card per notice key across events, re-deliveries and the host-native watchdog', () => {
    const s = stalled();
    const first = applyTurnEvent(s, bare('PreCompact', T1 + 300_000), settled);
    const k = first.card!.noticeKey;
    expect(first.state.lastRecoveryNoticeKey).toBe(k);
    // The same pre-event state classified again at the same instant gives the same key.
    const again = applyTurnEvent(s, bare('PreCompact', T1 + 300_000), settled);
    expect(again.card!.noticeKey).toBe(k);
    const tick = watchdogCheck({ ...s, lastRecoveryNoticeKey: k }, new ManualClock(T1 + 300_000));
    expect(tick.card).toBeNull();
    // The turn is running and fresh after the PreCompact: no card.
    const second = applyTurnEvent(first.state, bare('PreCompact', T1 + 301_000), settled);
    expect(second.card).toBeNull();
    neverActs(first.card);
  });

  it('a watchdog emits once, records the key, and an event at the same instant emits nothing', () => {
    const s = stalled();
    const tick = watchdogCheck(s, new ManualClock(T1 + 300_000));
    expect(tick.card).toMatchObject({ capabilityBoundary: { observer: 'host-native-watchdog' } });
    expect(tick.state).toEqual({ ...s, lastRecoveryNoticeKey: tick.card!.noticeKey });
    expect(watchdogCheck(tick.state, new ManualClock(T1 + 300_000)).card).toBeNull();
    expect(applyTurnEvent(tick.state, bare('PreCompact', T1 + 300_000), settled).card).toBeNull();
  });

  it('escalation suspect -> stalled yields a new key', () => {
    const s = stalled();
    const a = watchdogCheck(s, new ManualClock(T1 + 120_000));
    const b = watchdogCheck(a.state, new ManualClock(T1 + 300_000));
    expect(a.card!.priorState).toBe('suspect');
    expect(b.card!.priorState).toBe('stalled-recoverable');
    expect(b.card!.noticeKey).not.toBe(a.card!.noticeKey);
  });

  it('a clock moving back into the suspect window after a stalled card emits no second card', () => {
    const s = stalled();
    const stalledTick = watchdogCheck(s, new ManualClock(T1 + 300_000));
    expect(stalledTick.card!.priorState).toBe('stalled-recoverable');
    expect(watchdogCheck(stalledTick.state, new ManualClock(T1 + 200_000)).card).toBeNull();
    expect(
      applyTurnEvent(stalledTick.state, bare('UnknownHostEvent', T1 + 200_000), settled).card,
    ).toBeNull();
  });

  it('a duplicate PostToolUse for op1 moves eventSequence only', () => {
    const s = applyTurnEvent(stalled(), bare('PreCompact', T1 + 300_000), settled).state;
    for (const at of [T1 + 301_000, T1 - 100_000, T1 + 9_000_000]) {
      const r = applyTurnEvent(s, post(at, 'op1'), settled);
      expect(r.state.eventSequence).toBe(s.eventSequence + 1);
      expect(r.state.lastToolOutputAt).toBe(s.lastToolOutputAt);
      expect(r.state.checkpoint!.resumeToken).toBe(s.checkpoint!.resumeToken);
      expect(r.state.checkpoint!.idempotencyKey).toBe(s.checkpoint!.idempotencyKey);
      expect(r.state.inFlightOperation).toBeNull();
      expect(r.state.state).toBe('running');
    }
  });
});

describe('post-execution-timeout', () => {
  it('unverified before the deadline, incomplete-timeout at it, pass on a later Stop', () => {
    const base = run([
      prompt(T0, 'req_pt'),
      pre(T0 + 1, 'op1'),
      post(T0 + 2, 'op1'),
      bare('PreCompact', T0 + 3),
    ]).state;
    const before = applyTurnEvent(base, bare('UnknownHostEvent', T0 + 2_099_999), settled).state;
    expect(before.checkpointValidation!.postExecution).toMatchObject({
      status: 'unverified',
      errorCode: 'HOST_RESULT_INCOMPLETE',
      blocking: true,
    });
    const at = applyTurnEvent(before, bare('UnknownHostEvent', T0 + 2_100_000), settled).state;
    expect(at.checkpointValidation!.postExecution).toMatchObject({
      status: 'incomplete-timeout',
      errorCode: 'TRACE_COMPLETION_TIMEOUT',
      requiredActions: ['record-timeout-and-recover'],
    });
    expect(at.checkpointValidation!.postExecution.evidence.map((e) => e.kind)).toEqual([
      'tool-output',
      'pre-compact',
    ]);
    const stop = applyTurnEvent(at, bare('Stop', T0 + 2_200_000), settled).state;
    expect(stop.checkpointValidation!.postExecution).toMatchObject({ status: 'pass' });
    expect(stop.checkpointValidation!.postExecution.evidence.at(-1)).toMatchObject({
      kind: 'host-terminal-event',
      terminalStatus: 'completed',
    });
  });
});
