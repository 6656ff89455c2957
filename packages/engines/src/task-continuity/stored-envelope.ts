import type { TaskRecoveryStateV5 } from '@agent-contracts/schemas';
import {
  envelopeDigestOf,
  leaseDigestOf,
  receiptDigestOf,
  recordDigestOf,
  refDigestOf,
  settledSetDigestOf,
  stateDigestOf,
  targetSetDigestOf,
} from '@agent-contracts/schemas';
import { fail, OK, type TaskCheckResult } from './result.js';

type Json = { [key: string]: unknown };
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Step 3 of the commit algorithm: whether a stored envelope may be built on. Recomputes every
 * digest (refs, lease, record, settled set, receipt, state, envelope) and checks the identity and
 * counter invariants (2, 3, 4, 7 and 9 of TaskRecoveryStateV5) that a store relies on. Anything
 * else is refused with `LIFECYCLE_STATE_UNAVAILABLE`: the store never commits on top of it and
 * never falls back to an older envelope (D-TCW-20). Full schema validation belongs to the
 * validators package; this is the cheap structural guard a store runs on every read.
 *
 * @example
 * const r = checkStoredEnvelope(envelope);
 * if (!r.ok) console.log(r.code); // LIFECYCLE_STATE_UNAVAILABLE
 */
export function checkStoredEnvelope(value: unknown): TaskCheckResult {
  const bad = (what: string) =>
    fail(
      'LIFECYCLE_STATE_UNAVAILABLE',
      `The stored envelope is invalid (${what}); stop writing this task and repair it out of band.`,
    );
  try {
    if (!isObject(value) || value.schemaVersion !== 'TaskRecoveryStateV5')
      return bad('not a TaskRecoveryStateV5');
    const e = value as unknown as TaskRecoveryStateV5;
    if (
      !isObject(e.owner) ||
      !isObject(e.operations) ||
      !isObject(e.state) ||
      !Array.isArray(e.terminalLineage)
    ) {
      return bad('missing owner, operations, state or terminalLineage');
    }
    const owner = e.owner as unknown as Json;
    for (const key of ['handoffRef', 'takeoverRef', 'transitionRef'] as const) {
      const ref = owner[key];
      if (isObject(ref) && ref.refDigest !== refDigestOf(ref))
        return bad(`owner.${key}.refDigest does not recompute`);
    }
    if (!isObject(owner.transitionRef)) return bad('owner.transitionRef missing');
    if (e.owner.leaseDigest !== leaseDigestOf(owner)) return bad('owner.leaseDigest does not recompute');
    const u = e.operations.unresolved;
    if (u !== null) {
      if (!isObject(u) || !Array.isArray(u.exactTargets)) return bad('operations.unresolved malformed');
      if (u.targetSetDigest !== targetSetDigestOf(u.exactTargets))
        return bad('targetSetDigest does not recompute');
      if (u.recordDigest !== recordDigestOf(u as unknown as Json))
        return bad('recordDigest does not recompute');
      if (u.writerGeneration > e.writerGeneration || u.expectedStateSequence >= e.sequence) {
        return bad('the unresolved operation is newer than the envelope');
      }
    }
    if (!Array.isArray(e.operations.settled)) return bad('operations.settled malformed');
    if (e.operations.settledSetDigest !== settledSetDigestOf(e.operations as unknown as Json)) {
      return bad('settledSetDigest does not recompute');
    }
    if (e.terminalReceipt !== null) {
      if (!isObject(e.terminalReceipt)) return bad('terminalReceipt malformed');
      if (e.terminalReceipt.receiptDigest !== receiptDigestOf(e.terminalReceipt as unknown as Json)) {
        return bad('receiptDigest does not recompute');
      }
    }
    if ((e.terminalReceipt !== null) !== (e.owner.status === 'terminal')) {
      return bad('terminalReceipt must be set exactly when the owner is terminal');
    }
    if (e.stateDigest !== stateDigestOf(value)) return bad('stateDigest does not recompute');
    if (e.envelopeDigest !== envelopeDigestOf(value)) return bad('envelopeDigest does not recompute');
    if (e.owner.taskId !== e.taskId || e.owner.projectRootIdentity !== e.projectRootIdentity) {
      return bad('owner identity differs from the envelope');
    }
    if (
      e.writerGeneration !== e.owner.ownerGeneration ||
      e.lifecycleRevision !== e.owner.reopenGeneration + 1
    ) {
      return bad('writerGeneration or lifecycleRevision does not match the owner');
    }
    if (
      !Number.isSafeInteger(e.sequence) ||
      e.sequence < 1 ||
      (e.previousEnvelopeDigest === null) !== (e.sequence === 1)
    ) {
      return bad('sequence and previousEnvelopeDigest disagree');
    }
  } catch (error) {
    return bad(error instanceof Error ? error.message : 'unreadable');
  }
  return OK;
}
