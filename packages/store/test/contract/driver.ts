// Request builders and a small per-task driver shared by the contract suite and the model tests.
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommitRefusal } from '@agent-contracts/engines';
import {
  type OperationBinding,
  type OperationEventInput,
  type OwnerRef,
  operationBindingOf,
  ownerRefOf,
  type TerminalRequestMember,
} from '@agent-contracts/engines';
import type {
  FencedTaskWriteOwnerOperation,
  TaskRecoveryCommitFenceV1,
  TaskRecoveryStateV5,
  TaskTerminalEvidenceItemV1,
} from '@agent-contracts/schemas';
import { expect } from 'vitest';
import type { TaskKey } from '../../src/backend.js';
import type { CommitResult, TaskStore } from '../../src/task-store.js';

export const sha = (s: string) => createHash('sha256').update(s).digest('hex');
export const ROOT = sha('project-root');
export const S1 = sha('session-1');
export const S2 = sha('session-2');
export const S3 = sha('session-3');
export const ROUTE = sha('route');
export const newKey = (): TaskKey => ({ projectRootIdentity: ROOT, taskId: randomUUID() });
export const fence = (stateSequence: number, writerGeneration: number): TaskRecoveryCommitFenceV1 => ({
  schemaVersion: 'TaskRecoveryCommitFenceV1',
  stateSequence,
  writerGeneration,
});

/** What a requester read: the fence and owner ref of an envelope (or of no envelope). */
export interface View {
  readonly fence: TaskRecoveryCommitFenceV1;
  readonly owner: OwnerRef;
  readonly envelope: TaskRecoveryStateV5 | null;
}

export const viewOf = (e: TaskRecoveryStateV5 | null): View => ({
  fence: fence(e?.sequence ?? 0, e?.writerGeneration ?? 0),
  owner: ownerRefOf(e?.owner),
  envelope: e,
});

/** A project root with the four evidence files, and the matching evidence items. */
export function evidenceRoot(): { root: string; evidence: TaskTerminalEvidenceItemV1[] } {
  const root = mkdtempSync(join(tmpdir(), 'agent-contracts-evidence-'));
  mkdirSync(join(root, 'docs'));
  const roles = ['change-record', 'completion', 'memory', 'report'] as const;
  const evidence = roles.map((role) => {
    const path = `docs/${role}.md`;
    const body = `# ${role}\n`;
    writeFileSync(join(root, path), body);
    return { role, path, sha256: sha(body), bytes: Buffer.byteLength(body) };
  });
  return { root, evidence };
}

export type Result = CommitResult | CommitRefusal;

/** Asserts a refusal with `code`, and returns it. */
export function refused(r: Result, code: string): CommitRefusal {
  expect(r.ok ? `ok:${r.status}` : r.code).toBe(code);
  return r as CommitRefusal;
}

/** Asserts success with `status` (default committed), and returns it. */
export function succeeded(r: Result, status: CommitResult['status'] = 'committed'): CommitResult {
  expect(r.ok ? r.status : `${r.code}: ${r.message}`).toBe(status);
  return r as CommitResult;
}

export interface TransitionExtras {
  targetSessionDigest?: string | null;
  handoffRefDigest?: string | null;
  takeoverRefDigest?: string | null;
  takeoverEvidence?: {
    readbackContextDigest: string;
    livenessEvidenceDigest: string;
    reconcileReceiptDigest: string;
  } | null;
  terminal?: TerminalRequestMember | null;
  terminalReceiptDigest?: string | null;
  contextEpoch?: string;
  routeRevision?: string;
}

/** Drives one task of a store. Every call reads the current view unless a (stale) view is given. */
export class TaskDriver {
  constructor(
    readonly store: TaskStore,
    readonly key: TaskKey = newKey(),
  ) {}

  async view(): Promise<View> {
    return viewOf(await this.store.backend.load(this.key));
  }

  async envelope(): Promise<TaskRecoveryStateV5> {
    const e = await this.store.backend.load(this.key);
    if (!e) throw new Error('task has no envelope');
    return e;
  }

  request(op: FencedTaskWriteOwnerOperation, session: string, view: View, extras: TransitionExtras = {}) {
    return {
      operation: op,
      taskId: this.key.taskId,
      projectRootIdentity: this.key.projectRootIdentity,
      expectedFence: view.fence,
      expectedOwner: view.owner,
      sessionDigest: session,
      contextEpoch: extras.contextEpoch ?? 'epoch-1',
      routeRevision: extras.routeRevision ?? ROUTE,
      targetSessionDigest: extras.targetSessionDigest ?? null,
      handoffRefDigest: extras.handoffRefDigest ?? null,
      takeoverRefDigest: extras.takeoverRefDigest ?? null,
      takeoverEvidence: extras.takeoverEvidence ?? null,
      terminal: extras.terminal ?? null,
      terminalReceiptDigest: extras.terminalReceiptDigest ?? null,
    };
  }

  async transition(
    op: FencedTaskWriteOwnerOperation,
    session: string,
    extras: TransitionExtras = {},
    view?: View,
  ) {
    return this.store.transitionOwner(this.request(op, session, view ?? (await this.view()), extras));
  }

  async state(
    session: string,
    state: Record<string, unknown>,
    options: { force?: boolean; view?: View } = {},
  ) {
    const view = options.view ?? (await this.view());
    return this.store.commitState({
      taskId: this.key.taskId,
      projectRootIdentity: this.key.projectRootIdentity,
      expectedFence: view.fence,
      expectedOwner: view.owner,
      sessionDigest: session,
      state,
      ...(options.force === undefined ? {} : { force: options.force }),
    });
  }

  async op(session: string, event: OperationEventInput, view?: View) {
    const v = view ?? (await this.view());
    return this.store.commitOperation({
      taskId: this.key.taskId,
      projectRootIdentity: this.key.projectRootIdentity,
      expectedFence: v.fence,
      expectedOwner: v.owner,
      sessionDigest: session,
      event,
    });
  }

  /** The binding of the unresolved record. */
  async binding(): Promise<OperationBinding> {
    const u = (await this.envelope()).operations.unresolved;
    if (!u) throw new Error('no unresolved operation');
    return operationBindingOf(u);
  }

  /** Takeover evidence whose readback digest is the store's current context digest. */
  async takeoverEvidence() {
    const ctx = await this.store.readWriteContext(this.key);
    if (!ctx.ok) throw new Error(ctx.code);
    return {
      readbackContextDigest: ctx.writeContext.contextDigest,
      livenessEvidenceDigest: sha('no-live-turn'),
      reconcileReceiptDigest: sha('reconciled'),
    };
  }

  /** The terminal member a holder would send now. */
  async terminalMember(
    evidence: TaskTerminalEvidenceItemV1[],
    status: TerminalRequestMember['terminalStatus'] = 'completed',
  ) {
    const ctx = await this.store.readWriteContext(this.key);
    if (!ctx.ok) throw new Error(ctx.code);
    return {
      terminalStatus: status,
      lifecycleRevision: ctx.writeContext.lifecycleRevision,
      settledSetDigest: ctx.writeContext.settledSetDigest,
      writeContextDigest: ctx.writeContext.contextDigest,
      evidence,
    };
  }
}

let counter = 0;
/** A fresh prepare event. */
export function prepareEvent(targets: string[] = ['src/a.ts']): OperationEventInput {
  counter += 1;
  return {
    event: 'prepare',
    operationId: `op-${counter}-${randomUUID().slice(0, 8)}`,
    idempotencyKey: `idem-${counter}-${randomUUID().slice(0, 8)}`,
    kind: 'update',
    exactTargets: targets,
    beforeDigest: sha(`before-${counter}`),
  };
}
