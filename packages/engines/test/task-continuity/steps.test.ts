// @module-tag unit
// The shared steps of the commit algorithm (docs/spec/task-continuity-write-gate.md) where no
// golden case reaches them: a store checks the task key before it reads and only ever reads the
// envelope of the key it was asked for, the reference store sets no envelope size limit, and the
// generation assertion of step 9 guards the engine's own envelope. Each is held here, through
// decideStateCommit where a request can reach it and on the step itself where only the engine can.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TaskRecoveryStateV5 } from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { type CommitEnvironment, decideStateCommit, fenceOf } from '../../src/task-continuity/index.js';
import { committedAtFor, write } from '../../src/task-continuity/steps.js';

const FIXTURE = fileURLToPath(
  new URL('../../../../conformance/fixtures/TaskRecoveryStateV5/valid/first-acquire.json', import.meta.url),
);
const stored = (): TaskRecoveryStateV5 => JSON.parse(readFileSync(FIXTURE, 'utf8')) as TaskRecoveryStateV5;
const NOW = '2026-11-30T06:00:00.000Z';
const env = (extra: Partial<CommitEnvironment> = {}): CommitEnvironment => ({
  clock: new ManualClock(Date.parse(NOW)),
  runtimeGeneration: 'runtime-1',
  mintNonce: () => `owner-${'0'.repeat(40)}`,
  ...extra,
});
/** A state commit by the holder of `e`, with its fence and owner ref. */
const request = (e: TaskRecoveryStateV5, extra: Record<string, unknown> = {}) => ({
  taskId: e.taskId,
  projectRootIdentity: e.projectRootIdentity,
  expectedFence: fenceOf(e),
  expectedOwner: {
    ownerGeneration: e.owner.ownerGeneration,
    ownerNonce: e.owner.ownerNonce,
    leaseRevision: e.owner.leaseRevision,
    leaseDigest: e.owner.leaseDigest,
  },
  sessionDigest: e.owner.sessionDigest,
  state: { stage: 'design' },
  ...extra,
});
const FENCE_1_1 = { schemaVersion: 'TaskRecoveryCommitFenceV1', stateSequence: 1, writerGeneration: 1 };

describe('steps 1 and 3 of a commit', () => {
  it('commits by the holder with the fence and owner ref read (the baseline of the refusals below)', () => {
    const d = decideStateCommit(stored(), request(stored()), env());
    expect(d).toMatchObject({
      ok: true,
      status: 'committed',
      fence: { stateSequence: 2, writerGeneration: 1 },
    });
  });

  it('refuses a malformed task key first (step 1), whatever the envelope read', () => {
    const d = decideStateCommit(null, { ...request(stored()), taskId: 'task-1' }, env());
    expect(d).toMatchObject({ ok: false, code: 'LIFECYCLE_TASK_IDENTITY_REQUIRED' });
  });

  it('refuses to build on a stored envelope that fails its check, with the fence read (TCW-004)', () => {
    const e = { ...stored(), stateDigest: 'f'.repeat(64) };
    const d = decideStateCommit(e, request(stored()), env());
    expect(d).toEqual({
      ok: false,
      code: 'LIFECYCLE_STATE_UNAVAILABLE',
      message: expect.any(String),
      currentFence: FENCE_1_1,
    });
  });

  it.each([
    ['taskId', '0199b6e2-4c1d-7a3e-8f52-3d9c0e7a41b7'],
    ['projectRootIdentity', 'e'.repeat(64)],
  ])('refuses a valid envelope stored for another %s: LIFECYCLE_STATE_UNAVAILABLE', (member, other) => {
    const d = decideStateCommit(stored(), request(stored(), { [member]: other }), env());
    expect(d).toEqual({
      ok: false,
      code: 'LIFECYCLE_STATE_UNAVAILABLE',
      message: expect.any(String),
      currentFence: FENCE_1_1,
    });
  });
});

describe('committedAt (the clock never moves an envelope back)', () => {
  const at = (now: string, committedAt: string) =>
    committedAtFor({ committedAt } as TaskRecoveryStateV5, new ManualClock(Date.parse(now)));

  it('is the clock when it is at or after the current envelope, the current committedAt when behind', () => {
    expect(committedAtFor(null, new ManualClock(Date.parse(NOW)))).toBe(NOW);
    expect(at(NOW, '2026-11-30T05:59:59.999Z')).toBe(NOW);
    expect(at(NOW, '2026-11-30T06:00:00.001Z')).toBe('2026-11-30T06:00:00.001Z');
    // The same instant written without a fraction: the clock's reading, not the stored text.
    expect(at(NOW, '2026-11-30T06:00:00Z')).toBe(NOW);
  });
});

describe('step 9 and 11: the generation assertion and the envelope size limit', () => {
  it('refuses a candidate whose writerGeneration is not the fence read plus the delta', () => {
    const e = stored();
    const candidate = { ...e, sequence: 2, writerGeneration: 2 };
    expect(write(e, candidate, env(), null, 0)).toEqual({
      ok: false,
      code: 'LIFECYCLE_WRITER_GENERATION_TRANSITION_INVALID',
      message: expect.any(String),
      currentFence: FENCE_1_1,
    });
    expect(write(e, candidate, env(), null, 1)).toMatchObject({ ok: true, status: 'committed' });
    expect(write(null, { ...e }, env(), null, 1)).toMatchObject({ ok: true, status: 'committed' });
    expect(write(null, { ...e }, env(), null, 0)).toMatchObject({
      ok: false,
      code: 'LIFECYCLE_WRITER_GENERATION_TRANSITION_INVALID',
    });
  });

  it('writes an envelope of exactly the limit and refuses one byte over it, with the fence read', () => {
    const free = decideStateCommit(stored(), request(stored()), env());
    if (!free.ok) throw new Error(free.message);
    const bytes = new TextEncoder().encode(JSON.stringify(free.envelope)).length;
    expect(decideStateCommit(stored(), request(stored()), env({ maxEnvelopeBytes: bytes }))).toEqual(free);
    expect(decideStateCommit(stored(), request(stored()), env({ maxEnvelopeBytes: bytes - 1 }))).toEqual({
      ok: false,
      code: 'LIFECYCLE_STATE_PAYLOAD_EXCEEDED',
      message: expect.stringContaining(`${bytes} bytes`),
      currentFence: FENCE_1_1,
    });
  });

  it('counts UTF-8 bytes, not UTF-16 code units', () => {
    const state = { stage: 'é'.repeat(100) };
    const free = decideStateCommit(stored(), request(stored(), { state }), env());
    if (!free.ok) throw new Error(free.message);
    const units = JSON.stringify(free.envelope).length;
    expect(
      decideStateCommit(stored(), request(stored(), { state }), env({ maxEnvelopeBytes: units })),
    ).toMatchObject({ ok: false, code: 'LIFECYCLE_STATE_PAYLOAD_EXCEEDED' });
  });
});
