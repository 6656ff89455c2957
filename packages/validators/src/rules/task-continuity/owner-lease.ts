// Semantic rules of FencedTaskWriteOwnerLeaseV2
// (docs/spec/task-continuity-write-gate.md#fencedtaskwriteownerleasev2), whose invariants are also
// judged on the lease a TaskRecoveryStateV5 embeds (envelope.ts).
import type { FencedTaskWriteOwnerLeaseV2 } from '@agent-contracts/schemas';
import { type Report, reportingRule } from '../kit.js';
import type { SemanticRule } from '../types.js';
import { compareTime, SECTION, show } from './shared.js';

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

/** FencedTaskWriteOwnerLeaseV2 invariants 2 to 7 on the lease at `base`. */
export function leaseInvariants(l: FencedTaskWriteOwnerLeaseV2, base: string, report: Report): void {
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

/** Semantic rules of FencedTaskWriteOwnerLeaseV2. */
export const LEASE_RULES: readonly SemanticRule[] = [
  reportingRule<FencedTaskWriteOwnerLeaseV2>(
    'FENCED_TASK_WRITE_OWNER_INVALID',
    'FencedTaskWriteOwnerLeaseV2',
    SECTION.lease,
    'Refs exactly with their pending status, expiry shape, transition timestamps and prior lease, status consistent with the transition, acquire counters, generation bounds, handoff to another session (invariants 2 to 7).',
    (l, report) => leaseInvariants(l, '', report),
  ),
];
