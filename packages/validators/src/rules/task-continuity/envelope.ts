// Semantic rules of one TaskRecoveryStateV5 envelope
// (docs/spec/task-continuity-write-gate.md#taskrecoverystatev5). The lease, operation set and
// terminal receipt it embeds are judged by the checks of their own contracts, at their path.
import type {
  TaskOperationPhase,
  TaskOperationRecordV1,
  TaskRecoveryStateV5,
} from '@agent-contracts/schemas';
import { type Report, reportingRule } from '../kit.js';
import type { SemanticRule } from '../types.js';
import { setInvariants } from './operation-set.js';
import { leaseInvariants } from './owner-lease.js';
import { compareTime, instant, ownerOperationOf, SECTION, show } from './shared.js';
import { receiptGenerations, receiptPaths, receiptRoles } from './terminal-receipt.js';

function envelopeIdentity(e: TaskRecoveryStateV5, report: Report): void {
  for (const [obj, base] of [
    [e.owner, '/owner'],
    [e.terminalReceipt, '/terminalReceipt'],
  ] as const) {
    if (!obj) continue;
    if (obj.taskId !== e.taskId) {
      report(
        `${base}/taskId`,
        `${base.slice(1)}.taskId ${obj.taskId} differs from the envelope's taskId ${e.taskId}; an envelope embeds only its own task's documents.`,
      );
    }
    if (obj.projectRootIdentity !== e.projectRootIdentity) {
      report(
        `${base}/projectRootIdentity`,
        `${base.slice(1)}.projectRootIdentity differs from the envelope's; the project root identity is constant for the task's lifetime.`,
      );
    }
  }
}

function envelopeShape(e: TaskRecoveryStateV5, report: Report): void {
  if (e.writerGeneration !== e.owner.ownerGeneration) {
    report(
      '/writerGeneration',
      `writerGeneration ${e.writerGeneration} differs from owner.ownerGeneration ${e.owner.ownerGeneration}; the fence's generation is the lease's.`,
    );
  } else if (e.writerGeneration > e.sequence) {
    report(
      '/writerGeneration',
      `writerGeneration ${e.writerGeneration} exceeds sequence ${e.sequence}; the first commit has (1, 1) and every generation step is a commit.`,
    );
  }
  if (e.lifecycleRevision !== e.owner.reopenGeneration + 1) {
    report(
      '/lifecycleRevision',
      `lifecycleRevision ${e.lifecycleRevision} must be owner.reopenGeneration + 1 = ${e.owner.reopenGeneration + 1}.`,
    );
  }
  if ((e.previousEnvelopeDigest === null) !== (e.sequence === 1)) {
    report(
      '/previousEnvelopeDigest',
      `previousEnvelopeDigest is ${show(e.previousEnvelopeDigest)} at sequence ${e.sequence}; it is null exactly for sequence 1 and otherwise the previous envelope's envelopeDigest.`,
    );
  }
  if (e.sequence === 1 && e.commitKind !== 'owner-acquire') {
    report(
      '/commitKind',
      `sequence 1 has commitKind ${e.commitKind}; the first commit of every task is owner-acquire.`,
    );
  }
  // 8: the lineage of closed lifecycle revisions.
  const lineage = e.terminalLineage;
  lineage.forEach((entry, i) => {
    const prev = lineage[i - 1];
    if (prev && entry.lifecycleRevision !== prev.lifecycleRevision + 1) {
      report(
        `/terminalLineage/${i}/lifecycleRevision`,
        `terminalLineage is not contiguous: ${entry.lifecycleRevision} follows ${prev.lifecycleRevision}; entries ascend by exactly 1.`,
      );
    }
  });
  const lastClosed = e.owner.status === 'terminal' ? e.lifecycleRevision : e.lifecycleRevision - 1;
  const last = lineage[lineage.length - 1];
  if (lastClosed === 0 && last) {
    report(
      '/terminalLineage',
      `terminalLineage has ${lineage.length} entries but lifecycle revision 1 of a ${e.owner.status} task has closed nothing; it must be empty.`,
    );
  } else if (lastClosed > 0 && last?.lifecycleRevision !== lastClosed) {
    report(
      last ? `/terminalLineage/${lineage.length - 1}/lifecycleRevision` : '/terminalLineage',
      `the last closed lifecycle revision must be ${lastClosed} (lifecycleRevision ${e.lifecycleRevision}, owner ${e.owner.status}) but terminalLineage ${last ? `ends at ${last.lifecycleRevision}` : 'is empty'}.`,
    );
  }
}

const OPERATION_RESULT: Readonly<
  Record<string, { phase: TaskOperationPhase; stamp: keyof TaskOperationRecordV1 | null }>
> = {
  'operation-prepare': { phase: 'prepared', stamp: 'preparedAt' },
  'operation-dispatch': { phase: 'dispatched', stamp: 'dispatchedAt' },
  'operation-observe': { phase: 'observed', stamp: 'observedAt' },
  'operation-mark-reconcile': { phase: 'reconcile-required', stamp: null },
  'operation-settle': { phase: 'settled', stamp: 'settledAt' },
  'operation-reconcile': { phase: 'settled', stamp: 'settledAt' },
  'operation-abort': { phase: 'aborted-zero-effect', stamp: 'settledAt' },
};

function envelopeCommitKind(e: TaskRecoveryStateV5, report: Report): void {
  const op = ownerOperationOf(e.commitKind);
  if (op !== null) {
    if (e.owner.transitionRef.operation !== op) {
      report(
        '/owner/transitionRef/operation',
        `commitKind ${e.commitKind} but the lease was produced by ${e.owner.transitionRef.operation}; an owner commit carries the lease its transition produced.`,
      );
    }
    if (compareTime(e.owner.issuedAt, e.committedAt) !== 0) {
      report(
        '/owner/issuedAt',
        `owner.issuedAt ${e.owner.issuedAt} differs from committedAt ${e.committedAt} of an ${e.commitKind} commit.`,
      );
    }
    return;
  }
  if (compareTime(e.owner.issuedAt, e.committedAt) > 0) {
    report(
      '/owner/issuedAt',
      `owner.issuedAt ${e.owner.issuedAt} is later than committedAt ${e.committedAt}; a lease cannot be issued after the commit that carries it.`,
    );
  }
  if (e.owner.status !== 'active') {
    report(
      '/owner/status',
      `a ${e.commitKind} commit on a ${e.owner.status} lease; state and operation commits need an active holder (acquire, reacquire, accept or reopen first).`,
    );
  }
  const want = OPERATION_RESULT[e.commitKind];
  if (!want) return;
  const u = e.operations.unresolved;
  if (want.phase === 'settled' || want.phase === 'aborted-zero-effect') {
    const last = e.operations.settled[e.operations.settled.length - 1];
    if (u !== null) {
      report(
        '/operations/unresolved',
        `an ${e.commitKind} commit resolves the operation, so operations.unresolved must be null.`,
      );
    } else if (!last || last.phase !== want.phase || compareTime(last.settledAt, e.committedAt) !== 0) {
      report(
        last ? `/operations/settled/${e.operations.settled.length - 1}` : '/operations/settled',
        `an ${e.commitKind} commit appends a ${want.phase} reference with settledAt = committedAt ${e.committedAt}; the last reference is ${last ? `${last.phase} at ${last.settledAt}` : 'missing'}.`,
      );
    }
    return;
  }
  if (u === null || u.phase !== want.phase) {
    report(
      u === null ? '/operations/unresolved' : '/operations/unresolved/phase',
      `an ${e.commitKind} commit leaves the operation in phase ${want.phase}, but operations.unresolved is ${u === null ? 'null' : `in phase ${u.phase}`}.`,
    );
    return;
  }
  if (want.stamp !== null && compareTime(String(u[want.stamp]), e.committedAt) !== 0) {
    report(
      `/operations/unresolved/${want.stamp}`,
      `${want.stamp} ${show(u[want.stamp])} differs from committedAt ${e.committedAt}; the edge's timestamp is its commit time.`,
    );
  }
}

function envelopeTerminalBinding(e: TaskRecoveryStateV5, report: Report): void {
  const r = e.terminalReceipt;
  const terminal = e.owner.status === 'terminal';
  if ((r !== null) !== terminal) {
    report(
      '/terminalReceipt',
      `terminalReceipt is ${r === null ? 'null' : 'set'} on a ${e.owner.status} lease; it is non-null exactly while the owner is terminal.`,
    );
    return;
  }
  if (!r) return;
  const checks: Array<[string, unknown, unknown, string]> = [
    ['terminalOwnerLeaseDigest', r.terminalOwnerLeaseDigest, e.owner.leaseDigest, 'owner.leaseDigest'],
    ['issuedAt', instant(r.issuedAt), instant(e.owner.issuedAt), 'owner.issuedAt'],
    ['lifecycleRevision', r.lifecycleRevision, e.lifecycleRevision, 'lifecycleRevision'],
    ['terminalGeneration', r.terminalGeneration, e.owner.ownerGeneration, 'owner.ownerGeneration'],
    ['holderSession', r.holderSession, e.owner.sessionDigest, 'owner.sessionDigest'],
    ['settledSetDigest', r.settledSetDigest, e.operations.settledSetDigest, 'operations.settledSetDigest'],
    ['expectedStateSequence', r.expectedStateSequence, e.sequence - 1, 'sequence - 1'],
  ];
  for (const [field, got, want, source] of checks) {
    if (got !== want) {
      report(
        `/terminalReceipt/${field}`,
        `terminalReceipt.${field} is ${show(got)} but the terminal envelope has ${source} ${show(want)}; the receipt must describe the closeout that produced this envelope.`,
      );
    }
  }
  const last = e.terminalLineage[e.terminalLineage.length - 1];
  const entry = {
    lifecycleRevision: r.lifecycleRevision,
    terminalStatus: r.terminalStatus,
    receiptDigest: r.receiptDigest,
    terminalAt: r.issuedAt,
  };
  if (
    !last ||
    last.lifecycleRevision !== entry.lifecycleRevision ||
    last.terminalStatus !== entry.terminalStatus ||
    last.receiptDigest !== entry.receiptDigest ||
    compareTime(last.terminalAt, entry.terminalAt) !== 0
  ) {
    report(
      last ? `/terminalLineage/${e.terminalLineage.length - 1}` : '/terminalLineage',
      'the last terminalLineage entry must be { lifecycleRevision, terminalStatus, receiptDigest, terminalAt } of the embedded terminal receipt.',
    );
  }
}

function envelopeOperationBounds(e: TaskRecoveryStateV5, report: Report): void {
  const u = e.operations.unresolved;
  if (!u) return;
  if (u.writerGeneration > e.writerGeneration) {
    report(
      '/operations/unresolved/writerGeneration',
      `the unresolved operation was prepared under generation ${u.writerGeneration}, later than the envelope's writerGeneration ${e.writerGeneration}.`,
    );
  }
  if (u.expectedStateSequence >= e.sequence) {
    report(
      '/operations/unresolved/expectedStateSequence',
      `the unresolved operation's expectedStateSequence ${u.expectedStateSequence} is not below the envelope's sequence ${e.sequence}; it names the envelope before its prepare.`,
    );
  }
}

/** Semantic rules of TaskRecoveryStateV5 (the single envelope), in spec order. */
export const ENVELOPE_RULES: readonly SemanticRule[] = [
  reportingRule<TaskRecoveryStateV5>(
    'LIFECYCLE_STATE_IDENTITY_MISMATCH',
    'TaskRecoveryStateV5',
    SECTION.envelope,
    'The embedded lease and terminal receipt name the envelope’s taskId and projectRootIdentity (invariant 2).',
    envelopeIdentity,
  ),
  reportingRule<TaskRecoveryStateV5>(
    'LIFECYCLE_STATE_SHAPE_INVALID',
    'TaskRecoveryStateV5',
    SECTION.envelope,
    'writerGeneration = owner.ownerGeneration <= sequence, lifecycleRevision = reopenGeneration + 1, previousEnvelopeDigest null exactly at sequence 1 (an owner-acquire), and terminalLineage contiguous, ending at the last closed lifecycle revision (invariants 3, 4, 8).',
    envelopeShape,
  ),
  reportingRule<TaskRecoveryStateV5>(
    'LIFECYCLE_STATE_COMMIT_KIND_INVALID',
    'TaskRecoveryStateV5',
    SECTION.envelope,
    'An owner-<op> envelope carries the lease of <op> issued at committedAt; a state or operation envelope has an active lease issued no later than committedAt, and an operation envelope shows its edge’s result stamped with committedAt (invariants 5, 6).',
    envelopeCommitKind,
  ),
  reportingRule<TaskRecoveryStateV5>(
    'WORKFLOW_TASK_TERMINAL_BINDING_MISMATCH',
    'TaskRecoveryStateV5',
    SECTION.envelope,
    'terminalReceipt is set exactly while the owner is terminal, describes the closeout that produced the envelope, and is the last terminalLineage entry (invariant 7).',
    envelopeTerminalBinding,
  ),
  reportingRule<TaskRecoveryStateV5>(
    'TASK_OPERATION_SET_INVALID',
    'TaskRecoveryStateV5',
    SECTION.envelope,
    'The embedded operation set satisfies TaskOperationSetV1 invariants 1 to 4, and its unresolved operation was prepared under a generation no later than the envelope’s and before its sequence (invariant 9).',
    (e, report) => {
      setInvariants(e.operations, '/operations', report);
      envelopeOperationBounds(e, report);
    },
  ),
  reportingRule<TaskRecoveryStateV5>(
    'FENCED_TASK_WRITE_OWNER_INVALID',
    'TaskRecoveryStateV5',
    SECTION.lease,
    'The embedded lease satisfies FencedTaskWriteOwnerLeaseV2 invariants 2 to 7.',
    (e, report) => leaseInvariants(e.owner, '/owner', report),
  ),
  reportingRule<TaskRecoveryStateV5>(
    'TASK_TERMINAL_RECEIPT_INVALID',
    'TaskRecoveryStateV5',
    SECTION.receipt,
    'The embedded terminal receipt has terminalGeneration = ownerGeneration + 1 and expectedWriterGeneration = ownerGeneration.',
    (e, report) => e.terminalReceipt && receiptGenerations(e.terminalReceipt, '/terminalReceipt', report),
  ),
  reportingRule<TaskRecoveryStateV5>(
    'TASK_TERMINAL_EVIDENCE_INCOMPLETE',
    'TaskRecoveryStateV5',
    SECTION.receipt,
    'The embedded terminal receipt has the four evidence roles once each, sorted by role.',
    (e, report) => e.terminalReceipt && receiptRoles(e.terminalReceipt, '/terminalReceipt', report),
  ),
  reportingRule<TaskRecoveryStateV5>(
    'TASK_TERMINAL_EVIDENCE_DUPLICATE',
    'TaskRecoveryStateV5',
    SECTION.receipt,
    'The embedded terminal receipt names four distinct evidence paths.',
    (e, report) => e.terminalReceipt && receiptPaths(e.terminalReceipt, '/terminalReceipt', report),
  ),
];
