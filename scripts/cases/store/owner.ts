// Owner transition cases: every row of the table, every unlisted (status, operation) pair, and
// the guards of a transition.
import { def, LEASE } from './defs.ts';
import { H } from './names.ts';
import { WRITE_SUMMARY } from './scenario.ts';
import {
  FENCE,
  OWNER_OPS,
  type OwnerOp,
  reach,
  reachPhase,
  S1,
  S2,
  S3,
  STATUSES,
  type Status,
  type Task,
  takeOver,
  v,
} from './task.ts';

// Owner transition table: every row positive, with its exact replay.
const ROWS: Array<[string, Status, OwnerOp, (t: Task) => Promise<void>]> = [
  ['acquire', 'none', 'acquire', async () => {}],
  ['renew', 'active', 'renew', async (t) => void (await t.sc.step('clock.advance', { ms: 60_000 }))],
  ['release', 'active', 'release', async () => {}],
  ['reacquire', 'released', 'reacquire', async () => {}],
  ['handoff-prepare', 'active', 'handoff-prepare', async () => {}],
  ['handoff-accept', 'handoff-pending', 'handoff-accept', async () => {}],
  ['takeover-prepare-from-active', 'active', 'takeover-prepare', async (t) => void (await t.context())],
  [
    'takeover-prepare-from-handoff-pending',
    'handoff-pending',
    'takeover-prepare',
    async (t) => void (await t.context()),
  ],
  [
    'takeover-prepare-from-takeover-pending',
    'takeover-pending',
    'takeover-prepare',
    async (t) => void (await t.context()),
  ],
  ['takeover-accept', 'takeover-pending', 'takeover-accept', async () => {}],
  ['terminal', 'active', 'terminal', async (t) => void (await t.context())],
  ['reopen', 'terminal', 'reopen', async () => {}],
];
for (const [name, from, op, prepare] of ROWS) {
  def(
    'owner',
    `owner/row/${name}`,
    LEASE,
    'owner-transition-table',
    `${op} from ${from === 'none' ? 'no envelope' : from}: one envelope along its row (status, counters, session binding); the identical request again is replayed and writes nothing`,
    async (t) => {
      await reach(t, from);
      await prepare(t);
      const request =
        op === 'takeover-prepare' && from === 'takeover-pending'
          ? t.ownerRequest(op, S2, {
              targetSessionDigest: S2.digest,
              takeoverEvidence: {
                readbackContextDigest: v('ctx'),
                livenessEvidenceDigest: H('liveness: no live turn'),
                reconcileReceiptDigest: H('reconcile receipt'),
              },
            })
          : t.defaultRequest(op);
      await t.sc.step('store.transitionOwner', { request }, { want: 'committed' });
      await t.sc.step('store.transitionOwner', { request }, { want: 'replayed', shape: WRITE_SUMMARY });
      await t.read({ full: true });
      await t.history();
    },
  );
}

// Owner transition table: every unlisted (status, operation) pair.
for (const from of STATUSES) {
  for (const op of OWNER_OPS) {
    const listed =
      (from === 'none' && op === 'acquire') ||
      (from === 'active' &&
        ['renew', 'release', 'handoff-prepare', 'takeover-prepare', 'terminal'].includes(op)) ||
      (from === 'released' && op === 'reacquire') ||
      (from === 'handoff-pending' && ['handoff-accept', 'takeover-prepare'].includes(op)) ||
      (from === 'takeover-pending' && ['takeover-prepare', 'takeover-accept'].includes(op)) ||
      (from === 'terminal' && op === 'reopen');
    if (listed) continue;
    // D-TCW-27: terminal on a lease that exists but is not active is the terminal owner check.
    const code =
      op === 'terminal' && from !== 'none' && from !== 'terminal'
        ? 'TASK_TERMINAL_OWNER_MISMATCH'
        : 'FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID';
    def(
      'owner',
      `owner/unlisted/${from === 'none' ? 'no-envelope' : from}/${op}`,
      LEASE,
      'owner-transition-table',
      `${op} from ${from === 'none' ? 'no envelope' : from} is not a row of the table: ${code}, nothing written`,
      async (t) => {
        await reach(t, from);
        await t.refused('store.transitionOwner', t.defaultRequest(op), code);
      },
    );
  }
}

// Owner transition guards.
const guard = (name: string, title: string, run: (t: Task) => Promise<void>) =>
  def('owner', `owner/guard/${name}`, LEASE, 'owner-transition-table', title, run);

guard(
  'acquire-stale-fence',
  'acquire of a new task with a fence other than (0, 0): LIFECYCLE_STATE_FENCE_MISMATCH',
  async (t) => {
    await t.refused(
      'store.transitionOwner',
      { ...t.ownerRequest('acquire', S1), expectedFence: FENCE(1, 1) },
      'LIFECYCLE_STATE_FENCE_MISMATCH',
    );
  },
);
guard(
  'acquire-owner-not-absent',
  'acquire of a new task with an owner ref other than { mode: "absent" }: FENCED_TASK_WRITE_OWNER_CAS_MISMATCH',
  async (t) => {
    await t.refused(
      'store.transitionOwner',
      {
        ...t.ownerRequest('acquire', S1),
        expectedOwner: {
          ownerGeneration: 1,
          ownerNonce: `owner-${'0'.repeat(40)}`,
          leaseRevision: 1,
          leaseDigest: H('lease'),
        },
      },
      'FENCED_TASK_WRITE_OWNER_CAS_MISMATCH',
    );
  },
);
guard(
  'stale-owner-ref',
  'a transition with the current fence but the owner ref of the lease before renew: FENCED_TASK_WRITE_OWNER_CAS_MISMATCH',
  async (t) => {
    await t.transition('acquire');
    await t.read({ as: 'old' });
    await t.transition('renew');
    await t.refused(
      'store.transitionOwner',
      { ...t.ownerRequest('release', S1), expectedOwner: t.owner('old') },
      'FENCED_TASK_WRITE_OWNER_CAS_MISMATCH',
    );
  },
);
for (const op of ['renew', 'release', 'handoff-prepare'] as const) {
  guard(
    `${op}-by-non-holder`,
    `${op} requested by a session that is not the holder: TASK_WRITE_OWNER_SESSION_MISMATCH`,
    async (t) => {
      await t.transition('acquire');
      const extra = op === 'handoff-prepare' ? { targetSessionDigest: S3.digest } : {};
      await t.refused(
        'store.transitionOwner',
        t.ownerRequest(op, S2, extra),
        'TASK_WRITE_OWNER_SESSION_MISMATCH',
      );
    },
  );
}
for (const op of ['release', 'handoff-prepare'] as const) {
  guard(
    `${op}-with-unresolved-operation`,
    `${op} while an operation is unresolved: TASK_OPERATION_UNSETTLED`,
    async (t) => {
      await t.transition('acquire');
      await reachPhase(t, 'dispatched');
      await t.refused('store.transitionOwner', t.defaultRequest(op), 'TASK_OPERATION_UNSETTLED');
    },
  );
}
guard(
  'handoff-prepare-without-target',
  'handoff-prepare with targetSessionDigest null: TASK_WRITE_OWNER_HANDOFF_INVALID',
  async (t) => {
    await t.transition('acquire');
    await t.refused(
      'store.transitionOwner',
      t.ownerRequest('handoff-prepare', S1),
      'TASK_WRITE_OWNER_HANDOFF_INVALID',
    );
  },
);
guard(
  'handoff-prepare-to-the-holder',
  "handoff-prepare naming the holder's own session as target: TASK_WRITE_OWNER_HANDOFF_INVALID",
  async (t) => {
    await t.transition('acquire');
    await t.refused(
      'store.transitionOwner',
      t.ownerRequest('handoff-prepare', S1, { targetSessionDigest: S1.digest }),
      'TASK_WRITE_OWNER_HANDOFF_INVALID',
    );
  },
);
guard(
  'handoff-accept-by-another-session',
  'handoff-accept by a session other than the target: TASK_WRITE_OWNER_HANDOFF_INVALID',
  async (t) => {
    await reach(t, 'handoff-pending');
    await t.refused(
      'store.transitionOwner',
      t.ownerRequest('handoff-accept', S3, { handoffRefDigest: v('href') }),
      'TASK_WRITE_OWNER_HANDOFF_INVALID',
    );
  },
);
guard(
  'handoff-accept-with-another-ref',
  'handoff-accept by the target with another handoffRefDigest: TASK_WRITE_OWNER_HANDOFF_INVALID',
  async (t) => {
    await reach(t, 'handoff-pending');
    await t.refused(
      'store.transitionOwner',
      t.ownerRequest('handoff-accept', S2, { handoffRefDigest: H('another handoff') }),
      'TASK_WRITE_OWNER_HANDOFF_INVALID',
    );
  },
);
guard(
  'takeover-prepare-without-evidence',
  'takeover-prepare with takeoverEvidence null: TASK_WRITE_OWNER_TAKEOVER_INVALID',
  async (t) => {
    await t.transition('acquire');
    await t.refused(
      'store.transitionOwner',
      t.ownerRequest('takeover-prepare', S3, { targetSessionDigest: S3.digest }),
      'TASK_WRITE_OWNER_TAKEOVER_INVALID',
    );
  },
);
guard(
  'takeover-prepare-for-another-session',
  "takeover-prepare whose targetSessionDigest is not the requester's: TASK_WRITE_OWNER_TAKEOVER_INVALID",
  async (t) => {
    await t.transition('acquire');
    await t.context();
    const r = t.defaultRequest('takeover-prepare');
    await t.refused(
      'store.transitionOwner',
      { ...r, targetSessionDigest: S2.digest },
      'TASK_WRITE_OWNER_TAKEOVER_INVALID',
    );
  },
);
guard(
  'takeover-prepare-with-stale-readback',
  'takeover-prepare whose readbackContextDigest is of an older envelope: TASK_WRITE_OWNER_TAKEOVER_INVALID',
  async (t) => {
    await t.transition('acquire');
    await t.context();
    await t.commitState({ step: 1 });
    await t.refused(
      'store.transitionOwner',
      t.defaultRequest('takeover-prepare'),
      'TASK_WRITE_OWNER_TAKEOVER_INVALID',
    );
  },
);
guard(
  'takeover-accept-by-another-session',
  'takeover-accept by a session other than the target: TASK_WRITE_OWNER_TAKEOVER_INVALID',
  async (t) => {
    await reach(t, 'takeover-pending');
    await t.refused(
      'store.transitionOwner',
      t.ownerRequest('takeover-accept', S1, { takeoverRefDigest: v('tref') }),
      'TASK_WRITE_OWNER_TAKEOVER_INVALID',
    );
  },
);
guard(
  'takeover-accept-with-another-ref',
  'takeover-accept by the target with another takeoverRefDigest: TASK_WRITE_OWNER_TAKEOVER_INVALID',
  async (t) => {
    await reach(t, 'takeover-pending');
    await t.refused(
      'store.transitionOwner',
      t.ownerRequest('takeover-accept', S3, { takeoverRefDigest: H('another takeover') }),
      'TASK_WRITE_OWNER_TAKEOVER_INVALID',
    );
  },
);
guard(
  'reopen-naming-another-receipt',
  'reopen with a terminalReceiptDigest that is not the current receipt: FENCED_TASK_WRITE_OWNER_CAS_MISMATCH',
  async (t) => {
    await reach(t, 'terminal');
    await t.refused(
      'store.transitionOwner',
      t.ownerRequest('reopen', S1, { terminalReceiptDigest: H('another receipt') }),
      'FENCED_TASK_WRITE_OWNER_CAS_MISMATCH',
    );
  },
);
guard(
  'prepare-revokes-the-holder',
  'after takeover-prepare the previous holder is revoked at once: its commit with its fence is LIFECYCLE_STATE_FENCE_MISMATCH',
  async (t) => {
    await t.transition('acquire');
    await t.read({ as: 'old' });
    await t.context();
    await t.transition('takeover-prepare');
    await t.refused(
      'store.commitState',
      { ...t.stateRequest({ step: 'late' }), expectedFence: v('oldfence'), expectedOwner: t.owner('old') },
      'LIFECYCLE_STATE_FENCE_MISMATCH',
    );
  },
);
guard(
  'old-fence-after-takeover',
  'after an accepted takeover the old holder (fence and owner ref of its lease) is refused; the new holder commits',
  async (t) => {
    await t.transition('acquire');
    await t.read({ as: 'old' });
    await takeOver(t);
    await t.refused(
      'store.commitState',
      { ...t.stateRequest({ step: 'late' }), expectedFence: v('oldfence'), expectedOwner: t.owner('old') },
      'LIFECYCLE_STATE_FENCE_MISMATCH',
    );
    await t.write('store.commitState', t.stateRequest({ step: 'new holder' }, S3), 'committed');
  },
);
