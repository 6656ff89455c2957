// Cross-document rules of the bundle kind `envelope-sequence`: consecutive TaskRecoveryStateV5
// envelopes of one task, oldest first (docs/spec/task-continuity-write-gate.md#taskrecoverystatev5
// invariants 10 to 15 and the terminal receipt's invariant 4). The owner and operation tables are
// the engines' (one copy of each table).
import {
  checkOperationSetTransition,
  checkOwnerTransition,
  isOwnerOperation,
  isOwnerTransitionAllowed,
  OWNER_TRANSITION_TABLE,
} from '@agent-contracts/engines';
import type { TaskRecoveryStateV5, WorkflowTaskTerminalReceiptV1 } from '@agent-contracts/schemas';
import { resolvePointer } from '../../pointer.js';
import { sameJson } from '../json.js';
import { bundleRule, collect, type Report } from '../kit.js';
import type { BundleRule, ContractDocument } from '../types.js';
import { compareTime, instant, isEnvelope, ownerOperationOf, SECTION, show } from './shared.js';

const SEQUENCE_BUNDLE = 'envelope-sequence';

/**
 * The most specific pointer an engine message names: the first identifier in `message` that
 * resolves under one of `bases` inside `doc`, else `fallback`. Engine checks return a code and a
 * message, not a path; their messages name the field they judge.
 */
function pointerFromMessage(
  doc: unknown,
  bases: readonly string[],
  message: string,
  fallback: string,
): string {
  for (const m of message.matchAll(/[A-Za-z][A-Za-z0-9]*(?:\.[A-Za-z][A-Za-z0-9]*)*/g)) {
    for (const base of bases) {
      const pointer = `${base}/${m[0].replace(/\./g, '/')}`;
      if (resolvePointer(doc, pointer).found) return pointer;
    }
  }
  return fallback;
}

/** `writerGeneration` step of a commit kind (invariant 12): the owner table's, 0 for every other kind. */
export function generationDelta(kind: TaskRecoveryStateV5['commitKind']): number {
  const op = ownerOperationOf(kind);
  if (op === null || op === 'acquire' || !isOwnerOperation(op)) return 0;
  return OWNER_TRANSITION_TABLE[op].deltas.ownerGeneration;
}

const generationBroken = (p: TaskRecoveryStateV5, n: TaskRecoveryStateV5) =>
  n.writerGeneration - p.writerGeneration !== generationDelta(n.commitKind);

// One root cause, one code: a pair of envelopes of different tasks is reported only as an
// identity mismatch, and a wrong generation step only as a generation issue, not again as a
// changed or mis-transitioned lease.
const sameTask = (p: TaskRecoveryStateV5, n: TaskRecoveryStateV5) =>
  p.taskId === n.taskId && p.projectRootIdentity === n.projectRootIdentity;

/** Run `check` on every consecutive pair of envelopes (P at i - 1, N at i). */
function pairs(
  code: string,
  section: string,
  check: (p: TaskRecoveryStateV5, n: TaskRecoveryStateV5, at: string, report: Report) => void,
) {
  return (documents: readonly ContractDocument[]) =>
    collect(code, section, (report) => {
      for (let i = 1; i < documents.length; i++) {
        const p = documents[i - 1]!;
        const n = documents[i]!;
        if (!isEnvelope(p) || !isEnvelope(n)) continue;
        check(
          p as unknown as TaskRecoveryStateV5,
          n as unknown as TaskRecoveryStateV5,
          `/documents/${i}`,
          report,
        );
      }
    });
}

function sequenceLinks(p: TaskRecoveryStateV5, n: TaskRecoveryStateV5, at: string, report: Report): void {
  if (n.sequence !== p.sequence + 1) {
    report(
      `${at}/sequence`,
      `sequence ${n.sequence} follows ${p.sequence}; consecutive envelopes differ by exactly 1 (a gap or a fork). Give the envelopes of one task in commit order, without gaps.`,
    );
  }
  if (n.previousEnvelopeDigest !== p.envelopeDigest) {
    report(
      `${at}/previousEnvelopeDigest`,
      `previousEnvelopeDigest ${show(n.previousEnvelopeDigest)} is not the previous envelope's envelopeDigest ${show(p.envelopeDigest)}; the hash chain is broken, so treat the chain as corrupt from here on.`,
    );
  }
  if (compareTime(n.committedAt, p.committedAt) < 0) {
    report(
      `${at}/committedAt`,
      `committedAt ${n.committedAt} is earlier than the previous envelope's ${p.committedAt}; a store commits at the later of its clock and the previous commit time.`,
    );
  }
}

function ownerTransition(p: TaskRecoveryStateV5, n: TaskRecoveryStateV5, at: string, report: Report): void {
  const op = ownerOperationOf(n.commitKind);
  if (op === null || !isOwnerOperation(op) || generationBroken(p, n) || !sameTask(p, n)) return;
  if (!isOwnerTransitionAllowed(p.owner.status, op)) {
    report(
      `${at}/commitKind`,
      `${op} is not a transition from a ${p.owner.status} lease (owner transition table: ${OWNER_TRANSITION_TABLE[
        op
      ].from
        .map((s) => s ?? 'no envelope')
        .join(
          ', ',
        )}); ${p.owner.status === 'terminal' ? 'a closed task only reopens' : 'pick an operation the status allows'}.`,
    );
    return;
  }
  const result = checkOwnerTransition(p.owner, n.owner, op);
  if (!result.ok) {
    report(`${at}${pointerFromMessage(n, ['/owner'], result.message, '/owner')}`, result.message);
  }
}

function operationTransition(
  p: TaskRecoveryStateV5,
  n: TaskRecoveryStateV5,
  at: string,
  report: Report,
): void {
  if (!n.commitKind.startsWith('operation-')) return;
  const result = checkOperationSetTransition(p.operations, n.operations, n.commitKind, {
    envelopeWriterGeneration: n.writerGeneration,
  });
  if (!result.ok) {
    const fallback = n.operations.unresolved ? '/operations/unresolved' : '/operations/settled';
    report(
      `${at}${pointerFromMessage(n, ['/operations/unresolved', '/operations'], result.message, fallback)}`,
      result.message,
    );
    return;
  }
  const u = n.operations.unresolved;
  if (n.commitKind === 'operation-prepare' && u && u.expectedStateSequence !== p.sequence) {
    report(
      `${at}/operations/unresolved/expectedStateSequence`,
      `the prepared operation's expectedStateSequence is ${u.expectedStateSequence} but the prepare matched the fence of sequence ${p.sequence}.`,
    );
  }
}

function commitKindScope(p: TaskRecoveryStateV5, n: TaskRecoveryStateV5, at: string, report: Report): void {
  const owner = ownerOperationOf(n.commitKind) !== null;
  const operation = n.commitKind.startsWith('operation-');
  if (!owner && !generationBroken(p, n) && sameTask(p, n) && n.owner.leaseDigest !== p.owner.leaseDigest) {
    report(
      `${at}/owner`,
      `a ${n.commitKind} commit changed the owner lease; only owner transitions (transitionOwner) change it.`,
    );
  }
  if (!operation && !sameJson(n.operations, p.operations)) {
    report(
      `${at}/operations`,
      `a ${n.commitKind} commit changed the operation set; only operation commits (commitOperation) change it.`,
    );
  }
  if (owner && n.stateDigest !== p.stateDigest) {
    report(
      `${at}/state`,
      `an ${n.commitKind} commit changed the application state; owner transitions carry the state unchanged.`,
    );
  }
  let lineage = p.terminalLineage;
  let receiptUnchanged = true;
  if (n.commitKind === 'owner-terminal') {
    receiptUnchanged = false;
    const last = n.terminalLineage[n.terminalLineage.length - 1];
    lineage = [...p.terminalLineage.slice(p.terminalLineage.length >= 64 ? 1 : 0), ...(last ? [last] : [])];
  } else if (n.commitKind === 'owner-reopen') {
    receiptUnchanged = false;
  }
  if (receiptUnchanged && !sameJson(n.terminalReceipt, p.terminalReceipt)) {
    report(
      `${at}/terminalReceipt`,
      `a ${n.commitKind} commit changed the terminal receipt; only owner-terminal sets it and owner-reopen clears it.`,
    );
  }
  if (!sameJson(n.terminalLineage, lineage)) {
    report(
      `${at}/terminalLineage`,
      n.commitKind === 'owner-terminal'
        ? 'owner-terminal appends exactly one lineage entry to the previous lineage (dropping the oldest beyond 64) and changes nothing else in it.'
        : `a ${n.commitKind} commit changed terminalLineage; only owner-terminal appends to it.`,
    );
  }
}

function terminalBinding(p: TaskRecoveryStateV5, n: TaskRecoveryStateV5, at: string, report: Report): void {
  if (n.commitKind !== 'owner-terminal' || !n.terminalReceipt) return;
  const r = n.terminalReceipt;
  const checks: Array<[keyof WorkflowTaskTerminalReceiptV1, unknown, unknown, string]> = [
    ['expectedStateSequence', r.expectedStateSequence, p.sequence, 'the previous envelope’s sequence'],
    [
      'expectedWriterGeneration',
      r.expectedWriterGeneration,
      p.writerGeneration,
      'the previous envelope’s writerGeneration',
    ],
    [
      'lifecycleRevision',
      r.lifecycleRevision,
      p.lifecycleRevision,
      'the previous envelope’s lifecycleRevision',
    ],
    [
      'priorOwnerLeaseDigest',
      r.priorOwnerLeaseDigest,
      p.owner.leaseDigest,
      'the closing (previous) lease’s leaseDigest',
    ],
    ['ownerGeneration', r.ownerGeneration, p.owner.ownerGeneration, 'the closing lease’s ownerGeneration'],
    ['holderSession', r.holderSession, p.owner.sessionDigest, 'the closing holder’s sessionDigest'],
    [
      'settledSetDigest',
      r.settledSetDigest,
      p.operations.settledSetDigest,
      'the settled set digest at closeout',
    ],
    [
      'terminalOwnerLeaseDigest',
      r.terminalOwnerLeaseDigest,
      n.owner.leaseDigest,
      'the terminal lease’s leaseDigest',
    ],
    ['issuedAt', instant(r.issuedAt), instant(n.committedAt), 'the terminal commit time'],
  ];
  for (const [field, got, want, what] of checks) {
    if (got !== want) {
      report(
        `${at}/terminalReceipt/${field}`,
        `terminalReceipt.${field} is ${show(got)} but ${what} is ${show(want)}; the receipt must bind the writer, fence and settled set it closed.`,
      );
    }
  }
}

function documentKinds(documents: readonly ContractDocument[], report: Report): void {
  documents.forEach((d, i) => {
    if (!isEnvelope(d)) {
      report(
        `/documents/${i}/schemaVersion`,
        `an envelope-sequence holds only TaskRecoveryStateV5 envelopes, not ${d.schemaVersion}.`,
      );
    }
  });
}

function identityLinks(p: TaskRecoveryStateV5, n: TaskRecoveryStateV5, at: string, report: Report): void {
  if (n.taskId !== p.taskId) {
    report(
      `${at}/taskId`,
      `taskId ${n.taskId} differs from the previous envelope's ${p.taskId}; a sequence holds the envelopes of one task.`,
    );
  }
  if (n.projectRootIdentity !== p.projectRootIdentity) {
    report(
      `${at}/projectRootIdentity`,
      'projectRootIdentity differs from the previous envelope’s; it is constant for the task’s lifetime.',
    );
  }
}

function generationStep(p: TaskRecoveryStateV5, n: TaskRecoveryStateV5, at: string, report: Report): void {
  const want = generationDelta(n.commitKind);
  if (n.writerGeneration - p.writerGeneration !== want) {
    report(
      `${at}/writerGeneration`,
      `writerGeneration moves from ${p.writerGeneration} to ${n.writerGeneration} in a ${n.commitKind} commit; it must move by exactly ${want} ` +
        '(+1 only on release, reacquire, handoff-prepare, takeover-prepare, terminal and reopen). Change ownership only through transitionOwner.',
    );
  }
}

/** Cross-document rules of the bundle kind `envelope-sequence`, in spec order. */
export const SEQUENCE_RULES: readonly BundleRule[] = [
  bundleRule(
    'LIFECYCLE_STATE_SEQUENCE_INVALID',
    SEQUENCE_BUNDLE,
    SECTION.envelope,
    'Every document is a TaskRecoveryStateV5; each envelope has the previous sequence + 1, names the previous envelopeDigest, and is committed no earlier (invariant 10).',
    (documents) => [
      ...collect('LIFECYCLE_STATE_SEQUENCE_INVALID', SECTION.envelope, (report) =>
        documentKinds(documents, report),
      ),
      ...pairs('LIFECYCLE_STATE_SEQUENCE_INVALID', SECTION.envelope, sequenceLinks)(documents),
    ],
  ),
  bundleRule(
    'LIFECYCLE_STATE_IDENTITY_MISMATCH',
    SEQUENCE_BUNDLE,
    SECTION.envelope,
    'Consecutive envelopes have the same taskId and projectRootIdentity (invariant 11).',
    pairs('LIFECYCLE_STATE_IDENTITY_MISMATCH', SECTION.envelope, identityLinks),
  ),
  bundleRule(
    'LIFECYCLE_WRITER_GENERATION_TRANSITION_INVALID',
    SEQUENCE_BUNDLE,
    SECTION.envelope,
    'writerGeneration moves by exactly +1 on owner-release, -reacquire, -handoff-prepare, -takeover-prepare, -terminal and -reopen commits and by 0 on every other commit (invariant 12).',
    pairs('LIFECYCLE_WRITER_GENERATION_TRANSITION_INVALID', SECTION.envelope, generationStep),
  ),
  bundleRule(
    'FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID',
    SEQUENCE_BUNDLE,
    SECTION.ownerTable,
    'An owner-<op> envelope’s lease follows row <op> of the owner transition table from the previous lease: allowed from its status, every counter delta, nonce, binding, refs, transitionRef and expiry (invariant 13; a wrong generation step is reported as LIFECYCLE_WRITER_GENERATION_TRANSITION_INVALID instead).',
    pairs('FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID', SECTION.ownerTable, ownerTransition),
  ),
  bundleRule(
    'TASK_OPERATION_TRANSITION_INVALID',
    SEQUENCE_BUNDLE,
    SECTION.edgeTable,
    'An operation-<event> envelope’s operation set is the named edge of the operation edge table applied to the previous set, and a prepared record names the previous sequence (invariant 14).',
    pairs('TASK_OPERATION_TRANSITION_INVALID', SECTION.edgeTable, operationTransition),
  ),
  bundleRule(
    'LIFECYCLE_STATE_COMMIT_KIND_INVALID',
    SEQUENCE_BUNDLE,
    SECTION.envelope,
    'A commit changes only what its kind may change: the lease only in owner transitions, the operation set only in operation commits, the state never in owner transitions, the receipt and lineage only at owner-terminal (set, one entry appended) and owner-reopen (receipt cleared) (invariants 13 to 15).',
    pairs('LIFECYCLE_STATE_COMMIT_KIND_INVALID', SECTION.envelope, commitKindScope),
  ),
  bundleRule(
    'WORKFLOW_TASK_TERMINAL_BINDING_MISMATCH',
    SEQUENCE_BUNDLE,
    SECTION.receipt,
    'The receipt of an owner-terminal envelope binds the previous envelope’s fence, lifecycle revision, lease, holder and settled set, and the terminal lease and commit time (receipt invariant 4).',
    pairs('WORKFLOW_TASK_TERMINAL_BINDING_MISMATCH', SECTION.receipt, terminalBinding),
  ),
];
