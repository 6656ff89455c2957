// Builders for the unit tests of decideOperationCommit (operation-commit*.test.ts): the first
// acquired envelope of the TaskRecoveryStateV5 fixtures, a commitOperation request by its holder,
// commits chained through the engine itself, and envelopes edited past what a commit produces
// (another generation, a crafted settled window) with every digest recomputed so that step 3
// accepts them.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  envelopeDigestOf,
  leaseDigestOf,
  recordDigestOf,
  settledSetDigestOf,
  stateDigestOf,
  type TaskOperationRecordV1,
  type TaskOperationSettledRefV1,
  type TaskRecoveryStateV5,
  targetSetDigestOf,
} from '@agent-contracts/schemas';
import { ManualClock } from '../../src/clock.js';
import {
  type CommitDecision,
  type CommitEnvironment,
  decideOperationCommit,
  fenceOf,
  type OperationCommitRequest,
  operationBindingOf,
  ownerRefOf,
} from '../../src/task-continuity/index.js';

const FIXTURE = fileURLToPath(
  new URL('../../../../conformance/fixtures/TaskRecoveryStateV5/valid/first-acquire.json', import.meta.url),
);
const FIRST = readFileSync(FIXTURE, 'utf8');

/** The clock of every commit (after the fixture's committedAt). */
export const NOW = '2026-11-30T06:00:00.000Z';

/** A 64-hex digest named by `s`. */
export const sha = (s: string): string => createHash('sha256').update(s).digest('hex');

/** The fixture envelope: sequence 1, generation 1, an active lease, no operation. */
export const first = (): TaskRecoveryStateV5 => JSON.parse(FIRST) as TaskRecoveryStateV5;

/** The environment of a commit at {@link NOW}. */
export const env = (extra: Partial<CommitEnvironment> = {}): CommitEnvironment => ({
  clock: new ManualClock(Date.parse(NOW)),
  runtimeGeneration: 'runtime-1',
  mintNonce: () => `owner-${'0'.repeat(40)}`,
  ...extra,
});

/** A commitOperation request by the holder of `e`, with its fence and owner ref. */
export function request(
  e: TaskRecoveryStateV5,
  event: unknown,
  extra: Record<string, unknown> = {},
): OperationCommitRequest {
  return {
    taskId: e.taskId,
    projectRootIdentity: e.projectRootIdentity,
    expectedFence: fenceOf(e),
    expectedOwner: ownerRefOf(e.owner),
    sessionDigest: e.owner.sessionDigest,
    event,
    ...extra,
  } as OperationCommitRequest;
}

/** Decide `event` on `e` by its holder. */
export const decide = (
  e: TaskRecoveryStateV5,
  event: unknown,
  extra: Record<string, unknown> = {},
  environment: CommitEnvironment = env(),
): CommitDecision => decideOperationCommit(e, request(e, event, extra), environment);

/** A prepare event of operation `id` (key `key-<id>`, one target). */
export const prepare = (id: string, extra: Record<string, unknown> = {}) => ({
  event: 'prepare',
  operationId: id,
  idempotencyKey: `key-${id}`,
  kind: 'update',
  exactTargets: ['docs/a.md'],
  beforeDigest: sha(`before-${id}`),
  ...extra,
});

/** The unresolved record of `e` (throws when there is none). */
export function unresolved(e: TaskRecoveryStateV5): TaskOperationRecordV1 {
  const u = e.operations.unresolved;
  if (!u) throw new Error('no unresolved operation');
  return u;
}

/** An event of the unresolved record of `e`, with its binding. */
export const on = (e: TaskRecoveryStateV5, event: string, extra: Record<string, unknown> = {}) => ({
  event,
  ...operationBindingOf(unresolved(e)),
  ...extra,
});

/** The settle members of a known-applied settlement. */
export const KNOWN = { effect: 'known-applied', evidenceDigest: sha('evidence') } as const;

/** Decide `event` on `e` and return the new envelope (throws unless committed). */
export function commit(
  e: TaskRecoveryStateV5,
  event: unknown,
  environment: CommitEnvironment = env(),
): TaskRecoveryStateV5 {
  const d = decide(e, event, {}, environment);
  if (!d.ok || d.status !== 'committed')
    throw new Error(`expected a commit, got ${JSON.stringify(d.ok ? d.status : d.code)}`);
  return d.envelope;
}

/** The envelopes of `steps` applied in turn to `e` (each event built from the envelope before it). */
export function chain(
  e: TaskRecoveryStateV5,
  ...steps: ((prev: TaskRecoveryStateV5) => unknown)[]
): TaskRecoveryStateV5[] {
  const out = [e];
  for (const step of steps)
    out.push(
      commit(out[out.length - 1] as TaskRecoveryStateV5, step(out[out.length - 1] as TaskRecoveryStateV5)),
    );
  return out;
}

/** Steps that prepare `id` and take it to `observed`. */
export const toObserved = (id: string, extra: Record<string, unknown> = {}) => [
  () => prepare(id, extra),
  (p: TaskRecoveryStateV5) => on(p, 'dispatch'),
  (p: TaskRecoveryStateV5) => on(p, 'observe', { resultDigest: sha(`result-${id}`) }),
];

/** Steps that prepare `id` and settle it known-applied. */
export const toSettled = (id: string, extra: Record<string, unknown> = {}) => [
  ...toObserved(id, extra),
  (p: TaskRecoveryStateV5) => on(p, 'settle', KNOWN),
];

/** The last element of `xs`. */
export const last = <T>(xs: readonly T[]): T => xs[xs.length - 1] as T;

/**
 * `e` edited by `edit`, every digest recomputed (targets, record, settled set, lease, state,
 * envelope) so that the stored-envelope check of step 3 accepts it.
 */
export function resealed(
  e: TaskRecoveryStateV5,
  edit: (doc: TaskRecoveryStateV5) => void,
): TaskRecoveryStateV5 {
  const doc = structuredClone(e) as TaskRecoveryStateV5 & { [key: string]: unknown };
  edit(doc);
  const set = doc.operations as unknown as { [key: string]: unknown };
  const u = doc.operations.unresolved as unknown as { [key: string]: unknown } | null;
  if (u) {
    u.targetSetDigest = targetSetDigestOf(u.exactTargets as string[]);
    u.recordDigest = recordDigestOf(u);
  }
  set.settledSetDigest = settledSetDigestOf(set);
  const owner = doc.owner as unknown as { [key: string]: unknown };
  owner.leaseDigest = leaseDigestOf(owner);
  doc.stateDigest = stateDigestOf(doc);
  doc.envelopeDigest = envelopeDigestOf(doc);
  return doc;
}

/** `e` held by generation `g` (as after an owner transition that raised it), the records unchanged. */
export const atGeneration = (e: TaskRecoveryStateV5, g: number): TaskRecoveryStateV5 =>
  resealed(e, (doc) => {
    (doc as { writerGeneration: number }).writerGeneration = g;
    (doc.owner as { ownerGeneration: number }).ownerGeneration = g;
  });

/** A settled ref of operation `id` (its record digest named by `id`). */
export const settledRef = (id: string): TaskOperationSettledRefV1 => ({
  operationId: id,
  idempotencyKey: `key-${id}`,
  writerGeneration: 1,
  phase: 'settled',
  effect: 'known-applied',
  recordDigest: sha(`record-${id}`),
  settledAt: '2026-11-30T05:50:00.000Z',
});

/** `e` with `refs` as its settled window and `settledTotal`. */
export const withSettled = (
  e: TaskRecoveryStateV5,
  refs: TaskOperationSettledRefV1[],
  settledTotal = refs.length,
): TaskRecoveryStateV5 =>
  resealed(e, (doc) => {
    const set = doc.operations as { settled: TaskOperationSettledRefV1[]; settledTotal: number };
    set.settled = refs;
    set.settledTotal = settledTotal;
  });
