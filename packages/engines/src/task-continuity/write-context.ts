import { digestOf } from '@agent-contracts/digest';
import type {
  CanonicalTaskWriteContextV1,
  FencedTaskWriteOwnerLeaseV2,
  TaskRecoveryStateV5,
} from '@agent-contracts/schemas';
import { contextDigestOf } from '@agent-contracts/schemas';
import type { OwnerRef, PresentOwnerRef } from './requests.js';
import { compareTimestamps } from './time.js';

/**
 * Build the `CanonicalTaskWriteContextV1` of an envelope read back from storage, per the page's
 * derivation table. `readAt` is clamped to the envelope's `committedAt` so that invariant 2
 * (`readAt` >= `committedAt`) holds under a clock that jumped backwards.
 *
 * @example
 * const ctx = buildWriteContext(envelope, 'runtime-1', '2026-11-30T06:00:01.000Z');
 * ctx.stateSequence === envelope.sequence; // true
 */
export function buildWriteContext(
  envelope: TaskRecoveryStateV5,
  runtimeGeneration: string,
  readAt: string,
): CanonicalTaskWriteContextV1 {
  const body = {
    schemaVersion: 'CanonicalTaskWriteContextV1' as const,
    taskId: envelope.taskId,
    projectRootIdentity: envelope.projectRootIdentity,
    lifecycleRevision: envelope.lifecycleRevision,
    stateSequence: envelope.sequence,
    writerGeneration: envelope.writerGeneration,
    holderSession: envelope.owner.sessionDigest,
    contextEpoch: envelope.owner.contextEpoch,
    routeRevision: envelope.owner.routeRevision,
    ownerLeaseDigest: envelope.owner.leaseDigest,
    ownerStatus: envelope.owner.status,
    operationSetDigest: digestOf(envelope.operations),
    settledSetDigest: envelope.operations.settledSetDigest,
    runtimeGeneration,
    envelopeDigest: envelope.envelopeDigest,
    readAt: compareTimestamps(readAt, envelope.committedAt) < 0 ? envelope.committedAt : readAt,
  };
  return { ...body, contextDigest: contextDigestOf(body) };
}

/** The `contextDigest` a store computes for `envelope` now (the same for every `readAt`). */
export function writeContextDigestOf(envelope: TaskRecoveryStateV5, runtimeGeneration: string): string {
  return buildWriteContext(envelope, runtimeGeneration, envelope.committedAt).contextDigest;
}

/** The owner ref of a lease, or `{ mode: 'absent' }` without one. */
export function ownerRefOf(lease: FencedTaskWriteOwnerLeaseV2 | null | undefined): OwnerRef {
  if (!lease) return { mode: 'absent' };
  return {
    ownerGeneration: lease.ownerGeneration,
    ownerNonce: lease.ownerNonce,
    leaseRevision: lease.leaseRevision,
    leaseDigest: lease.leaseDigest,
  };
}

/** Whether two owner refs match: every member equal (and no extra member on either). */
export function ownerRefsMatch(a: OwnerRef | null | undefined, b: OwnerRef): boolean {
  if (!a || typeof a !== 'object') return false;
  if ('mode' in b) return 'mode' in a && a.mode === 'absent' && Object.keys(a).length === 1;
  if ('mode' in a) return false;
  const p = a as PresentOwnerRef;
  return (
    Object.keys(p).length === 4 &&
    p.ownerGeneration === b.ownerGeneration &&
    p.ownerNonce === b.ownerNonce &&
    p.leaseRevision === b.leaseRevision &&
    p.leaseDigest === b.leaseDigest
  );
}
