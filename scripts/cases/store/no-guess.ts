// What the pages leave to no guess: members a request must not have, malformed owner refs, what is
// judged before the read and after the fence, and the order of the evidence checks.
import { def, LEASE } from './defs.ts';
import { EVIDENCE } from './evidence.ts';
import { fence } from './fence.ts';
import { H } from './names.ts';
import { opCase } from './operation.ts';
import { event, FENCE, OP1, reachPhase, S1 } from './task.ts';
import { refusedTerminal, terminal } from './terminal.ts';

// What the pages leave to no guess (issue 23 §3, items 1, 9, 11): members a request must not
// have, a malformed owner ref, which malformed members are judged before the read and which after
// the fence, a replayed prepare with another state, targets with a control character, and the
// order of the evidence checks.
def(
  'owner',
  'owner/malformed/member-outside-the-table',
  LEASE,
  'owner-transition-request',
  'an owner transition request with a member outside the request table: FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID, nothing written',
  async (t) => {
    await t.transition('acquire');
    await t.refused(
      'store.transitionOwner',
      { ...t.defaultRequest('renew'), leaseDurationMs: 60_000 },
      'FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID',
    );
    await t.transition('renew');
  },
);
def(
  'owner',
  'owner/malformed/session-digest-not-a-string',
  LEASE,
  'owner-transition-request',
  "a renew whose sessionDigest is an array holding the holder's digest: not 64 lowercase hex, FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID, nothing written",
  async (t) => {
    await t.transition('acquire');
    await t.refused(
      'store.transitionOwner',
      { ...t.defaultRequest('renew'), sessionDigest: [S1.digest] },
      'FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID',
    );
    await t.transition('renew');
  },
);
def(
  'owner',
  'owner/malformed/member-missing',
  LEASE,
  'owner-transition-request',
  'an owner transition request without one of its members (terminal): FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID, nothing written',
  async (t) => {
    await t.transition('acquire');
    const { terminal: _, ...request } = t.defaultRequest('renew');
    await t.refused('store.transitionOwner', request, 'FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID');
  },
);
for (const [name, what, owner] of [
  ['not-an-object', 'a string', 'the holder'],
  ['extra-member', 'an owner ref with a fifth member', null],
] as const) {
  fence(
    `owner-ref-malformed/${name}`,
    `a state commit whose expectedOwner is ${what}: it matches no owner, FENCED_TASK_WRITE_OWNER_CAS_MISMATCH with the current fence`,
    async (t) => {
      await t.transition('acquire');
      await t.refused(
        'store.commitState',
        { ...t.stateRequest({ step: 1 }), expectedOwner: owner ?? { ...t.owner(), status: 'active' } },
        'FENCED_TASK_WRITE_OWNER_CAS_MISMATCH',
      );
    },
    'details-of-the-steps',
  );
}
// An owner ref that is not the absent ref on a task never written: it matches no owner, so the
// first acquire is refused; the absent ref on a task with an owner is a stale ref.
for (const [name, what, owner] of [
  ['absent-with-a-member-more', 'the absent ref with a fifth member', { mode: 'absent', ownerGeneration: 1 }],
  ['mode-present', '{ mode: "present" }', { mode: 'present' }],
  ['one-member-of-a-present-ref', 'one member of a present ref', { ownerGeneration: 1 }],
] as const) {
  fence(
    `owner-ref-malformed/${name}`,
    `a first acquire whose expectedOwner is ${what}: it is not the absent ref, FENCED_TASK_WRITE_OWNER_CAS_MISMATCH with fence (0, 0), nothing written`,
    async (t) => {
      await t.refused(
        'store.transitionOwner',
        { ...t.ownerRequest('acquire', S1), expectedOwner: owner },
        'FENCED_TASK_WRITE_OWNER_CAS_MISMATCH',
        { current: '/currentFence' },
      );
      await t.transition('acquire');
    },
    'details-of-the-steps',
  );
}
fence(
  'owner-ref-stale/absent-on-an-owned-task',
  'a state commit with the current fence and the absent owner ref on a task with an owner: FENCED_TASK_WRITE_OWNER_CAS_MISMATCH, nothing written',
  async (t) => {
    await t.transition('acquire');
    await t.refused(
      'store.commitState',
      { ...t.stateRequest({ step: 1 }), expectedOwner: { mode: 'absent' } },
      'FENCED_TASK_WRITE_OWNER_CAS_MISMATCH',
    );
  },
  'details-of-the-steps',
);
// Each member of the owner ref on its own: the ref matches only when all four are the lease's.
for (const [name, member, other] of [
  ['owner-generation', 'ownerGeneration', 2],
  ['owner-nonce', 'ownerNonce', `owner-${'0'.repeat(40)}`],
  ['lease-revision', 'leaseRevision', 2],
  ['lease-digest', 'leaseDigest', H('another lease')],
] as const) {
  fence(
    `owner-ref-stale/${name}`,
    `a state commit with the current fence and an owner ref whose ${member} alone is not the lease's: FENCED_TASK_WRITE_OWNER_CAS_MISMATCH, nothing written; with the lease's ${member} it commits`,
    async (t) => {
      await t.transition('acquire');
      await t.refused(
        'store.commitState',
        { ...t.stateRequest({ step: 1 }), expectedOwner: { ...t.owner(), [member]: other } },
        'FENCED_TASK_WRITE_OWNER_CAS_MISMATCH',
      );
      await t.commitState({ step: 1 });
    },
    'details-of-the-steps',
  );
}
opCase(
  'malformed/writer-generation-zero-before-the-fence',
  'a dispatch whose writerGeneration is 0 (not a positive integer), sent with a stale fence: TASK_OPERATION_TRANSITION_INVALID before the read, not the fence mismatch',
  async (t) => {
    await t.transition('acquire');
    await reachPhase(t, 'prepared');
    await t.refused(
      'store.commitOperation',
      { ...t.opRequest(event('dispatch', OP1, 0)), expectedFence: FENCE(1, 1) },
      'TASK_OPERATION_TRANSITION_INVALID',
    );
  },
  'details-of-the-steps',
);
opCase(
  'malformed/result-digest-before-the-fence',
  'an observe whose resultDigest is not 64 lowercase hex, sent with a stale fence: TASK_OPERATION_TRANSITION_INVALID before the read, not the fence mismatch',
  async (t) => {
    await t.transition('acquire');
    await reachPhase(t, 'dispatched');
    await t.refused(
      'store.commitOperation',
      { ...t.opRequest(event('observe', OP1, 1, { resultDigest: 'result' })), expectedFence: FENCE(1, 1) },
      'TASK_OPERATION_TRANSITION_INVALID',
    );
  },
  'details-of-the-steps',
);
opCase(
  'malformed/effect-after-the-fence',
  'a settle with effect "maybe" and a stale fence: LIFECYCLE_STATE_FENCE_MISMATCH (effect and evidenceDigest are judged after the fence, check 11)',
  async (t) => {
    await t.transition('acquire');
    await reachPhase(t, 'observed');
    await t.refused(
      'store.commitOperation',
      { ...t.opRequest(event('settle', OP1, 1, { effect: 'maybe' })), expectedFence: FENCE(1, 1) },
      'LIFECYCLE_STATE_FENCE_MISMATCH',
    );
    await t.refused(
      'store.commitOperation',
      t.opRequest(event('settle', OP1, 1, { effect: 'maybe' })),
      'TASK_OPERATION_TRANSITION_INVALID',
    );
  },
  'details-of-the-steps',
);
opCase(
  'malformed/member-outside-the-event',
  'a dispatch with a member its row does not list (resultDigest): TASK_OPERATION_TRANSITION_INVALID before the read, nothing written',
  async (t) => {
    await t.transition('acquire');
    await reachPhase(t, 'prepared');
    await t.refused(
      'store.commitOperation',
      t.opRequest(event('dispatch', OP1, 1, { resultDigest: H('result of op-1') })),
      'TASK_OPERATION_TRANSITION_INVALID',
    );
  },
  'details-of-the-steps',
);
opCase(
  'replayed-prepare-with-another-state',
  'the identical prepare again with another state: replayed, and the state of the first prepare stands (a replay writes nothing)',
  async (t) => {
    await t.transition('acquire');
    await t.write(
      'store.commitOperation',
      { ...t.opRequest(event('prepare')), state: { step: 'a' } },
      'committed',
    );
    await t.write(
      'store.commitOperation',
      { ...t.opRequest(event('prepare')), state: { step: 'b' } },
      'replayed',
    );
    await t.read({ full: true });
  },
  'late-and-duplicate-receipts',
);
opCase(
  'targets-with-a-control-character',
  'prepare whose target holds a control character inside it (allowed by the exactTargets pattern, unlike a sourceKey): committed',
  async (t) => {
    await t.transition('acquire');
    await t.operation(event('prepare', { ...OP1, exactTargets: ['command:printf\ta\u0007'] }));
    await t.read({ full: true });
  },
  'operation-events',
);
opCase(
  'targets-with-a-lone-surrogate',
  'prepare whose target holds a lone UTF-16 surrogate: not a valid target, TASK_OPERATION_TARGETS_INVALID, nothing written',
  async (t) => {
    await t.transition('acquire');
    await t.refused(
      'store.commitOperation',
      t.opRequest(event('prepare', { ...OP1, exactTargets: ['file:a\ud800'] })),
      'TASK_OPERATION_TARGETS_INVALID',
    );
  },
  'details-of-the-steps',
);
for (const [name, title, code, evidence] of [
  [
    'list-checks-before-file-checks',
    'the first item has another sha256 and the last a path with a ".." segment: TASK_TERMINAL_EVIDENCE_PATH_INVALID (the list checks run over every item before any file is read)',
    'TASK_TERMINAL_EVIDENCE_PATH_INVALID',
    EVIDENCE.map((e, i) =>
      i === 0 ? { ...e, sha256: H('other bytes') } : i === 3 ? { ...e, path: '../closeout/report.md' } : e,
    ),
  ],
  [
    'file-checks-item-by-item',
    'the first item has another sha256 and the last names a missing file: TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH (the file checks run item by item, in role order)',
    'TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH',
    EVIDENCE.map((e, i) =>
      i === 0 ? { ...e, sha256: H('other bytes') } : i === 3 ? { ...e, path: 'closeout/missing.md' } : e,
    ),
  ],
] as const) {
  terminal(`evidence-order/${name}`, `terminal whose ${title}`, async (t) => {
    await t.transition('acquire');
    await t.context();
    await refusedTerminal(
      t,
      t.ownerRequest('terminal', S1, { terminal: t.terminalMember({ evidence: [...evidence] }) }),
      code,
    );
  });
}
