// @module-tag unit
// checkOwnerTransition on every row of the owner transition table, with a lease the engine built
// and then the same lease broken in one column at a time, and checkTransitionShape (step 2 of
// decideOwnerTransition) refusing each malformed member of an owner request on its own; then
// decideOwnerTransition's own guards: the read (step 3), the replays, the evidence verifier, the lease check.
import { createHash } from 'node:crypto';
import type { FencedTaskWriteOwnerLeaseV2, TaskRecoveryStateV5 } from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import {
  checkOwnerTransition,
  decideOwnerTransition,
  fenceOf,
  isOwnerOperation,
  type OwnerTransitionRequest,
  ownerCommitKind,
  ownerRefOf,
  writeContextDigestOf,
} from '../../src/task-continuity/index.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const [S1, S2, S3] = [sha('s1'), sha('s2'), sha('s3')];
const INVALID = 'FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID';
let n = 0;
const clock = new ManualClock(Date.parse('2026-11-30T06:00:00.000Z'));
const env = {
  clock,
  runtimeGeneration: 'runtime-test',
  mintNonce: () => `owner-${sha(String(++n)).slice(0, 40)}`,
  verifyEvidence: () => ({ ok: true as const }),
};
const key = { taskId: '0199b6e2-4c1d-7a3e-8f52-3d9c0e7a41b6', projectRootIdentity: sha('root') };
const base: OwnerTransitionRequest = {
  operation: 'acquire',
  ...key,
  expectedFence: fenceOf(null),
  expectedOwner: { mode: 'absent' },
  sessionDigest: S1,
  contextEpoch: 'epoch-1',
  routeRevision: sha('route'),
  targetSessionDigest: null,
  handoffRefDigest: null,
  takeoverRefDigest: null,
  takeoverEvidence: null,
  terminal: null,
  terminalReceiptDigest: null,
};
const EVIDENCE = ['change-record', 'completion', 'memory', 'report'].map((role) => ({
  role,
  path: `docs/${role}.md`,
  sha256: sha(role),
  bytes: 10,
}));

/** The envelope `request` commits on `e` (the clock a second further each time). */
function step(
  e: TaskRecoveryStateV5 | null,
  operation: OwnerTransitionRequest['operation'],
  extras: Partial<OwnerTransitionRequest> = {},
): TaskRecoveryStateV5 {
  clock.advance(1000);
  const d = decideOwnerTransition(
    e,
    { ...base, operation, expectedFence: fenceOf(e), expectedOwner: ownerRefOf(e?.owner), ...extras },
    env,
  );
  if (!d.ok || d.status !== 'committed') throw new Error(`${operation}: ${d.ok ? d.status : d.code}`);
  return d.envelope;
}

// One lease per row: [operation, the lease before, the lease the engine built].
const e1 = step(null, 'acquire');
const renewed = step(e1, 'renew');
const released = step(e1, 'release');
const reacquired = step(released, 'reacquire', { sessionDigest: S2 });
const handoff = step(e1, 'handoff-prepare', { targetSessionDigest: S2 });
const accepted = step(handoff, 'handoff-accept', {
  sessionDigest: S2,
  handoffRefDigest: handoff.owner.handoffRef?.refDigest ?? null,
});
const takeoverEvidence = {
  readbackContextDigest: writeContextDigestOf(e1, env.runtimeGeneration),
  livenessEvidenceDigest: sha('no live turn'),
  reconcileReceiptDigest: sha('reconciled'),
};
const takeover = step(e1, 'takeover-prepare', {
  sessionDigest: S3,
  targetSessionDigest: S3,
  takeoverEvidence,
});
const takenOver = step(takeover, 'takeover-accept', {
  sessionDigest: S3,
  takeoverRefDigest: takeover.owner.takeoverRef?.refDigest ?? null,
});
const closed = step(e1, 'terminal', {
  terminal: {
    terminalStatus: 'completed',
    lifecycleRevision: e1.lifecycleRevision,
    settledSetDigest: e1.operations.settledSetDigest,
    writeContextDigest: writeContextDigestOf(e1, env.runtimeGeneration),
    evidence: EVIDENCE,
  } as never,
});
const reopened = step(closed, 'reopen', {
  sessionDigest: S2,
  terminalReceiptDigest: closed.terminalReceipt?.receiptDigest ?? null,
});
const ROWS: [
  OwnerTransitionRequest['operation'],
  FencedTaskWriteOwnerLeaseV2 | null,
  FencedTaskWriteOwnerLeaseV2,
][] = [
  ['acquire', null, e1.owner],
  ['renew', e1.owner, renewed.owner],
  ['release', e1.owner, released.owner],
  ['reacquire', released.owner, reacquired.owner],
  ['handoff-prepare', e1.owner, handoff.owner],
  ['handoff-accept', handoff.owner, accepted.owner],
  ['takeover-prepare', e1.owner, takeover.owner],
  ['takeover-accept', takeover.owner, takenOver.owner],
  ['terminal', e1.owner, closed.owner],
  ['reopen', closed.owner, reopened.owner],
];

const at = (ts: string, ms: number) => new Date(Date.parse(ts) + ms).toISOString();
const refused = (r: { ok: boolean; code?: string }) => (r.ok ? 'ok' : r.code);

describe('checkOwnerTransition: every row', () => {
  for (const [op, prev, next] of ROWS) {
    it(`accepts the ${op} lease the engine built, and ${ownerCommitKind(op)} is its commit kind`, () => {
      expect(checkOwnerTransition(prev, next, op)).toEqual({ ok: true });
      expect(ownerCommitKind(op)).toBe(`owner-${op}`);
    });
  }

  it('refuses an operation that is no row of the table', () => {
    for (const op of ['bogus', 'toString', '__proto__'])
      expect(refused(checkOwnerTransition(e1.owner, renewed.owner, op as never)), op).toBe(INVALID);
    for (const op of ['toString', 'constructor', 5, null, undefined])
      expect(isOwnerOperation(op), String(op)).toBe(false);
    expect(isOwnerOperation('renew')).toBe(true);
  });
});

/** A broken copy of a row's lease, with the transitionRef patched too when `ref` is given. */
type Break = [string, OwnerTransitionRequest['operation'], (l: FencedTaskWriteOwnerLeaseV2) => object];
const row = (op: string) => ROWS.find((r) => r[0] === op)!;
const BREAKS: Break[] = [
  ['another taskId', 'renew', () => ({ taskId: '0199b6e2-4c1d-7a3e-8f52-3d9c0e7a41b7' })],
  ['another projectRootIdentity', 'renew', () => ({ projectRootIdentity: sha('other root') })],
  ['the nonce kept where the row wants a fresh one', 'release', () => ({ ownerNonce: e1.owner.ownerNonce })],
  ['the nonce kept on handoff-prepare', 'handoff-prepare', () => ({ ownerNonce: e1.owner.ownerNonce })],
  ['another session where the row keeps it', 'release', () => ({ sessionDigest: S2 })],
  ['another contextEpoch where the row keeps it', 'release', () => ({ contextEpoch: 'epoch-2' })],
  ['another routeRevision where the row keeps it', 'release', () => ({ routeRevision: sha('route 2') })],
  [
    'an issuedAt earlier than the current lease',
    'renew',
    (l) => ({
      issuedAt: at(e1.owner.issuedAt, -1),
      transitionRef: { ...l.transitionRef, committedAt: at(e1.owner.issuedAt, -1) },
    }),
  ],
  [
    'a transitionRef of another operation',
    'renew',
    (l) => ({ transitionRef: { ...l.transitionRef, operation: 'acquire' } }),
  ],
  [
    'a transitionRef.priorLeaseDigest of another lease',
    'renew',
    (l) => ({ transitionRef: { ...l.transitionRef, priorLeaseDigest: sha('another lease') } }),
  ],
  [
    'a transitionRef.committedAt other than issuedAt',
    'renew',
    (l) => ({ transitionRef: { ...l.transitionRef, committedAt: at(l.issuedAt, 1) } }),
  ],
  ['a handoffRef where the row has none', 'renew', () => ({ handoffRef: handoff.owner.handoffRef })],
  ['a takeoverRef where the row has none', 'renew', () => ({ takeoverRef: takeover.owner.takeoverRef })],
  ['no handoffRef on handoff-prepare', 'handoff-prepare', () => ({ handoffRef: null })],
  [
    'a handoffRef from another lease',
    'handoff-prepare',
    (l) => ({ handoffRef: { ...l.handoffRef!, fromLeaseDigest: sha('another lease') } }),
  ],
  [
    'a handoffRef prepared at another time',
    'handoff-prepare',
    (l) => ({ handoffRef: { ...l.handoffRef!, preparedAt: at(l.issuedAt, -1) } }),
  ],
  [
    'a handoff to the revoked holder itself',
    'handoff-prepare',
    (l) => ({ handoffRef: { ...l.handoffRef!, targetSessionDigest: l.sessionDigest } }),
  ],
  ['no takeoverRef on takeover-prepare', 'takeover-prepare', () => ({ takeoverRef: null })],
  [
    'a takeoverRef from another lease',
    'takeover-prepare',
    (l) => ({ takeoverRef: { ...l.takeoverRef!, fromLeaseDigest: sha('another lease') } }),
  ],
  [
    'a takeoverRef prepared at another time',
    'takeover-prepare',
    (l) => ({ takeoverRef: { ...l.takeoverRef!, preparedAt: at(l.issuedAt, -1) } }),
  ],
  [
    'an expiresAt after issuedAt where the row wants them equal',
    'release',
    (l) => ({ expiresAt: at(l.issuedAt, 1) }),
  ],
  [
    'an expiresAt equal to issuedAt where the row wants it later',
    'acquire',
    (l) => ({ expiresAt: l.issuedAt }),
  ],
  ['a new holder other than the handoff target', 'handoff-accept', () => ({ sessionDigest: S3 })],
  ['a new holder other than the takeover target', 'takeover-accept', () => ({ sessionDigest: S2 })],
];

describe('checkOwnerTransition: a lease broken in one column', () => {
  for (const [what, op, patch] of BREAKS) {
    it(`refuses ${what} (${op})`, () => {
      const [, prev, next] = row(op);
      expect(checkOwnerTransition(prev, next, op)).toEqual({ ok: true });
      const broken = { ...next, ...patch(next) } as FencedTaskWriteOwnerLeaseV2;
      expect(refused(checkOwnerTransition(prev, broken, op))).toBe(INVALID);
    });
  }
});

describe('decideOwnerTransition step 2: a malformed owner request', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['an unknown operation', { operation: 'adopt' }, INVALID],
    ['a missing member', { terminal: undefined }, INVALID],
    ['a member outside the table', { note: 'x' }, INVALID],
    ['a sessionDigest that is not hex', { sessionDigest: 'S1' }, INVALID],
    ['a contextEpoch that is not a string', { contextEpoch: 7 }, INVALID],
    ['an empty contextEpoch', { contextEpoch: '' }, INVALID],
    ['a contextEpoch of 257 characters', { contextEpoch: 'e'.repeat(257) }, INVALID],
    ['a routeRevision that is not hex', { routeRevision: 'route' }, INVALID],
    ['a targetSessionDigest that is not hex', { targetSessionDigest: 'S2' }, INVALID],
    ['a handoffRefDigest that is not hex', { handoffRefDigest: 7 }, INVALID],
    ['takeoverEvidence that is not an object', { takeoverEvidence: 'evidence' }, INVALID],
    ...(['readbackContextDigest', 'livenessEvidenceDigest', 'reconcileReceiptDigest'] as const).map(
      (m): [string, Record<string, unknown>, string] => [
        `takeoverEvidence with a ${m} that is not hex`,
        { takeoverEvidence: { ...takeoverEvidence, [m]: 'x' } },
        INVALID,
      ],
    ),
  ];
  for (const [what, patch, code] of cases) {
    it(`refuses ${what} with ${code}`, () => {
      const request = { ...base, ...patch };
      for (const [k, v] of Object.entries(patch))
        if (v === undefined) delete (request as Record<string, unknown>)[k];
      expect(refused(decideOwnerTransition(null, request as OwnerTransitionRequest, env))).toBe(code);
    });
  }

  it('accepts a contextEpoch of 1 and of 256 characters', () => {
    for (const contextEpoch of ['e', 'e'.repeat(256)])
      expect(
        decideOwnerTransition(null, { ...base, contextEpoch }, env).ok,
        String(contextEpoch.length),
      ).toBe(true);
  });

  const terminal = {
    terminalStatus: 'completed',
    lifecycleRevision: 1,
    settledSetDigest: sha('settled'),
    writeContextDigest: sha('context'),
    evidence: EVIDENCE,
  };
  const terminals: [string, unknown, string][] = [
    ['not an object', 'completed', 'TASK_TERMINAL_INPUT_INVALID'],
    ['an unknown terminalStatus', { ...terminal, terminalStatus: 'done' }, 'TASK_TERMINAL_INPUT_INVALID'],
    ['lifecycleRevision 0', { ...terminal, lifecycleRevision: 0 }, 'TASK_TERMINAL_EXPECTED_STATE_REQUIRED'],
    ['no settledSetDigest', { ...terminal, settledSetDigest: null }, 'TASK_TERMINAL_EXPECTED_STATE_REQUIRED'],
    ['evidence that is not an array', { ...terminal, evidence: {} }, 'TASK_TERMINAL_INPUT_INVALID'],
    [
      'an evidence item that is not an object',
      { ...terminal, evidence: [...EVIDENCE.slice(1), 'x'] },
      'TASK_TERMINAL_INPUT_INVALID',
    ],
    ...(['role', 'path'] as const).map((m): [string, unknown, string] => [
      `an evidence item whose ${m} is not a string`,
      { ...terminal, evidence: [{ ...EVIDENCE[0], [m]: 7 }, ...EVIDENCE.slice(1)] },
      'TASK_TERMINAL_INPUT_INVALID',
    ]),
    [
      'an evidence item whose sha256 is not hex',
      { ...terminal, evidence: [{ ...EVIDENCE[0], sha256: 'x' }, ...EVIDENCE.slice(1)] },
      'TASK_TERMINAL_INPUT_INVALID',
    ],
    [
      'an evidence item of 0 bytes',
      { ...terminal, evidence: [{ ...EVIDENCE[0], bytes: 0 }, ...EVIDENCE.slice(1)] },
      'TASK_TERMINAL_INPUT_INVALID',
    ],
    [
      'an evidence item with a fifth member',
      { ...terminal, evidence: [{ ...EVIDENCE[0], note: 'x' }, ...EVIDENCE.slice(1)] },
      'TASK_TERMINAL_INPUT_INVALID',
    ],
  ];
  for (const [what, member, code] of terminals) {
    it(`refuses a terminal member with ${what}: ${code}`, () => {
      const request = { ...base, operation: 'terminal', terminal: member } as OwnerTransitionRequest;
      expect(
        refused(
          decideOwnerTransition(
            e1,
            { ...request, expectedFence: fenceOf(e1), expectedOwner: ownerRefOf(e1.owner) },
            env,
          ),
        ),
      ).toBe(code);
    });
  }

  it('passes a well-formed terminal member on to the later steps', () => {
    const request = { ...base, operation: 'terminal', terminal } as OwnerTransitionRequest;
    const d = decideOwnerTransition(
      e1,
      { ...request, expectedFence: fenceOf(e1), expectedOwner: ownerRefOf(e1.owner) },
      env,
    );
    expect(refused(d)).toBe('TASK_TERMINAL_STATE_CAS_MISMATCH');
  });
});

describe('checkOwnerTransition: a current lease the row does not start from', () => {
  it('refuses a release from a released lease whose every other column fits the row', () => {
    const [, prev, next] = row('release');
    expect(checkOwnerTransition(prev, next, 'release')).toEqual({ ok: true });
    const wrongStatus = { ...prev!, status: 'released' } as FencedTaskWriteOwnerLeaseV2;
    expect(refused(checkOwnerTransition(wrongStatus, next, 'release'))).toBe(INVALID);
  });

  it('refuses an accept whose pending lease lost its ref, without throwing', () => {
    const [, handoffPrev, handoffNext] = row('handoff-accept');
    const noHandoff = { ...handoffPrev!, handoffRef: null } as FencedTaskWriteOwnerLeaseV2;
    expect(refused(checkOwnerTransition(noHandoff, handoffNext, 'handoff-accept'))).toBe(INVALID);
    const [, takeoverPrev, takeoverNext] = row('takeover-accept');
    const noTakeover = { ...takeoverPrev!, takeoverRef: null } as FencedTaskWriteOwnerLeaseV2;
    expect(refused(checkOwnerTransition(noTakeover, takeoverNext, 'takeover-accept'))).toBe(INVALID);
  });

  it('takes no non-string that names a row as an operation', () => {
    for (const op of [['acquire'], { toString: () => 'renew' }])
      expect(isOwnerOperation(op), JSON.stringify(op)).toBe(false);
  });
});

describe('decideOwnerTransition: the read, the replays and the lease check', () => {
  const on = (e: TaskRecoveryStateV5, extras: Partial<OwnerTransitionRequest>) =>
    ({
      ...base,
      expectedFence: fenceOf(e),
      expectedOwner: ownerRefOf(e.owner),
      ...extras,
    }) as OwnerTransitionRequest;
  const closeout = (e: TaskRecoveryStateV5, terminalStatus: string) =>
    ({
      terminalStatus,
      lifecycleRevision: e.lifecycleRevision,
      settledSetDigest: e.operations.settledSetDigest,
      writeContextDigest: writeContextDigestOf(e, env.runtimeGeneration),
      evidence: EVIDENCE,
    }) as never;

  it('refuses, at step 3, an envelope of another task key and a corrupt one', () => {
    const otherKey = on(e1, { operation: 'renew', taskId: '0199b6e2-4c1d-7a3e-8f52-3d9c0e7a41b7' });
    expect(refused(decideOwnerTransition(e1, otherKey, env))).toBe('LIFECYCLE_STATE_UNAVAILABLE');
    const corrupt = { ...e1, envelopeDigest: sha('another envelope') };
    expect(refused(decideOwnerTransition(corrupt, on(e1, { operation: 'renew' }), env))).toBe(
      'LIFECYCLE_STATE_UNAVAILABLE',
    );
  });

  it('refuses a closed task a different terminal request on the lease it closed, and nothing else that way', () => {
    // The owner ref of the lease before the close: the terminal request's own expectedOwner.
    const priorOwner = { expectedOwner: ownerRefOf(e1.owner) };
    const again = on(closed, { operation: 'terminal', ...priorOwner, terminal: closeout(e1, 'failed') });
    expect(refused(decideOwnerTransition(closed, again, env))).toBe('TASK_TERMINAL_REPLAY_MISMATCH');
    // Another operation on that stale ref is a stale owner ref, not a terminal replay.
    for (const operation of ['reopen', 'renew', 'release'] as const)
      expect(
        refused(decideOwnerTransition(closed, on(closed, { operation, ...priorOwner }), env)),
        operation,
      ).toBe('FENCED_TASK_WRITE_OWNER_CAS_MISMATCH');
    // A terminal request without an owner ref is refused as one, not thrown on.
    const noOwner = on(closed, {
      operation: 'terminal',
      expectedOwner: null as never,
      terminal: closeout(e1, 'failed'),
    });
    expect(refused(decideOwnerTransition(closed, noOwner, env))).toBe('FENCED_TASK_WRITE_OWNER_CAS_MISMATCH');
  });

  it('refuses a close on a store without a project root to read evidence from', () => {
    const { verifyEvidence: _, ...noRoot } = env;
    const close = on(e1, { operation: 'terminal', terminal: closeout(e1, 'completed') });
    expect(refused(decideOwnerTransition(e1, close, noRoot))).toBe('TASK_TERMINAL_EVIDENCE_FILE_INVALID');
  });

  it('refuses a lease the table does not produce: a nonce source that repeats the current nonce', () => {
    const repeating = { ...env, mintNonce: () => e1.owner.ownerNonce };
    expect(refused(decideOwnerTransition(e1, on(e1, { operation: 'release' }), repeating))).toBe(INVALID);
    expect(decideOwnerTransition(e1, on(e1, { operation: 'release' }), env).ok).toBe(true);
  });
});
