// @module-tag unit
// The diagnostic expiry of the lease a transition writes (never a decision input, so no golden
// case compares it): committedAt plus the lease duration (at least 1 ms), and for renew never at
// or before the expiry it replaces.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TaskRecoveryStateV5 } from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import {
  type CommitEnvironment,
  DEFAULT_LEASE_DURATION_MS,
  decideOwnerTransition,
  fenceOf,
  type OwnerTransitionRequest,
} from '../../src/task-continuity/index.js';

const FIXTURE = fileURLToPath(
  new URL('../../../../conformance/fixtures/TaskRecoveryStateV5/valid/first-acquire.json', import.meta.url),
);
const stored = (): TaskRecoveryStateV5 => JSON.parse(readFileSync(FIXTURE, 'utf8')) as TaskRecoveryStateV5;
const env = (now: string, extra: Partial<CommitEnvironment> = {}): CommitEnvironment => ({
  clock: new ManualClock(Date.parse(now)),
  runtimeGeneration: 'runtime-1',
  mintNonce: () => `owner-${'0'.repeat(40)}`,
  ...extra,
});
const e = stored();
const base = {
  taskId: e.taskId,
  projectRootIdentity: e.projectRootIdentity,
  sessionDigest: e.owner.sessionDigest,
  contextEpoch: e.owner.contextEpoch,
  routeRevision: e.owner.routeRevision,
  targetSessionDigest: null,
  handoffRefDigest: null,
  takeoverRefDigest: null,
  takeoverEvidence: null,
  terminal: null,
  terminalReceiptDigest: null,
};
const acquire = {
  ...base,
  operation: 'acquire',
  expectedFence: fenceOf(null),
  expectedOwner: { mode: 'absent' },
} as unknown as OwnerTransitionRequest;
const renew = {
  ...base,
  operation: 'renew',
  expectedFence: fenceOf(e),
  expectedOwner: {
    ownerGeneration: e.owner.ownerGeneration,
    ownerNonce: e.owner.ownerNonce,
    leaseRevision: e.owner.leaseRevision,
    leaseDigest: e.owner.leaseDigest,
  },
} as unknown as OwnerTransitionRequest;
const expiresAt = (
  current: TaskRecoveryStateV5 | null,
  request: OwnerTransitionRequest,
  c: CommitEnvironment,
) => {
  const d = decideOwnerTransition(current, request, c);
  if (!d.ok) throw new Error(`${d.code}: ${d.message}`);
  return [d.envelope.owner.issuedAt, d.envelope.owner.expiresAt];
};

describe('the lease expiry a transition writes', () => {
  it('is committedAt plus the lease duration, 5 minutes by default and at least 1 ms', () => {
    expect(DEFAULT_LEASE_DURATION_MS).toBe(300_000);
    const now = '2026-11-30T06:00:00.000Z';
    expect(expiresAt(null, acquire, env(now))).toEqual([now, '2026-11-30T06:05:00.000Z']);
    expect(expiresAt(null, acquire, env(now, { leaseDurationMs: 60_000 }))).toEqual([
      now,
      '2026-11-30T06:01:00.000Z',
    ]);
    expect(expiresAt(null, acquire, env(now, { leaseDurationMs: 0 }))).toEqual([
      now,
      '2026-11-30T06:00:00.001Z',
    ]);
  });

  it('for renew, is after the expiry it replaces', () => {
    // The renewed lease would end after the current one: committedAt plus the duration.
    expect(expiresAt(e, renew, env('2026-11-30T06:00:00.000Z'))).toEqual([
      '2026-11-30T06:00:00.000Z',
      '2026-11-30T06:05:00.000Z',
    ]);
    // It would end at or before it (a short duration): 1 ms after the current expiry.
    expect(e.owner.expiresAt).toBe('2026-11-30T05:46:12.000Z');
    expect(expiresAt(e, renew, env('2026-11-30T05:42:00.000Z', { leaseDurationMs: 1_000 }))).toEqual([
      '2026-11-30T05:42:00.000Z',
      '2026-11-30T05:46:12.001Z',
    ]);
  });
});
