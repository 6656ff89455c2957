// Semantic rules of the TaskContinuityWriteGate (docs/spec/task-continuity-write-gate.md): the
// invariants of its seven contracts that a JSON Schema cannot express, and the envelope-sequence
// and write-context-readback bundles. Digest fields are recomputed by the DIGEST_RULES (with the
// spec's codes), not here. Embedded documents (the envelope's lease, operation set and receipt,
// the set's unresolved record) are judged by the same checks as standalone ones, at their path.
import {
  checkOperationSetTransition,
  checkOwnerTransition,
  isOwnerOperation,
  isOwnerTransitionAllowed,
  OWNER_TRANSITION_TABLE,
} from '@agent-contracts/engines';
import {
  type CanonicalTaskWriteContextV1,
  envelopeDigestOf,
  type FencedTaskWriteOwnerLeaseV2,
  type TaskOperationRecordV1,
  type TaskOperationSetV1,
  type TaskRecoveryCommitFenceV1,
  type TaskRecoveryStateV5,
  type WorkflowTaskTerminalReceiptV1,
} from '@agent-contracts/schemas';
import { describeValue, resolvePointer } from '../pointer.js';
import { bundleRule, collect, type Report, reportingRule } from './kit.js';
import type { BundleRule, ContractDocument, SemanticRule } from './types.js';

export const PAGE = 'docs/spec/task-continuity-write-gate.md';
export const SECTION = {
  envelope: `${PAGE}#taskrecoverystatev5`,
  fence: `${PAGE}#taskrecoverycommitfencev1`,
  lease: `${PAGE}#fencedtaskwriteownerleasev2`,
  ownerTable: `${PAGE}#owner-transition-table`,
  context: `${PAGE}#canonicaltaskwritecontextv1`,
  record: `${PAGE}#taskoperationrecordv1`,
  phaseShape: `${PAGE}#phase-shape`,
  edgeTable: `${PAGE}#operation-edge-table`,
  set: `${PAGE}#taskoperationsetv1`,
  receipt: `${PAGE}#workflowtaskterminalreceiptv1`,
} as const;

/** Reports issues of one code under one spec section. */
/** The instant of an RFC 3339 UTC timestamp as a sortable string (fraction padded to 9 digits). */
export function instant(ts: string): string {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?Z$/.exec(ts);
  return m ? `${m[1]}.${(m[2] ?? '').padEnd(9, '0')}` : ts;
}

/** Compare two timestamps by instant: negative, 0 or positive. */
export function compareTime(a: string, b: string): number {
  const x = instant(a);
  const y = instant(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

const show = describeValue;

// ---------------------------------------------------------------------------------------------
// TaskOperationRecordV1

type Phase = TaskOperationRecordV1['phase'];
type Presence = 'null' | 'set' | 'any' | 'iff-observed';
interface ShapeRow {
  effects: readonly TaskOperationRecordV1['effect'][];
  dispatchedAt: Presence;
  observedAt: Presence;
  settledAt: Presence;
  resultDigest: Presence;
  evidenceDigest: Presence;
}

/** The phase shape table of docs/spec (one row per phase). */
export const PHASE_SHAPE: Readonly<Record<Phase, ShapeRow>> = {
  prepared: {
    effects: ['none'],
    dispatchedAt: 'null',
    observedAt: 'null',
    settledAt: 'null',
    resultDigest: 'null',
    evidenceDigest: 'null',
  },
  dispatched: {
    effects: ['unknown'],
    dispatchedAt: 'set',
    observedAt: 'null',
    settledAt: 'null',
    resultDigest: 'null',
    evidenceDigest: 'null',
  },
  observed: {
    effects: ['unknown'],
    dispatchedAt: 'set',
    observedAt: 'set',
    settledAt: 'null',
    resultDigest: 'set',
    evidenceDigest: 'null',
  },
  'reconcile-required': {
    effects: ['unknown'],
    dispatchedAt: 'set',
    observedAt: 'any',
    settledAt: 'null',
    resultDigest: 'iff-observed',
    evidenceDigest: 'null',
  },
  settled: {
    effects: ['known-applied', 'known-not-applied'],
    dispatchedAt: 'set',
    observedAt: 'any',
    settledAt: 'set',
    resultDigest: 'iff-observed',
    evidenceDigest: 'set',
  },
  'aborted-zero-effect': {
    effects: ['none'],
    dispatchedAt: 'null',
    observedAt: 'null',
    settledAt: 'set',
    resultDigest: 'null',
    evidenceDigest: 'null',
  },
};

/** Phases an operation may be in while it is the set's `unresolved` record. */
export const UNRESOLVED_PHASES: readonly Phase[] = [
  'prepared',
  'dispatched',
  'observed',
  'reconcile-required',
];

const SHAPE_FIELDS = ['dispatchedAt', 'observedAt', 'settledAt', 'resultDigest', 'evidenceDigest'] as const;

function recordShape(r: TaskOperationRecordV1, base: string, report: Report): void {
  const row = PHASE_SHAPE[r.phase];
  if (!row) return;
  if (!row.effects.includes(r.effect)) {
    report(
      `${base}/effect`,
      `effect is ${show(r.effect)} but phase ${r.phase} requires ${row.effects.join(' or ')}; ` +
        'rebuild the record from its phase (see the phase shape table).',
    );
  }
  for (const field of SHAPE_FIELDS) {
    const value = r[field];
    const want: Presence =
      row[field] === 'iff-observed' ? (r.observedAt === null ? 'null' : 'set') : row[field];
    if (want === 'any' || (want === 'null') === (value === null)) continue;
    if (r.phase === 'aborted-zero-effect' && field === 'dispatchedAt') {
      report(
        `${base}/dispatchedAt`,
        `an aborted-zero-effect operation has dispatchedAt ${show(value)}: an operation that was dispatched ` +
          'can never be aborted with zero effect; move it to reconcile-required and reconcile it with evidence.',
      );
      continue;
    }
    report(
      `${base}/${field}`,
      `${field} is ${show(value)} but in phase ${r.phase} it must be ${want === 'null' ? 'null' : 'set'}` +
        `${row[field] === 'iff-observed' ? ' (set exactly when observedAt is)' : ''}; ` +
        'rebuild the record from its phase (see the phase shape table).',
    );
  }
}

function recordTimestamps(r: TaskOperationRecordV1, base: string, report: Report): void {
  const chain: Array<[string, string | null]> = [
    ['preparedAt', r.preparedAt],
    ['dispatchedAt', r.dispatchedAt],
    ['observedAt', r.observedAt],
    ['settledAt', r.settledAt],
  ];
  let prev: [string, string] | null = null;
  for (const [name, value] of chain) {
    if (value === null) continue;
    if (prev && compareTime(value, prev[1]) < 0) {
      report(
        `${base}/${name}`,
        `${name} ${value} is earlier than ${prev[0]} ${prev[1]}; the phase timestamps that are set must be ` +
          'ordered preparedAt <= dispatchedAt <= observedAt <= settledAt (each is the commit time of its edge).',
      );
    }
    prev = [name, value];
  }
}

/** Order of JCS keys and of `exactTargets`: UTF-16 code units. */
export function compareUtf16(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function recordTargets(r: TaskOperationRecordV1, base: string, report: Report): void {
  r.exactTargets.forEach((t, i) => {
    const p = `${base}/exactTargets/${i}`;
    if (t.normalize('NFKC') !== t) {
      report(
        p,
        `target ${show(t)} is not NFKC-normalised; normalise it (NFKC), re-sort and recompute targetSetDigest.`,
      );
    } else if (t.trim() !== t) {
      report(
        p,
        `target ${show(t)} has surrounding whitespace; trim it, re-sort and recompute targetSetDigest.`,
      );
    } else if (t.includes('\\')) {
      report(p, `target ${show(t)} contains "\\"; use "/" as the only separator.`);
    }
    const prev = r.exactTargets[i - 1];
    if (i > 0 && prev !== undefined && compareUtf16(prev, t) >= 0) {
      report(
        p,
        `target ${show(t)} ${prev === t ? 'repeats' : 'sorts before'} the previous target ${show(prev)}; ` +
          'exactTargets are unique and sorted ascending by UTF-16 code units.',
      );
    }
  });
}

// ---------------------------------------------------------------------------------------------
// TaskOperationSetV1

function setInvariants(s: TaskOperationSetV1, base: string, report: Report): void {
  const u = s.unresolved;
  if (u && !UNRESOLVED_PHASES.includes(u.phase)) {
    report(
      `${base}/unresolved/phase`,
      `the unresolved record is in phase ${u.phase}, which is resolved; a settled or aborted operation leaves ` +
        '`unresolved` (set it to null) and is referenced from `settled`.',
    );
  }
  const ids = new Map<string, number>();
  const keys = new Map<string, string>();
  if (u) keys.set(u.idempotencyKey, `${base}/unresolved`);
  s.settled.forEach((ref, i) => {
    const p = `${base}/settled/${i}`;
    if (ids.has(ref.operationId) || u?.operationId === ref.operationId) {
      report(
        `${p}/operationId`,
        `operationId ${show(ref.operationId)} appears twice in the set; operation ids are unique within a task.`,
      );
    }
    ids.set(ref.operationId, i);
    const other = keys.get(ref.idempotencyKey);
    if (other !== undefined) {
      report(
        `${p}/idempotencyKey`,
        `idempotencyKey ${show(ref.idempotencyKey)} is also used at ${other}; an idempotency key is never reused by another operation of the task.`,
      );
    }
    keys.set(ref.idempotencyKey, p);
    const prev = s.settled[i - 1];
    if (prev && compareTime(ref.settledAt, prev.settledAt) < 0) {
      report(
        `${p}/settledAt`,
        `settledAt ${ref.settledAt} is earlier than the previous reference's ${prev.settledAt}; \`settled\` is in resolution order, oldest first.`,
      );
    }
    const known = ref.effect === 'known-applied' || ref.effect === 'known-not-applied';
    if (ref.phase === 'settled' ? !known : ref.effect !== 'none') {
      report(
        `${p}/effect`,
        `a reference in phase ${ref.phase} has effect ${show(ref.effect)}; settled needs known-applied or known-not-applied, aborted-zero-effect needs none.`,
      );
    }
  });
  const want = Math.min(s.settledTotal, 64);
  if (s.settled.length !== want) {
    report(
      `${base}/settled`,
      `settled has ${s.settled.length} references but settledTotal ${s.settledTotal} requires min(settledTotal, 64) = ${want}; ` +
        'keep the 64 most recent resolved operations and count every one in settledTotal.',
    );
  }
}

// ---------------------------------------------------------------------------------------------
// FencedTaskWriteOwnerLeaseV2

/** The lease status each owner transition produces (owner transition table, "To status"). */
export const STATUS_AFTER: Readonly<
  Record<FencedTaskWriteOwnerLeaseV2['transitionRef']['operation'], string>
> = {
  acquire: 'active',
  renew: 'active',
  release: 'released',
  reacquire: 'active',
  'handoff-prepare': 'handoff-pending',
  'handoff-accept': 'active',
  'takeover-prepare': 'takeover-pending',
  'takeover-accept': 'active',
  terminal: 'terminal',
  reopen: 'active',
};

function leaseInvariants(l: FencedTaskWriteOwnerLeaseV2, base: string, report: Report): void {
  const op = l.transitionRef.operation;
  // 2: refs exactly with their pending status.
  if ((l.handoffRef !== null) !== (l.status === 'handoff-pending')) {
    report(
      `${base}/handoffRef`,
      `handoffRef is ${l.handoffRef === null ? 'null' : 'set'} on a ${l.status} lease; it is non-null exactly when status is handoff-pending.`,
    );
  }
  if ((l.takeoverRef !== null) !== (l.status === 'takeover-pending')) {
    report(
      `${base}/takeoverRef`,
      `takeoverRef is ${l.takeoverRef === null ? 'null' : 'set'} on a ${l.status} lease; it is non-null exactly when status is takeover-pending.`,
    );
  }
  // 3: diagnostic expiry shape.
  const closed = l.status === 'released' || l.status === 'terminal';
  const cmp = compareTime(l.expiresAt, l.issuedAt);
  if (closed ? cmp !== 0 : cmp <= 0) {
    report(
      `${base}/expiresAt`,
      `expiresAt ${l.expiresAt} must ${closed ? 'equal' : 'be later than'} issuedAt ${l.issuedAt} on a ${l.status} lease.`,
    );
  }
  // 4: transition timestamps and prior lease.
  if (compareTime(l.transitionRef.committedAt, l.issuedAt) !== 0) {
    report(
      `${base}/transitionRef/committedAt`,
      `transitionRef.committedAt ${l.transitionRef.committedAt} differs from issuedAt ${l.issuedAt}; a lease is issued by the commit of its transition.`,
    );
  }
  if ((l.transitionRef.priorLeaseDigest === null) !== (op === 'acquire')) {
    report(
      `${base}/transitionRef/priorLeaseDigest`,
      `transitionRef.priorLeaseDigest is ${show(l.transitionRef.priorLeaseDigest)} for ${op}; it is null exactly for acquire and otherwise names the replaced lease.`,
    );
  }
  for (const key of ['handoffRef', 'takeoverRef'] as const) {
    const ref = l[key];
    if (!ref) continue;
    if (compareTime(ref.preparedAt, l.issuedAt) !== 0) {
      report(
        `${base}/${key}/preparedAt`,
        `${key}.preparedAt ${ref.preparedAt} differs from issuedAt ${l.issuedAt}; the pending lease is issued by its prepare commit.`,
      );
    }
    if (
      l.transitionRef.priorLeaseDigest !== null &&
      ref.fromLeaseDigest !== l.transitionRef.priorLeaseDigest
    ) {
      report(
        `${base}/${key}/fromLeaseDigest`,
        `${key}.fromLeaseDigest differs from transitionRef.priorLeaseDigest; the prepare revokes exactly the lease it replaced.`,
      );
    }
  }
  // 5: operation and status agree; acquire starts every counter.
  if (STATUS_AFTER[op] !== l.status) {
    report(
      `${base}/status`,
      `status is ${l.status} but transition ${op} produces a ${STATUS_AFTER[op]} lease (owner transition table).`,
    );
  }
  if (op === 'acquire') {
    const start = { ownerGeneration: 1, leaseRevision: 1, revocationEpoch: 0, reopenGeneration: 0 } as const;
    for (const [field, value] of Object.entries(start) as Array<[keyof typeof start, number]>) {
      if (l[field] !== value) {
        report(`${base}/${field}`, `an acquired lease starts with ${field} ${value}, not ${l[field]}.`);
      }
    }
  }
  // 7: a handoff goes to another session.
  if (l.handoffRef && l.handoffRef.targetSessionDigest === l.sessionDigest) {
    report(
      `${base}/handoffRef/targetSessionDigest`,
      'handoffRef.targetSessionDigest is the revoked holder itself; a handoff names a different session (a holder continues with renew).',
    );
  }
  // 6: generation steps are revision steps, and every revocation and reopen is a generation step.
  // (acquire's counters are pinned exactly above.)
  if (op === 'acquire') return;
  if (l.ownerGeneration > l.leaseRevision) {
    report(
      `${base}/ownerGeneration`,
      `ownerGeneration ${l.ownerGeneration} exceeds leaseRevision ${l.leaseRevision}; every generation step is also a revision step.`,
    );
  } else if (l.ownerGeneration < 1 + l.revocationEpoch + l.reopenGeneration) {
    report(
      `${base}/ownerGeneration`,
      `ownerGeneration ${l.ownerGeneration} is below 1 + revocationEpoch (${l.revocationEpoch}) + reopenGeneration (${l.reopenGeneration}); ` +
        'every revocation and every reopen raises the generation by one.',
    );
  }
}

// ---------------------------------------------------------------------------------------------
// WorkflowTaskTerminalReceiptV1

/** The four evidence roles, in their required (sorted) order. */
export const EVIDENCE_ROLES = ['change-record', 'completion', 'memory', 'report'] as const;

function receiptGenerations(r: WorkflowTaskTerminalReceiptV1, base: string, report: Report): void {
  if (r.terminalGeneration !== r.ownerGeneration + 1) {
    report(
      `${base}/terminalGeneration`,
      `terminalGeneration is ${r.terminalGeneration} but must be ownerGeneration + 1 = ${r.ownerGeneration + 1} (terminal raises the generation by one).`,
    );
  }
  if (r.expectedWriterGeneration !== r.ownerGeneration) {
    report(
      `${base}/expectedWriterGeneration`,
      `expectedWriterGeneration ${r.expectedWriterGeneration} differs from ownerGeneration ${r.ownerGeneration}; the closing fence's generation is the closing lease's.`,
    );
  }
}

function receiptRoles(r: WorkflowTaskTerminalReceiptV1, base: string, report: Report): void {
  const i = r.evidence.findIndex((e, k) => e.role !== EVIDENCE_ROLES[k]);
  if (i < 0) return;
  const roles = r.evidence.map((e) => e.role);
  const missing = EVIDENCE_ROLES.filter((role) => !roles.includes(role));
  report(
    `${base}/evidence/${i}/role`,
    `evidence roles are [${roles.join(', ')}]; a closeout needs exactly ${EVIDENCE_ROLES.join(', ')}, once each, in that order` +
      `${missing.length ? ` (missing: ${missing.join(', ')})` : ''}.`,
  );
}

function receiptPaths(r: WorkflowTaskTerminalReceiptV1, base: string, report: Report): void {
  const seen = new Map<string, number>();
  r.evidence.forEach((e, i) => {
    const j = seen.get(e.path);
    if (j !== undefined) {
      report(
        `${base}/evidence/${i}/path`,
        `evidence ${i} (${e.role}) names the same file as evidence ${j} (${show(e.path)}); each role needs its own file.`,
      );
    }
    seen.set(e.path, i);
  });
}

// ---------------------------------------------------------------------------------------------
// TaskRecoveryStateV5 (single envelope)

/** For `owner-<op>` kinds: the owner transition; `null` for state and operation kinds. */
export function ownerOperationOf(kind: TaskRecoveryStateV5['commitKind']): string | null {
  return kind.startsWith('owner-') ? kind.slice('owner-'.length) : null;
}

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
  Record<string, { phase: Phase; stamp: keyof TaskOperationRecordV1 | null }>
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

// ---------------------------------------------------------------------------------------------
// Rule assembly: one rule per (code, contract); embedded documents checked at their path.

type Check<T> = (doc: T, base: string, report: Report) => void;

/** The record check applied to a standalone record, a set's unresolved record and an envelope's. */
function recordRules(
  code: string,
  section: string,
  description: string,
  check: Check<TaskOperationRecordV1>,
) {
  return [
    reportingRule<TaskOperationRecordV1>(code, 'TaskOperationRecordV1', section, description, (r, report) =>
      check(r, '', report),
    ),
    reportingRule<TaskOperationSetV1>(
      code,
      'TaskOperationSetV1',
      section,
      `${description} (the unresolved record)`,
      (s, report) => {
        if (s.unresolved) check(s.unresolved, '/unresolved', report);
      },
    ),
    reportingRule<TaskRecoveryStateV5>(
      code,
      'TaskRecoveryStateV5',
      section,
      `${description} (the embedded unresolved record)`,
      (e, report) => {
        if (e.operations.unresolved) check(e.operations.unresolved, '/operations/unresolved', report);
      },
    ),
  ];
}

function fenceInvariant(f: TaskRecoveryCommitFenceV1, report: Report): void {
  if ((f.stateSequence === 0) !== (f.writerGeneration === 0)) {
    report(
      '/writerGeneration',
      `fence (${f.stateSequence}, ${f.writerGeneration}) is impossible: (0, 0) is the fence of a task never written and every written task has both members >= 1; send the fence of the last write context.`,
    );
  } else if (f.writerGeneration > f.stateSequence) {
    report(
      '/writerGeneration',
      `fence (${f.stateSequence}, ${f.writerGeneration}) is impossible: writerGeneration never exceeds stateSequence (the first commit is (1, 1) and every generation step is a commit); send the fence of the last write context.`,
    );
  }
}

/** Semantic rules of this area's contracts (one per code and contract), in spec order. */
export const TASK_CONTINUITY_RULES: readonly SemanticRule[] = [
  // TaskRecoveryStateV5
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
  // TaskRecoveryCommitFenceV1
  reportingRule<TaskRecoveryCommitFenceV1>(
    'LIFECYCLE_STATE_FENCE_REQUIRED',
    'TaskRecoveryCommitFenceV1',
    SECTION.fence,
    'A fence is (0, 0) or has 1 <= writerGeneration <= stateSequence (invariant 1).',
    fenceInvariant,
  ),
  // FencedTaskWriteOwnerLeaseV2
  reportingRule<FencedTaskWriteOwnerLeaseV2>(
    'FENCED_TASK_WRITE_OWNER_INVALID',
    'FencedTaskWriteOwnerLeaseV2',
    SECTION.lease,
    'Refs exactly with their pending status, expiry shape, transition timestamps and prior lease, status consistent with the transition, acquire counters, generation bounds, handoff to another session (invariants 2 to 7).',
    (l, report) => leaseInvariants(l, '', report),
  ),
  // TaskOperationRecordV1 (and the records embedded in sets and envelopes)
  ...recordRules(
    'TASK_OPERATION_PHASE_SHAPE_INVALID',
    SECTION.phaseShape,
    'The record matches its phase’s row of the phase shape table (effect, which timestamps and digests are set); in particular an aborted-zero-effect record was never dispatched',
    recordShape,
  ),
  ...recordRules(
    'TASK_OPERATION_TIMESTAMP_ORDER_INVALID',
    SECTION.phaseShape,
    'The phase timestamps that are set are ordered preparedAt <= dispatchedAt <= observedAt <= settledAt',
    recordTimestamps,
  ),
  ...recordRules(
    'TASK_OPERATION_TARGETS_INVALID',
    SECTION.record,
    'exactTargets are NFKC-normalised, trimmed, without "\\", unique and sorted by UTF-16 code units',
    recordTargets,
  ),
  // TaskOperationSetV1
  reportingRule<TaskOperationSetV1>(
    'TASK_OPERATION_SET_INVALID',
    'TaskOperationSetV1',
    SECTION.set,
    'unresolved is null or in an unresolved phase; operation ids and idempotency keys unique; settled.length = min(settledTotal, 64) in settledAt order; settled refs have known effects and aborted refs none (invariants 1 to 4).',
    (s, report) => setInvariants(s, '', report),
  ),
  // WorkflowTaskTerminalReceiptV1
  reportingRule<WorkflowTaskTerminalReceiptV1>(
    'TASK_TERMINAL_RECEIPT_INVALID',
    'WorkflowTaskTerminalReceiptV1',
    SECTION.receipt,
    'terminalGeneration = ownerGeneration + 1 and expectedWriterGeneration = ownerGeneration (invariant 2).',
    (r, report) => receiptGenerations(r, '', report),
  ),
  reportingRule<WorkflowTaskTerminalReceiptV1>(
    'TASK_TERMINAL_EVIDENCE_INCOMPLETE',
    'WorkflowTaskTerminalReceiptV1',
    SECTION.receipt,
    'evidence has the roles change-record, completion, memory, report, once each, in that order (invariant 3).',
    (r, report) => receiptRoles(r, '', report),
  ),
  reportingRule<WorkflowTaskTerminalReceiptV1>(
    'TASK_TERMINAL_EVIDENCE_DUPLICATE',
    'WorkflowTaskTerminalReceiptV1',
    SECTION.receipt,
    'evidence names four distinct paths (invariant 3).',
    (r, report) => receiptPaths(r, '', report),
  ),
];

// ---------------------------------------------------------------------------------------------
// Bundles. `envelope-sequence`: consecutive TaskRecoveryStateV5 envelopes of one task, oldest
// first (invariants 10 to 15 and the terminal receipt's invariant 4). The owner and operation
// tables are the engines' (one copy of each table). `write-context-readback`: an envelope followed
// by write contexts read back from it (write context invariant 2).

const SEQUENCE_BUNDLE = 'envelope-sequence';
const READBACK_BUNDLE = 'write-context-readback';

/** JCS-equivalent equality of two JSON values (key order ignored). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => sameJson(v, bb[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every(
      (k) =>
        Object.hasOwn(b, k) && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
    )
  );
}

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

const isEnvelope = (d: ContractDocument) => d.schemaVersion === 'TaskRecoveryStateV5';

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

/** Cross-document rules of this area's bundle kinds (`envelope-sequence`, `write-context-readback`). */
export const TASK_CONTINUITY_BUNDLE_RULES: readonly BundleRule[] = [
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
