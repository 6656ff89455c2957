// @module-tag unit
// CheckpointV1 keys and the idempotency boundary checked before a resume
// (docs/spec/turn-liveness-recovery-gate.md#checkpointv1).
import { idempotencyKey, resumeToken } from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import { buildCheckpoint, mergeArtifactPaths, verifyResumeBoundary } from '../../src/index.ts';

const cp = buildCheckpoint({
  turnKey: 'req_1',
  phase: 'tool:Edit',
  operationId: 'op1',
  artifactPaths: ['a.ts', 'a.ts', 'b.ts'],
  nextAction: 'await PostToolUse',
  recordedAt: '2026-11-30T05:41:13.000Z',
});

describe('buildCheckpoint', () => {
  it('derives domain-separated keys from its own turnKey and operationId', () => {
    expect(cp.resumeToken).toBe(resumeToken('req_1', 'op1'));
    expect(cp.idempotencyKey).toBe(idempotencyKey('req_1', 'op1'));
    expect(cp.resumeToken.slice('resume-'.length)).not.toBe(cp.idempotencyKey!.slice('idem-'.length));
    expect(cp.artifactPaths).toEqual(['a.ts', 'b.ts']);
    const none = buildCheckpoint({ ...cp, phase: 'turn-started', operationId: null });
    expect(none.idempotencyKey).toBeNull();
  });
  it('drops a repeated artifact path, of the existing paths or the added ones', () => {
    expect(mergeArtifactPaths(['a.ts', 'b.ts'], ['b.ts', 'a.ts', 'c.ts'])).toEqual(['a.ts', 'b.ts', 'c.ts']);
    expect(
      buildCheckpoint({ ...cp, phase: 'tool:Edit', artifactPaths: ['x.ts', 'x.ts'] }).artifactPaths,
    ).toEqual(['x.ts']);
  });
  it('keeps the newest 32 artifact paths', () => {
    const paths = Array.from({ length: 40 }, (_, i) => `f${i}.ts`);
    expect(mergeArtifactPaths([], paths)).toEqual(paths.slice(8));
  });
});

describe('verifyResumeBoundary', () => {
  const record = { operationId: 'op1', idempotencyKey: cp.idempotencyKey!, phase: 'settled' as const };
  it('allows a resume only when the record carries the same key and is resolved or never dispatched', () => {
    expect(verifyResumeBoundary(cp, record)).toEqual({ ok: true, decision: 'resume-allowed' });
    expect(verifyResumeBoundary(cp, { ...record, phase: 'prepared' })).toEqual({
      ok: true,
      decision: 'resume-allowed',
    });
    for (const phase of ['dispatched', 'observed', 'reconcile-required'] as const)
      expect(verifyResumeBoundary(cp, { ...record, phase })).toEqual({
        ok: true,
        decision: 'reconcile-required',
      });
  });
  it('refuses a different key, another operation or tampered checkpoint keys (TURN_CHECKPOINT_KEY_MISMATCH)', () => {
    expect(
      verifyResumeBoundary(cp, { ...record, idempotencyKey: 'idem-000000000000000000000000' }),
    ).toMatchObject({ ok: false, code: 'TURN_CHECKPOINT_KEY_MISMATCH' });
    expect(verifyResumeBoundary(cp, { ...record, operationId: 'op2' })).toMatchObject({
      ok: false,
      code: 'TURN_CHECKPOINT_KEY_MISMATCH',
    });
    expect(
      verifyResumeBoundary({ ...cp, resumeToken: 'resume-000000000000000000000000' }, record),
    ).toMatchObject({ ok: false, code: 'TURN_CHECKPOINT_KEY_MISMATCH' });
    const none = buildCheckpoint({ ...cp, phase: 'turn-started', operationId: null });
    expect(verifyResumeBoundary(none, record)).toMatchObject({
      ok: false,
      code: 'TURN_CHECKPOINT_KEY_MISMATCH',
    });
    expect(verifyResumeBoundary(none, null)).toEqual({ ok: true, decision: 'resume-allowed' });
  });
  it('allows a resume of a checkpoint of an operation that has no record yet', () => {
    expect(verifyResumeBoundary(cp, null)).toEqual({ ok: true, decision: 'resume-allowed' });
  });
  it('refuses a checkpoint whose idempotencyKey does not recompute, even when the record carries the same key', () => {
    const forged = 'idem-000000000000000000000000';
    expect(
      verifyResumeBoundary({ ...cp, idempotencyKey: forged }, { ...record, idempotencyKey: forged }),
    ).toMatchObject({
      ok: false,
      code: 'TURN_CHECKPOINT_KEY_MISMATCH',
    });
  });
});
