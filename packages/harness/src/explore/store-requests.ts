// The `store.*` requests the kit builds, one definition each: the golden cases of the
// TaskContinuityWriteGate (scripts/cases/store) and the exploration of the store capability
// (./capabilities/store.ts) both name fences, owner refs, operation bindings, terminal evidence
// and the members of the request tables (docs/protocol.md#store-v1-capability-store) through
// these, and capture what a read returns under the same names, so the two cannot drift apart.
import { createHash } from 'node:crypto';
import { targetSetDigestOf } from '@agent-contracts/schemas';
import { CONFORMANCE_PROJECT } from './model/store.js';

/** The owner transitions of `store.transitionOwner`, in the order of the spec's table. */
export const STORE_OWNER_OPERATIONS = [
  'acquire',
  'renew',
  'release',
  'reacquire',
  'handoff-prepare',
  'handoff-accept',
  'takeover-prepare',
  'takeover-accept',
  'terminal',
  'reopen',
] as const;
export type StoreOwnerOperation = (typeof STORE_OWNER_OPERATIONS)[number];

/** The events of `store.commitOperation`, in the order of an operation's life. */
export const STORE_OPERATION_EVENTS = [
  'prepare',
  'dispatch',
  'observe',
  'settle',
  'mark-reconcile',
  'reconcile',
  'abort',
] as const;
export type StoreOperationEvent = (typeof STORE_OPERATION_EVENTS)[number];

/** A value an earlier step captured as `name`. */
export const storeVar = (name: string) => ({ $var: name });

/** A TaskRecoveryCommitFenceV1; `commitFence(0, 0)` is the fence of a task never written. */
export const commitFence = (stateSequence: number, writerGeneration: number) => ({
  schemaVersion: 'TaskRecoveryCommitFenceV1',
  stateSequence,
  writerGeneration,
});

/** The expected owner of a write: the owner ref a read captured under `prefix` (storeReadCapture). */
export const capturedOwner = (prefix: string) => ({
  ownerGeneration: storeVar(`${prefix}og`),
  ownerNonce: storeVar(`${prefix}nonce`),
  leaseRevision: storeVar(`${prefix}lr`),
  leaseDigest: storeVar(`${prefix}lease`),
});

/** What a `store.read` captures under `prefix`: the fence, and the owner ref when there is an owner. */
export const storeReadCapture = (prefix: string, owner = true): Record<string, string> => ({
  [`${prefix}fence`]: '/fence',
  ...(owner
    ? {
        [`${prefix}og`]: '/envelope/owner/ownerGeneration',
        [`${prefix}nonce`]: '/envelope/owner/ownerNonce',
        [`${prefix}lr`]: '/envelope/owner/leaseRevision',
        [`${prefix}lease`]: '/envelope/owner/leaseDigest',
      }
    : {}),
});

/** What a `store.readWriteContext` captures under `prefix`: the context and settled-set digests. */
export const writeContextCapture = (prefix: string): Record<string, string> => ({
  [`${prefix}ctx`]: '/writeContext/contextDigest',
  [`${prefix}settled`]: '/writeContext/settledSetDigest',
});

/** The members every write request starts with, in the order of the request tables. */
export const writeRequestBase = (
  taskId: string,
  projectRootIdentity: string,
  expectedFence: unknown,
  expectedOwner: unknown,
  sessionDigest: string | undefined,
) => ({ taskId, projectRootIdentity, expectedFence, expectedOwner, sessionDigest });

/**
 * A `store.transitionOwner` request with every member of its table: those an operation does not
 * use are null unless `members` names them.
 */
export const ownerTransitionRequest = (
  operation: string,
  base: ReturnType<typeof writeRequestBase>,
  contextEpoch: string,
  routeRevision: string,
  members: Record<string, unknown> = {},
) => ({
  operation,
  ...base,
  contextEpoch,
  routeRevision,
  targetSessionDigest: null,
  handoffRefDigest: null,
  takeoverRefDigest: null,
  takeoverEvidence: null,
  terminal: null,
  terminalReceiptDigest: null,
  ...members,
});

/** An operation as its `prepare` event declares it. */
export interface StoreOperation {
  readonly operationId: string;
  readonly idempotencyKey: string;
  readonly kind: string;
  readonly exactTargets: readonly string[];
  readonly beforeDigest: string;
}

/** The `prepare` event of an operation. */
export const prepareEvent = (op: StoreOperation) => ({
  event: 'prepare',
  operationId: op.operationId,
  idempotencyKey: op.idempotencyKey,
  kind: op.kind,
  exactTargets: [...op.exactTargets],
  beforeDigest: op.beforeDigest,
});

/** The binding every event after `prepare` repeats, for the writer generation that prepared it. */
export const operationBinding = (
  op: Omit<StoreOperation, 'kind'>,
  writerGeneration: unknown,
): {
  operationId: string;
  idempotencyKey: string;
  writerGeneration: unknown;
  targetSetDigest: string;
  beforeDigest: string;
} => ({
  operationId: op.operationId,
  idempotencyKey: op.idempotencyKey,
  writerGeneration,
  targetSetDigest: targetSetDigestOf([...op.exactTargets]),
  beforeDigest: op.beforeDigest,
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** One item of a terminal request's evidence. */
export interface StoreEvidenceItem {
  readonly role: string;
  readonly path: string;
  readonly sha256: string;
  readonly bytes: number;
}

/** The four evidence items of a terminal request, naming the files of the conformance project root. */
export const CONFORMANCE_EVIDENCE: readonly StoreEvidenceItem[] = (
  ['change-record', 'completion', 'memory', 'report'] as const
).map((role) => {
  const path = `closeout/${role}.md`;
  const text = CONFORMANCE_PROJECT[path] as string;
  return { role, path, sha256: sha256(text), bytes: Buffer.byteLength(text) };
});
