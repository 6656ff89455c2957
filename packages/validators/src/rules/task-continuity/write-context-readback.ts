// Cross-document rules of the bundle kind `write-context-readback`: a TaskRecoveryStateV5 envelope
// followed by the CanonicalTaskWriteContextV1 documents read back from it
// (docs/spec/task-continuity-write-gate.md#canonicaltaskwritecontextv1, write context invariant 2).
import {
  type CanonicalTaskWriteContextV1,
  envelopeDigestOf,
  type TaskRecoveryStateV5,
} from '@agent-contracts/schemas';
import { bundleRule, collect, type Report } from '../kit.js';
import type { BundleRule, ContractDocument } from '../types.js';
import { compareTime, isEnvelope, SECTION, show } from './shared.js';

const READBACK_BUNDLE = 'write-context-readback';

const DERIVATION: ReadonlyArray<
  [keyof CanonicalTaskWriteContextV1, (e: TaskRecoveryStateV5) => unknown, string]
> = [
  ['taskId', (e) => e.taskId, 'taskId'],
  ['projectRootIdentity', (e) => e.projectRootIdentity, 'projectRootIdentity'],
  ['lifecycleRevision', (e) => e.lifecycleRevision, 'lifecycleRevision'],
  ['stateSequence', (e) => e.sequence, 'sequence'],
  ['writerGeneration', (e) => e.writerGeneration, 'writerGeneration'],
  ['holderSession', (e) => e.owner.sessionDigest, 'owner.sessionDigest'],
  ['contextEpoch', (e) => e.owner.contextEpoch, 'owner.contextEpoch'],
  ['routeRevision', (e) => e.owner.routeRevision, 'owner.routeRevision'],
  ['ownerLeaseDigest', (e) => e.owner.leaseDigest, 'owner.leaseDigest'],
  ['ownerStatus', (e) => e.owner.status, 'owner.status'],
  // digestOf(operations): the set has no envelopeDigest member, so envelopeDigestOf hashes it whole.
  [
    'operationSetDigest',
    (e) => envelopeDigestOf(e.operations as unknown as Record<string, unknown>),
    'digestOf(operations)',
  ],
  ['settledSetDigest', (e) => e.operations.settledSetDigest, 'operations.settledSetDigest'],
];

function readback(documents: readonly ContractDocument[], report: Report): void {
  const [first, ...rest] = documents;
  if (!first || !isEnvelope(first)) {
    report(
      '/documents/0/schemaVersion',
      'a write-context-readback bundle starts with the TaskRecoveryStateV5 envelope that was read back.',
    );
    return;
  }
  const e = first as unknown as TaskRecoveryStateV5;
  rest.forEach((d, k) => {
    const at = `/documents/${k + 1}`;
    if (d.schemaVersion !== 'CanonicalTaskWriteContextV1') {
      report(
        `${at}/schemaVersion`,
        `after the envelope a write-context-readback bundle holds CanonicalTaskWriteContextV1 documents, not ${d.schemaVersion}.`,
      );
      return;
    }
    const c = d as unknown as CanonicalTaskWriteContextV1;
    if (c.envelopeDigest !== e.envelopeDigest) {
      report(
        `${at}/envelopeDigest`,
        'the context names another envelope than the one in the bundle; read the write context again from storage.',
      );
      return;
    }
    for (const [field, derive, source] of DERIVATION) {
      const want = derive(e);
      if (c[field] !== want) {
        report(
          `${at}/${field}`,
          `${field} is ${show(c[field])} but the envelope read back has ${source} ${show(want)}; a write context is built from a fresh read of storage, never from a caller's copy.`,
        );
      }
    }
    if (compareTime(c.readAt, e.committedAt) < 0) {
      report(
        `${at}/readAt`,
        `readAt ${c.readAt} is earlier than the envelope's committedAt ${e.committedAt}; an envelope cannot be read back before it was committed.`,
      );
    }
  });
}

/** Cross-document rules of the bundle kind `write-context-readback`. */
export const READBACK_RULES: readonly BundleRule[] = [
  bundleRule(
    'TASK_WRITE_CONTEXT_READBACK_MISMATCH',
    READBACK_BUNDLE,
    SECTION.context,
    'Each write context after the envelope names that envelope, equals its derivation field by field, and was read no earlier than the envelope was committed (write context invariant 2).',
    (documents) =>
      collect('TASK_WRITE_CONTEXT_READBACK_MISMATCH', SECTION.context, (report) =>
        readback(documents, report),
      ),
  ),
];
