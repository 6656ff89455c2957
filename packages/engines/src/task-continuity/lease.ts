// The owner lease a transition writes: counters per the transition table's row, a fresh nonce,
// and a diagnostic expiry that is never a decision input.
import { digestOf } from '@agent-contracts/digest';
import {
  type FencedTaskWriteOwnerLeaseV2,
  leaseDigestOf,
  refDigestOf,
  type TaskRecoveryStateV5,
} from '@agent-contracts/schemas';
import type { CommitEnvironment } from './commit.js';
import { OWNER_TRANSITION_TABLE } from './owner-transitions.js';
import type { OwnerTransitionRequest } from './requests.js';
import { laterBy } from './steps.js';
import { compareTimestamps } from './time.js';

/** Default diagnostic lease duration (5 minutes); never a decision input. */
export const DEFAULT_LEASE_DURATION_MS = 300_000;

export function buildLease(
  e: TaskRecoveryStateV5 | null,
  request: OwnerTransitionRequest,
  committedAt: string,
  env: CommitEnvironment,
  refs: Pick<FencedTaskWriteOwnerLeaseV2, 'handoffRef' | 'takeoverRef'>,
): FencedTaskWriteOwnerLeaseV2 {
  const row = OWNER_TRANSITION_TABLE[request.operation];
  const prev = e?.owner ?? null;
  const duration = Math.max(1, env.leaseDurationMs ?? DEFAULT_LEASE_DURATION_MS);
  let expiresAt = committedAt;
  if (row.expiresAt !== 'equals-issued') expiresAt = laterBy(committedAt, duration);
  if (row.expiresAt === 'after-current' && prev && compareTimestamps(expiresAt, prev.expiresAt) <= 0) {
    expiresAt = laterBy(prev.expiresAt, 1);
  }
  const transitionBody = {
    operation: request.operation,
    priorLeaseDigest: prev?.leaseDigest ?? null,
    requestDigest: digestOf(request),
    committedAt,
  };
  const lease = {
    schemaVersion: 'FencedTaskWriteOwnerLeaseV2' as const,
    taskId: request.taskId,
    projectRootIdentity: request.projectRootIdentity,
    sessionDigest: row.binding === 'requester' || !prev ? request.sessionDigest : prev.sessionDigest,
    contextEpoch: row.binding === 'kept' && prev ? prev.contextEpoch : request.contextEpoch,
    routeRevision: row.binding === 'kept' && prev ? prev.routeRevision : request.routeRevision,
    ownerGeneration: (prev?.ownerGeneration ?? 0) + row.deltas.ownerGeneration,
    ownerNonce: row.ownerNonce === 'kept' && prev ? prev.ownerNonce : env.mintNonce(),
    leaseRevision: (prev?.leaseRevision ?? 0) + row.deltas.leaseRevision,
    issuedAt: committedAt,
    expiresAt,
    handoffRef: refs.handoffRef,
    takeoverRef: refs.takeoverRef,
    transitionRef: { ...transitionBody, refDigest: refDigestOf(transitionBody) },
    reopenGeneration: (prev?.reopenGeneration ?? 0) + row.deltas.reopenGeneration,
    revocationEpoch: (prev?.revocationEpoch ?? 0) + row.deltas.revocationEpoch,
    status: row.to,
  };
  return { ...lease, leaseDigest: leaseDigestOf(lease) };
}
