import { digestOf } from '@agent-contracts/digest';
import type { DigestRule } from '../digest-rules.js';

type Json = { [key: string]: unknown };
type Hit = { pointer: string; expected: string | null };

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The object without the named top-level keys (the digest field itself and any excluded fields). */
export function without(value: Json, ...keys: string[]): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) if (!keys.includes(k)) out[k] = v;
  return out;
}

/** `refDigest` of a handoff, takeover or transition ref: `digestOf` of the ref without `refDigest`. */
export function refDigestOf(ref: Json): string {
  return digestOf(without(ref, 'refDigest'));
}

/** `FencedTaskWriteOwnerLeaseV2.leaseDigest`: `digestOf` of the lease without `leaseDigest`. */
export function leaseDigestOf(lease: Json): string {
  return digestOf(without(lease, 'leaseDigest'));
}

/** `CanonicalTaskWriteContextV1.contextDigest`: `digestOf` of the context without `contextDigest` and `readAt`. */
export function contextDigestOf(context: Json): string {
  return digestOf(without(context, 'contextDigest', 'readAt'));
}

/** `TaskOperationRecordV1.targetSetDigest`: `digestOf(exactTargets)`. */
export function targetSetDigestOf(exactTargets: readonly string[]): string {
  return digestOf(exactTargets);
}

/** `TaskOperationRecordV1.recordDigest`: `digestOf` of the record without `recordDigest`. */
export function recordDigestOf(record: Json): string {
  return digestOf(without(record, 'recordDigest'));
}

/** `TaskOperationSetV1.settledSetDigest`: `digestOf({ schemaVersion, settledTotal, settled })`. */
export function settledSetDigestOf(set: Json): string {
  return digestOf({ schemaVersion: set.schemaVersion, settledTotal: set.settledTotal, settled: set.settled });
}

/** `WorkflowTaskTerminalReceiptV1.receiptDigest`: `digestOf` of the receipt without `receiptDigest`. */
export function receiptDigestOf(receipt: Json): string {
  return digestOf(without(receipt, 'receiptDigest'));
}

/** `TaskRecoveryStateV5.stateDigest`: `digestOf(state)`. */
export function stateDigestOf(envelope: Json): string {
  return digestOf(envelope.state);
}

/** `TaskRecoveryStateV5.envelopeDigest`: `digestOf` of the envelope without `envelopeDigest`. */
export function envelopeDigestOf(envelope: Json): string {
  return digestOf(without(envelope, 'envelopeDigest'));
}

// Hit collectors, shared by the top-level rules and the rules for embedded documents.
function leaseHits(lease: unknown, base: string): Hit[] {
  if (!isObject(lease)) return [];
  const hits: Hit[] = [];
  for (const key of ['handoffRef', 'takeoverRef', 'transitionRef']) {
    const ref = lease[key];
    if (isObject(ref)) hits.push({ pointer: `${base}/${key}/refDigest`, expected: refDigestOf(ref) });
  }
  hits.push({ pointer: `${base}/leaseDigest`, expected: leaseDigestOf(lease) });
  return hits;
}

// The record's two digests have distinct codes, so they are collected (and ruled) separately.
function targetSetHits(record: unknown, base: string): Hit[] {
  if (!isObject(record)) return [];
  return [
    { pointer: `${base}/targetSetDigest`, expected: targetSetDigestOf(record.exactTargets as string[]) },
  ];
}

function recordHits(record: unknown, base: string): Hit[] {
  if (!isObject(record)) return [];
  return [{ pointer: `${base}/recordDigest`, expected: recordDigestOf(record) }];
}

function setHits(set: unknown, base: string): Hit[] {
  if (!isObject(set)) return [];
  return [{ pointer: `${base}/settledSetDigest`, expected: settledSetDigestOf(set) }];
}

const unresolvedOf = (set: unknown): unknown => (isObject(set) ? set.unresolved : undefined);

function receiptHits(receipt: unknown, base: string): Hit[] {
  if (!isObject(receipt)) return [];
  return [{ pointer: `${base}/receiptDigest`, expected: receiptDigestOf(receipt) }];
}

/** Digest rules of this area's contracts. */
export const TASK_CONTINUITY_DIGEST_RULES: readonly DigestRule[] = [
  {
    contract: 'TaskRecoveryStateV5',
    pointer: '/stateDigest',
    covers: 'digestOf(state): the application state payload, exactly as stored.',
    code: 'LIFECYCLE_STATE_DIGEST_MISMATCH',
    compute: (doc) => [{ pointer: '/stateDigest', expected: stateDigestOf(doc as Json) }],
  },
  {
    contract: 'TaskRecoveryStateV5',
    pointer: '/owner/leaseDigest',
    covers:
      'The embedded lease and its refs, per the FencedTaskWriteOwnerLeaseV2 rules (refDigest of each non-null ref, then leaseDigest).',
    code: 'FENCED_TASK_WRITE_OWNER_DIGEST_MISMATCH',
    compute: (doc) => leaseHits((doc as Json).owner, '/owner'),
  },
  {
    contract: 'TaskRecoveryStateV5',
    pointer: '/operations/unresolved/targetSetDigest',
    covers:
      'The embedded unresolved record when non-null, per the TaskOperationRecordV1 rule (targetSetDigest).',
    code: 'TASK_OPERATION_TARGET_SET_DIGEST_MISMATCH',
    compute: (doc) => targetSetHits(unresolvedOf((doc as Json).operations), '/operations/unresolved'),
  },
  {
    contract: 'TaskRecoveryStateV5',
    pointer: '/operations/unresolved/recordDigest',
    covers:
      'The embedded unresolved record when non-null, per the TaskOperationRecordV1 rule (recordDigest).',
    code: 'TASK_OPERATION_RECORD_DIGEST_MISMATCH',
    compute: (doc) => recordHits(unresolvedOf((doc as Json).operations), '/operations/unresolved'),
  },
  {
    contract: 'TaskRecoveryStateV5',
    pointer: '/operations/settledSetDigest',
    covers: 'The embedded operation set, per the TaskOperationSetV1 rule (settledSetDigest).',
    code: 'TASK_OPERATION_SET_DIGEST_MISMATCH',
    compute: (doc) => setHits((doc as Json).operations, '/operations'),
  },
  {
    contract: 'TaskRecoveryStateV5',
    pointer: '/terminalReceipt/receiptDigest',
    covers: 'The embedded terminal receipt when non-null, per the WorkflowTaskTerminalReceiptV1 rule.',
    code: 'TASK_TERMINAL_RECEIPT_DIGEST_MISMATCH',
    compute: (doc) => receiptHits((doc as Json).terminalReceipt, '/terminalReceipt'),
  },
  {
    contract: 'TaskRecoveryStateV5',
    pointer: '/envelopeDigest',
    covers:
      'digestOf(envelope without envelopeDigest): schemaVersion, taskId, projectRootIdentity, sequence, writerGeneration, lifecycleRevision, commitKind, committedAt, previousEnvelopeDigest, owner, operations, terminalReceipt, terminalLineage, state, stateDigest (embedded documents whole, with their own digests).',
    code: 'LIFECYCLE_STATE_DIGEST_MISMATCH',
    compute: (doc) => [{ pointer: '/envelopeDigest', expected: envelopeDigestOf(doc as Json) }],
  },
  {
    contract: 'FencedTaskWriteOwnerLeaseV2',
    pointer: '/transitionRef/refDigest',
    covers:
      'digestOf(ref without refDigest) for transitionRef and for handoffRef / takeoverRef when non-null.',
    code: 'FENCED_TASK_WRITE_OWNER_DIGEST_MISMATCH',
    compute: (doc) => leaseHits(doc, '').filter((h) => h.pointer !== '/leaseDigest'),
  },
  {
    contract: 'FencedTaskWriteOwnerLeaseV2',
    pointer: '/leaseDigest',
    covers:
      'digestOf(lease without leaseDigest): schemaVersion, taskId, projectRootIdentity, sessionDigest, contextEpoch, routeRevision, ownerGeneration, ownerNonce, leaseRevision, issuedAt, expiresAt, handoffRef, takeoverRef, transitionRef, reopenGeneration, revocationEpoch, status.',
    code: 'FENCED_TASK_WRITE_OWNER_DIGEST_MISMATCH',
    compute: (doc) => [{ pointer: '/leaseDigest', expected: leaseDigestOf(doc as Json) }],
  },
  {
    contract: 'CanonicalTaskWriteContextV1',
    pointer: '/contextDigest',
    covers:
      'digestOf(context without contextDigest and readAt): schemaVersion, taskId, projectRootIdentity, lifecycleRevision, stateSequence, writerGeneration, holderSession, contextEpoch, routeRevision, ownerLeaseDigest, ownerStatus, operationSetDigest, settledSetDigest, runtimeGeneration, envelopeDigest.',
    code: 'TASK_WRITE_CONTEXT_DIGEST_MISMATCH',
    compute: (doc) => [{ pointer: '/contextDigest', expected: contextDigestOf(doc as Json) }],
  },
  {
    contract: 'TaskOperationRecordV1',
    pointer: '/targetSetDigest',
    covers: 'digestOf(exactTargets): the sorted, unique target array.',
    code: 'TASK_OPERATION_TARGET_SET_DIGEST_MISMATCH',
    compute: (doc) => [
      { pointer: '/targetSetDigest', expected: targetSetDigestOf((doc as Json).exactTargets as string[]) },
    ],
  },
  {
    contract: 'TaskOperationRecordV1',
    pointer: '/recordDigest',
    covers:
      'digestOf(record without recordDigest): schemaVersion, operationId, idempotencyKey, writerGeneration, expectedStateSequence, kind, exactTargets, targetSetDigest, beforeDigest, phase, effect, preparedAt, dispatchedAt, observedAt, settledAt, resultDigest, evidenceDigest.',
    code: 'TASK_OPERATION_RECORD_DIGEST_MISMATCH',
    compute: (doc) => [{ pointer: '/recordDigest', expected: recordDigestOf(doc as Json) }],
  },
  {
    contract: 'TaskOperationSetV1',
    pointer: '/unresolved/targetSetDigest',
    covers: 'The unresolved record when non-null, per the TaskOperationRecordV1 rule (targetSetDigest).',
    code: 'TASK_OPERATION_TARGET_SET_DIGEST_MISMATCH',
    compute: (doc) => targetSetHits((doc as Json).unresolved, '/unresolved'),
  },
  {
    contract: 'TaskOperationSetV1',
    pointer: '/unresolved/recordDigest',
    covers: 'The unresolved record when non-null, per the TaskOperationRecordV1 rule (recordDigest).',
    code: 'TASK_OPERATION_RECORD_DIGEST_MISMATCH',
    compute: (doc) => recordHits((doc as Json).unresolved, '/unresolved'),
  },
  {
    contract: 'TaskOperationSetV1',
    pointer: '/settledSetDigest',
    covers:
      "digestOf({ schemaVersion: 'TaskOperationSetV1', settledTotal, settled }); `unresolved` is not covered.",
    code: 'TASK_OPERATION_SET_DIGEST_MISMATCH',
    compute: (doc) => [{ pointer: '/settledSetDigest', expected: settledSetDigestOf(doc as Json) }],
  },
  {
    contract: 'WorkflowTaskTerminalReceiptV1',
    pointer: '/receiptDigest',
    covers:
      'digestOf(receipt without receiptDigest): schemaVersion, taskId, projectRootIdentity, terminalStatus, lifecycleRevision, expectedStateSequence, expectedWriterGeneration, writeContextDigest, priorOwnerLeaseDigest, terminalOwnerLeaseDigest, ownerGeneration, terminalGeneration, holderSession, settledSetDigest, evidence, issuedAt.',
    code: 'TASK_TERMINAL_RECEIPT_DIGEST_MISMATCH',
    compute: (doc) => [{ pointer: '/receiptDigest', expected: receiptDigestOf(doc as Json) }],
  },
];
