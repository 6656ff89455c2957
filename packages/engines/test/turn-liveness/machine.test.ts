// @module-tag unit
// Every edge row of the state machine and every refused combination with its code
// (docs/spec/turn-liveness-recovery-gate.md#state-machine).
import { describe, expect, it } from 'vitest';
import { applyTurnEvent, createTurnState, requestLease, UNSETTLED_ISSUE } from '../../src/index.ts';
import { bare, iso, post, pre, prompt, run, settled, T0, unsettled } from './helpers.ts';

const started = () => run([prompt(T0)]).state;
const leased = () => run([prompt(T0), pre(T0 + 1000, 'op1')]).state;
const awaiting = () => run([prompt(T0), pre(T0 + 1000, 'op1'), post(T0 + 2000, 'op1')]).state;
const completed = () => run([prompt(T0), bare('Stop', T0 + 5000)]).state;

describe('step 1: every delivered event is counted', () => {
  it('eventSequence + 1, lastEventType, lastEventAt = max (never backwards)', () => {
    const s = awaiting();
    const r = applyTurnEvent(s, bare('UnknownHostEvent', T0 - 50_000), settled);
    expect(r.state.eventSequence).toBe(s.eventSequence + 1);
    expect(r.state.lastEventType).toBe('UnknownHostEvent');
    expect(r.state.lastEventAt).toBe(s.lastEventAt);
    expect(r.state.continuationAckAt).toBe(s.lastEventAt);
  });
});

describe('edge rows', () => {
  it('idle + UserPromptSubmit -> running (S)', () => {
    const r = applyTurnEvent(createTurnState({ initializedAt: T0 - 1 }), prompt(T0, 'req_a'), settled);
    expect(r.ok).toBe(true);
    const s = r.state;
    expect(s).toMatchObject({
      state: 'running',
      turnKey: 'req_a',
      startedAt: iso(T0),
      previousTurn: null,
      inFlightOperation: null,
    });
    expect(s.checkpoint).toMatchObject({ phase: 'turn-started', operationId: null, idempotencyKey: null });
    expect(s.checkpointValidation!.postExecution).toMatchObject({
      status: 'unverified',
      deadlineAt: iso(T0 + 2_100_000),
      errorCode: 'HOST_RESULT_INCOMPLETE',
    });
    expect(s.checkpointValidation!.responseTime.status).toBe('pass');
    expect(s.taskTraceId).toMatch(/^trace-[a-f0-9]{24}$/);
  });

  it('a derived turn key when the host has none, different for each turn', () => {
    const a = run([{ type: 'UserPromptSubmit', at: T0, sessionKey: 'sess-1' }, bare('Stop', T0 + 1)]);
    const b = applyTurnEvent(
      a.state,
      { type: 'UserPromptSubmit', at: T0 + 2, sessionKey: 'sess-1' },
      settled,
    );
    expect(a.results[0]!.state.turnKey).toMatch(/^turn-[a-f0-9]{24}$/);
    expect(b.state.turnKey).not.toBe(a.state.turnKey);
  });

  it('running / awaiting + UserPromptSubmit -> running; previous turn interrupted, superseded or stale-recovered', () => {
    const fresh = applyTurnEvent(awaiting(), prompt(T0 + 3000, 'req_b'), settled);
    expect(fresh.card).toBeNull();
    expect(fresh.state.previousTurn).toEqual({
      turnKey: `req_${T0}`,
      terminalState: 'interrupted',
      terminalAt: iso(T0 + 3000),
      reason: 'superseded-by-new-prompt',
    });
    const stale = applyTurnEvent(leased(), prompt(T0 + 1000 + 1_800_000, 'req_c'), settled);
    expect(stale.card).not.toBeNull();
    expect(stale.state.previousTurn!.reason).toBe('stale-turn-recovered-by-new-prompt');
    expect(stale.state.inFlightOperation).toBeNull();
    expect(stale.state.lastRecoveryNoticeKey).toBeNull();
  });

  it('terminal + UserPromptSubmit -> running with previousTurn = the ended turn', () => {
    const r = applyTurnEvent(completed(), prompt(T0 + 9000, 'req_n'), settled);
    expect(r.state.previousTurn).toEqual({
      turnKey: `req_${T0}`,
      terminalState: 'completed',
      terminalAt: iso(T0 + 5000),
      reason: 'host-stop',
    });
    expect(r.state.terminalAt).toBeNull();
  });

  it('a reused turn key is refused (TURN_KEY_REUSED)', () => {
    const r1 = applyTurnEvent(started(), prompt(T0 + 1, `req_${T0}`), settled);
    expect(r1).toMatchObject({ ok: false, code: 'TURN_KEY_REUSED' });
    const second = applyTurnEvent(completed(), prompt(T0 + 9000, 'req_n'), settled).state;
    const r2 = applyTurnEvent(second, prompt(T0 + 9001, `req_${T0}`), settled);
    expect(r2).toMatchObject({ ok: false, code: 'TURN_KEY_REUSED' });
    expect(r2.state.turnKey).toBe('req_n');
  });

  it('a host turn key or trace id outside the turn layer key format is refused, never stored', () => {
    const before = completed();
    for (const turnKey of ['', 'user@example', 'a/b', ' req', 'x'.repeat(257)]) {
      const r = applyTurnEvent(before, { type: 'UserPromptSubmit', at: T0 + 9000, turnKey }, settled);
      expect(r).toMatchObject({ ok: false, code: 'TURN_KEY_INVALID' });
      expect(r.state.turnKey).toBe(before.turnKey);
      expect(r.state.state).toBe(before.state);
    }
    const r = applyTurnEvent(
      before,
      { type: 'UserPromptSubmit', at: T0 + 9000, turnKey: 'req_ok', taskTraceId: 'trace/1' },
      settled,
    );
    expect(r).toMatchObject({ ok: false, code: 'TURN_TRACE_ID_INVALID' });
    expect(r.state.turnKey).toBe(before.turnKey);
    expect(applyTurnEvent(before, prompt(T0 + 9000, `req.a:b-${'x'.repeat(240)}`), settled).ok).toBe(true);
  });

  it('running + allowed PreToolUse without a lease -> lease (L)', () => {
    const s = leased();
    expect(s.inFlightOperation).toMatchObject({
      operationId: 'op1',
      ownedByAgent: true,
      hostDecision: 'allowed',
      startedAt: iso(T0 + 1000),
      leaseExpiresAt: iso(T0 + 1000 + 1_800_000),
    });
    expect(s.checkpoint).toMatchObject({
      phase: 'tool:Edit',
      operationId: 'op1',
      nextAction: 'await PostToolUse',
    });
    expect(s.checkpoint!.idempotencyKey).toMatch(/^idem-/);
  });

  it('awaiting + allowed PreToolUse -> running, acknowledged, leased', () => {
    const r = applyTurnEvent(awaiting(), pre(T0 + 3000, 'op2'), settled);
    expect(r.ok).toBe(true);
    expect(r.state).toMatchObject({ state: 'running', continuationAckAt: iso(T0 + 3000) });
    expect(r.state.inFlightOperation!.operationId).toBe('op2');
  });

  it('running + allowed PreToolUse with a lease held -> no lease (TURN_OPERATION_LEASE_HELD)', () => {
    const s = leased();
    const r = applyTurnEvent(s, pre(T0 + 2000, 'op2'), settled);
    expect(r).toMatchObject({ ok: false, code: 'TURN_OPERATION_LEASE_HELD' });
    expect(r.state.inFlightOperation).toEqual(s.inFlightOperation);
    expect(r.state.checkpoint).toEqual(s.checkpoint);
  });

  it('running / awaiting + blocked PreToolUse -> running, acknowledged, no lease, checkpoint unchanged', () => {
    for (const s of [started(), awaiting()]) {
      const r = applyTurnEvent(s, pre(T0 + 3000, 'op9', { hostDecision: 'blocked' }), settled);
      expect(r).toMatchObject({ ok: false, code: 'TURN_LEASE_NOT_HOST_ALLOWED' });
      expect(r.state.state).toBe('running');
      expect(r.state.inFlightOperation).toBeNull();
      expect(r.state.checkpoint).toEqual(s.checkpoint);
      if (s.state === 'awaiting-continuation') expect(r.state.continuationAckAt).toBe(iso(T0 + 3000));
    }
  });

  it('running + PostToolUse of the lease -> awaiting-continuation; never terminal', () => {
    const s = awaiting();
    expect(s).toMatchObject({
      state: 'awaiting-continuation',
      lastToolCallId: 'op1',
      lastToolOutputAt: iso(T0 + 2000),
      inFlightOperation: null,
      continuationAckAt: null,
    });
    expect(s.checkpoint).toMatchObject({
      phase: 'tool-output-persisted',
      operationId: 'op1',
      artifactPaths: ['src/app.ts'],
    });
    const err = run([prompt(T0), pre(T0 + 1, 'op1'), post(T0 + 2, 'op1', 'error')]).state;
    expect(err.checkpoint!.phase).toBe('tool-error-observed');
    expect(s.checkpointValidation!.postExecution.status).toBe('unverified');
  });

  it('PostToolUse duplicate (lastToolCallId) -> unchanged; keys and lastToolOutputAt do not move', () => {
    for (const s of [
      awaiting(),
      applyTurnEvent(awaiting(), bare('UnknownHostEvent', T0 + 2500), settled).state,
    ]) {
      const r = applyTurnEvent(s, post(T0 + 9000, 'op1'), settled);
      expect(r.ok).toBe(true);
      expect(r.state.state).toBe(s.state);
      expect(r.state.lastToolOutputAt).toBe(s.lastToolOutputAt);
      expect(r.state.checkpoint).toEqual(s.checkpoint);
      expect(r.state.checkpointValidation!.postExecution.evidence).toEqual(
        s.checkpointValidation!.postExecution.evidence,
      );
    }
  });

  it('PostToolUse of any other operation -> unchanged (TURN_TOOL_OUTPUT_UNMATCHED), lease untouched', () => {
    for (const s of [leased(), awaiting(), started()]) {
      const r = applyTurnEvent(s, post(T0 + 3000, 'op-late'), settled);
      expect(r).toMatchObject({ ok: false, code: 'TURN_TOOL_OUTPUT_UNMATCHED' });
      expect(r.state.state).toBe(s.state);
      expect(r.state.inFlightOperation).toEqual(s.inFlightOperation);
      expect(r.state.lastToolOutputAt).toBe(s.lastToolOutputAt);
    }
  });

  it('running / awaiting + PreCompact -> running, acknowledged, phase pre-compact, not terminal evidence', () => {
    const a = applyTurnEvent(awaiting(), bare('PreCompact', T0 + 3000), settled).state;
    expect(a).toMatchObject({ state: 'running', continuationAckAt: iso(T0 + 3000) });
    expect(a.checkpoint).toMatchObject({ phase: 'pre-compact', operationId: null });
    expect(a.checkpointValidation!.postExecution.status).toBe('unverified');
    const l = applyTurnEvent(leased(), bare('PreCompact', T0 + 3000), settled).state;
    expect(l.checkpoint).toMatchObject({ phase: 'pre-compact', operationId: 'op1' });
    expect(l.inFlightOperation!.operationId).toBe('op1');
  });

  const terminals = [
    ['Stop', 'completed', 'host-stop'],
    ['TurnError', 'error', 'host-error'],
    ['TurnInterrupted', 'interrupted', 'host-interrupt'],
  ] as const;
  for (const [type, status, reason] of terminals) {
    it(`running / awaiting + ${type} -> ${status} (A)(T): lease cleared, post-execution pass`, () => {
      for (const s of [leased(), awaiting()]) {
        const r = applyTurnEvent(s, bare(type, T0 + 4000), settled);
        expect(r.ok).toBe(true);
        expect(r.state).toMatchObject({
          state: status,
          inFlightOperation: null,
          terminalAt: iso(T0 + 4000),
          terminalReason: reason,
        });
        expect(r.state.checkpoint).toMatchObject({
          phase: `terminal:${status}`,
          operationId: null,
          idempotencyKey: null,
        });
        const pe = r.state.checkpointValidation!.postExecution;
        expect(pe.status).toBe('pass');
        expect(pe.evidence.at(-1)).toMatchObject({
          kind: 'host-terminal-event',
          eventType: type,
          terminalStatus: status,
        });
        if (s.state === 'awaiting-continuation') expect(r.state.continuationAckAt).toBe(iso(T0 + 4000));
      }
    });
  }

  it('Stop with an unresolved operation -> unchanged (TURN_TERMINAL_OPERATIONS_UNSETTLED), post-execution blocked until settled', () => {
    const s = leased();
    const r = applyTurnEvent(s, bare('Stop', T0 + 4000), unsettled);
    expect(r).toMatchObject({ ok: false, code: 'TURN_TERMINAL_OPERATIONS_UNSETTLED' });
    expect(r.state.state).toBe('running');
    expect(r.state.inFlightOperation).toEqual(s.inFlightOperation);
    expect(r.state.checkpointValidation!.postExecution).toMatchObject({
      status: 'blocked',
      blockingIssues: [UNSETTLED_ISSUE],
    });
    const still = applyTurnEvent(r.state, bare('UnknownHostEvent', T0 + 5000), unsettled).state;
    expect(still.checkpointValidation!.postExecution.status).toBe('blocked');
    const cleared = applyTurnEvent(still, bare('UnknownHostEvent', T0 + 6000), settled).state;
    expect(cleared.checkpointValidation!.postExecution).toMatchObject({
      status: 'unverified',
      blockingIssues: [],
    });
    const done = applyTurnEvent(cleared, bare('Stop', T0 + 7000), settled).state;
    expect(done.state).toBe('completed');
    expect(done.checkpointValidation!.postExecution.status).toBe('pass');
  });

  it('TurnError / TurnInterrupted are accepted even with an unresolved operation', () => {
    expect(applyTurnEvent(leased(), bare('TurnError', T0 + 4000), unsettled).state.state).toBe('error');
    expect(applyTurnEvent(leased(), bare('TurnInterrupted', T0 + 4000), unsettled).state.state).toBe(
      'interrupted',
    );
  });

  it('running + UnknownHostEvent -> running, nothing else; awaiting + UnknownHostEvent -> running (A)', () => {
    const s = leased();
    const r = applyTurnEvent(s, bare('UnknownHostEvent', T0 + 3000), settled);
    expect(r.ok).toBe(true);
    expect({
      ...r.state,
      eventSequence: 0,
      lastEventAt: null,
      lastEventType: null,
      checkpointValidation: null,
    }).toEqual({
      ...s,
      eventSequence: 0,
      lastEventAt: null,
      lastEventType: null,
      checkpointValidation: null,
    });
    const a = applyTurnEvent(awaiting(), bare('UnknownHostEvent', T0 + 3000), settled).state;
    expect(a).toMatchObject({ state: 'running', continuationAckAt: iso(T0 + 3000) });
  });
});

describe('refused combinations change nothing beyond counting', () => {
  const others = [
    pre(T0 + 10, 'op1'),
    post(T0 + 10, 'op1'),
    ...(['PreCompact', 'Stop', 'TurnError', 'TurnInterrupted', 'UnknownHostEvent'] as const).map((t) =>
      bare(t, T0 + 10),
    ),
  ];
  for (const e of others) {
    it(`idle + ${e.type} -> TURN_NOT_STARTED`, () => {
      const s = createTurnState({ initializedAt: T0 });
      const r = applyTurnEvent(s, e, settled);
      expect(r).toMatchObject({ ok: false, code: 'TURN_NOT_STARTED', card: null });
      expect(r.state).toEqual({ ...s, eventSequence: 1, lastEventType: e.type, lastEventAt: iso(T0 + 10) });
    });
    it(`terminal + ${e.type} -> TURN_TERMINAL_FINAL`, () => {
      const s = completed();
      const r = applyTurnEvent(s, { ...e, at: T0 + 3_000_000 }, settled);
      expect(r).toMatchObject({ ok: false, code: 'TURN_TERMINAL_FINAL', card: null });
      expect(r.state).toEqual({
        ...s,
        eventSequence: s.eventSequence + 1,
        lastEventType: e.type,
        lastEventAt: iso(T0 + 3_000_000),
      });
    });
  }
});

describe('requestLease', () => {
  it('refuses user processes, PIDs and blocked calls (TURN_LEASE_NOT_HOST_ALLOWED)', () => {
    expect(requestLease(started(), { kind: 'user-process', pid: 4242 })).toMatchObject({
      ok: false,
      code: 'TURN_LEASE_NOT_HOST_ALLOWED',
    });
    expect(requestLease(started(), { kind: 'pid', pid: 1 })).toMatchObject({
      ok: false,
      code: 'TURN_LEASE_NOT_HOST_ALLOWED',
    });
    expect(requestLease(started(), { kind: 'tool-call', hostDecision: 'blocked' })).toMatchObject({
      ok: false,
      code: 'TURN_LEASE_NOT_HOST_ALLOWED',
    });
  });
  it('grants one lease per turn, only in a started non-terminal turn', () => {
    expect(requestLease(started(), { kind: 'tool-call', hostDecision: 'allowed' })).toEqual({ ok: true });
    expect(requestLease(leased(), { kind: 'tool-call', hostDecision: 'allowed' })).toMatchObject({
      code: 'TURN_OPERATION_LEASE_HELD',
    });
    expect(
      requestLease(createTurnState({ initializedAt: T0 }), { kind: 'tool-call', hostDecision: 'allowed' }),
    ).toMatchObject({ code: 'TURN_NOT_STARTED' });
    expect(requestLease(completed(), { kind: 'tool-call', hostDecision: 'allowed' })).toMatchObject({
      code: 'TURN_TERMINAL_FINAL',
    });
  });
});
