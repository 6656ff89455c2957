// @module-tag unit
// The checkpoint validation decision table, row by row, tested on the pure validator directly
// (docs/spec/turn-liveness-recovery-gate.md#decision-table).
import { describe, expect, it } from 'vitest';
import {
  type CheckpointEvidence,
  capEvidence,
  MAX_EVIDENCE_ITEMS,
  ManualClock,
  validateCheckpoint,
} from '../../src/index.ts';

const T0 = Date.parse('2026-11-30T05:41:12.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const deadlineAt = iso(T0 + 2_100_000);
const item = (
  kind: 'host-event' | 'tool-output' | 'pre-compact' | 'sidecar-observation',
  at = T0 + 10,
): CheckpointEvidence => ({
  kind,
  eventType:
    kind === 'tool-output' ? 'PostToolUse' : kind === 'pre-compact' ? 'PreCompact' : 'UnknownHostEvent',
  eventSequence: 3,
  observedAt: iso(at),
});
const stop = (at = T0 + 20): CheckpointEvidence => ({
  kind: 'host-terminal-event',
  eventType: 'Stop',
  eventSequence: 4,
  observedAt: iso(at),
  terminalStatus: 'completed',
});
const post = (
  evidence: CheckpointEvidence[],
  now: number,
  extra: { blockingIssues?: string[]; requiredActions?: string[] } = {},
) =>
  validateCheckpoint(
    { turnKey: 't1', mode: 'post-execution', evidence, deadlineAt, ...extra },
    new ManualClock(now),
  );

describe('decision table', () => {
  it('row 0: an unknown mode produces no document (CHECKPOINT_MODE_INVALID)', () => {
    const r = validateCheckpoint(
      { turnKey: 't1', mode: 'final', evidence: [], deadlineAt: null },
      new ManualClock(T0),
    );
    expect(r).toMatchObject({
      ok: false,
      code: 'CHECKPOINT_MODE_INVALID',
      requiredActions: ['select-response-time-or-post-execution-mode'],
    });
    expect('result' in r).toBe(false);
  });

  it('row 1: blocking issues -> blocked; actions supplied or the issues; evidence state by presence', () => {
    const a = post([stop()], T0 + 30, {
      blockingIssues: ['task-operation-unsettled'],
      requiredActions: ['reconcile-operation-before-completion'],
    });
    expect(a.ok && a.result).toMatchObject({
      status: 'blocked',
      blocking: true,
      evidenceState: 'source-backed',
      errorCode: null,
      requiredActions: ['reconcile-operation-before-completion'],
    });
    const b = post([], T0 + 30, { blockingIssues: ['x-issue'] });
    expect(b.ok && b.result).toMatchObject({
      status: 'blocked',
      evidenceState: 'unverified',
      requiredActions: ['x-issue'],
    });
    // Blocking beats the deadline and terminal evidence.
    const late = post([stop()], T0 + 9_000_000, { blockingIssues: ['x-issue'] });
    expect(late.ok && late.result.status).toBe('blocked');
  });

  it('row 2: response-time passes on any item; post-execution only on a terminal kind', () => {
    for (const kind of ['host-event', 'tool-output', 'pre-compact', 'sidecar-observation'] as const) {
      const rt = validateCheckpoint(
        { turnKey: 't1', mode: 'response-time', evidence: [item(kind)], deadlineAt: null },
        new ManualClock(T0 + 30),
      );
      expect(rt.ok && rt.result).toMatchObject({
        status: 'pass',
        blocking: false,
        evidenceState: 'verified',
        requiredActions: [],
        errorCode: null,
        deadlineAt: null,
      });
      const pe = post([item(kind)], T0 + 30);
      expect(pe.ok && pe.result.status).toBe('unverified');
    }
    const native: CheckpointEvidence = {
      kind: 'host-native-terminal-status',
      eventType: 'UnknownHostEvent',
      eventSequence: 9,
      observedAt: iso(T0),
      terminalStatus: 'error',
    };
    for (const terminal of [stop(), native]) {
      const r = post([item('tool-output'), terminal], T0 + 9_000_000);
      expect(r.ok && r.result).toMatchObject({ status: 'pass', evidenceState: 'verified', errorCode: null });
    }
  });

  it('row 3: post-execution at or after the deadline -> incomplete-timeout (exact boundary)', () => {
    const before = post([item('tool-output'), item('pre-compact')], T0 + 2_099_999);
    expect(before.ok && before.result).toMatchObject({
      status: 'unverified',
      errorCode: 'HOST_RESULT_INCOMPLETE',
      blocking: true,
      evidenceState: 'source-backed',
    });
    const at = post([item('tool-output'), item('pre-compact')], T0 + 2_100_000);
    expect(at.ok && at.result).toMatchObject({
      status: 'incomplete-timeout',
      blocking: true,
      evidenceState: 'source-backed',
      errorCode: 'TRACE_COMPLETION_TIMEOUT',
      requiredActions: ['record-timeout-and-recover'],
    });
    const none = post([], T0 + 2_100_001);
    expect(none.ok && none.result).toMatchObject({
      status: 'incomplete-timeout',
      evidenceState: 'unverified',
    });
  });

  it('row 4: otherwise unverified; blocking only for post-execution', () => {
    const rt = validateCheckpoint(
      { turnKey: 't1', mode: 'response-time', evidence: [], deadlineAt: null },
      new ManualClock(T0),
    );
    expect(rt.ok && rt.result).toMatchObject({
      status: 'unverified',
      blocking: false,
      evidenceState: 'unverified',
      requiredActions: ['collect-response-time-evidence'],
      errorCode: 'HOST_RESULT_INCOMPLETE',
    });
    const pe = post([], T0);
    expect(pe.ok && pe.result).toMatchObject({
      status: 'unverified',
      blocking: true,
      requiredActions: ['collect-post-execution-evidence'],
    });
  });
});

describe('inputs', () => {
  it('refuses malformed evidence items and a deadline in the wrong mode', () => {
    const bad: CheckpointEvidence[] = [
      {
        kind: 'host-terminal-event',
        eventType: 'PostToolUse',
        eventSequence: 1,
        observedAt: iso(T0),
        terminalStatus: 'completed',
      },
      {
        kind: 'host-terminal-event',
        eventType: 'TurnError',
        eventSequence: 1,
        observedAt: iso(T0),
        terminalStatus: 'completed',
      },
      { kind: 'tool-output', eventType: 'Stop', eventSequence: 1, observedAt: iso(T0) },
      { kind: 'pre-compact', eventType: 'PostToolUse', eventSequence: 1, observedAt: iso(T0) },
    ];
    for (const e of bad)
      expect(post([e], T0)).toMatchObject({ ok: false, code: 'TURN_CHECKPOINT_VALIDATION_INCONSISTENT' });
    expect(
      validateCheckpoint(
        { turnKey: 't', mode: 'post-execution', evidence: [], deadlineAt: null },
        new ManualClock(T0),
      ).ok,
    ).toBe(false);
    expect(
      validateCheckpoint(
        { turnKey: 't', mode: 'response-time', evidence: [], deadlineAt },
        new ManualClock(T0),
      ).ok,
    ).toBe(false);
  });

  it('refuses a host-terminal-event item of an unknown eventType even when it carries no terminalStatus', () => {
    const noStatus = {
      kind: 'host-terminal-event',
      eventType: 'PostToolUse',
      eventSequence: 1,
      observedAt: iso(T0),
    } as unknown as CheckpointEvidence;
    expect(post([noStatus], T0)).toMatchObject({
      ok: false,
      code: 'TURN_CHECKPOINT_VALIDATION_INCONSISTENT',
      requiredActions: ['recompute-from-valid-inputs'],
    });
  });

  it('a clock behind the evidence never predates the result', () => {
    const r = post([item('tool-output', T0 + 5000)], T0);
    expect(r.ok && r.result.observedAt).toBe(iso(T0 + 5000));
  });

  it('keeps at most 16 items, dropping the oldest non-terminal ones and never a terminal one', () => {
    const items = [stop(T0), ...Array.from({ length: 20 }, (_, i) => item('tool-output', T0 + i))];
    const capped = capEvidence(items);
    expect(capped).toHaveLength(MAX_EVIDENCE_ITEMS);
    expect(capped[0]).toEqual(items[0]);
    expect(capped.at(-1)).toEqual(items.at(-1));
    const r = post(items, T0 + 100);
    expect(r.ok && r.result.evidence).toHaveLength(16);
  });

  it('keeps every terminal item, past 16 too: only non-terminal items are dropped', () => {
    const terminals = Array.from({ length: MAX_EVIDENCE_ITEMS + 1 }, (_, i) => stop(T0 + i));
    expect(capEvidence(terminals)).toEqual(terminals);
    const mixed = [item('tool-output', T0), ...terminals];
    expect(capEvidence(mixed)).toEqual(terminals);
  });
});
