// @module-tag integration
// @module-tag slow
// The store over the protocol: every golden case of conformance/cases/store passes in process on
// memory, on SQLite and on PostgreSQL (skipped loudly without AGENT_CONTRACTS_PG_URL outside CI, a
// failure in CI; through a real `agent-contracts conform` subprocess:
// test/integration/reference-conform.test.ts). Durable state survives kill -9, and a store that
// ignores the fence is caught by the cases.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type InProcessAdapter,
  loadCases,
  runSuite,
  startInProcess,
  startSubprocess,
} from '@agent-contracts/harness';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { REFERENCE } from '../../../tooling/test-helpers/reference.ts';
import { createHandler } from '../src/handler.ts';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const conformanceDir = join(repo, 'conformance');
const storeCases = loadCases(conformanceDir).filter((c) => c.id.startsWith('store/'));
const tmp = mkdtempSync(join(tmpdir(), 'reference-store-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const PG_URL = process.env.AGENT_CONTRACTS_PG_URL ?? '';
const PG_REQUIRED = Boolean(process.env.CI || process.env.AGENT_CONTRACTS_REQUIRE_PG);
const PG_SKIP = PG_URL === '' && !PG_REQUIRED;
if (PG_SKIP)
  process.stderr.write(
    '\n!! reference-node PostgreSQL store runs SKIPPED: AGENT_CONTRACTS_PG_URL is unset. Run `export AGENT_CONTRACTS_PG_URL="$(bash .ci/postgres.sh)"` (CI and AGENT_CONTRACTS_REQUIRE_PG=1 make this a failure).\n\n',
  );
const requirePgUrl = () => {
  if (!PG_URL) throw new Error('AGENT_CONTRACTS_PG_URL is unset but CI requires the PostgreSQL runs');
  return PG_URL;
};

async function runStoreCases(adapter: InProcessAdapter, location: string | null) {
  const impl = await startInProcess(adapter, location);
  try {
    return await runSuite(impl, storeCases, { conformanceDir, timeoutMs: 10_000, restartBudget: 0 });
  } finally {
    await impl.close();
  }
}

const notPassing = (results: Awaited<ReturnType<typeof runStoreCases>>) =>
  results.filter((r) => r.outcome !== 'pass').map((r) => `${r.id}: ${r.outcome} ${r.detail}`);

const KEY = { projectRootIdentity: 'a'.repeat(64), taskId: '0199b6e2-4c1d-7a3e-8f52-3d9c0e7a41b6' };
const acquire = {
  operation: 'acquire',
  ...KEY,
  expectedFence: { schemaVersion: 'TaskRecoveryCommitFenceV1', stateSequence: 0, writerGeneration: 0 },
  expectedOwner: { mode: 'absent' },
  sessionDigest: 'b'.repeat(64),
  contextEpoch: 'epoch-1',
  routeRevision: 'c'.repeat(64),
  targetSessionDigest: null,
  handoffRefDigest: null,
  takeoverRefDigest: null,
  takeoverEvidence: null,
  terminal: null,
  terminalReceiptDigest: null,
};

describe('reference-node store over the protocol', () => {
  it('the generated store cases cover the gate (owner rows, operation edges, fences, receipts, terminal)', () => {
    expect(storeCases.length).toBeGreaterThan(200);
    for (const prefix of [
      'owner/row/',
      'owner/unlisted/',
      'operation/',
      'fence/stale/',
      'receipts/',
      'terminal/evidence-',
    ])
      expect(
        storeCases.some((c) => c.id.startsWith(`store/${prefix}`)),
        prefix,
      ).toBe(true);
    expect(storeCases.every((c) => c.requires.includes('store') && c.requires.includes('clock'))).toBe(true);
  });

  it('passes every store case in process on memory', async () => {
    const results = await runStoreCases(createHandler(), 'memory:');
    expect(notPassing(results)).toEqual([]);
    expect(results.length).toBe(storeCases.length);
  });

  it('passes every store case in process on SQLite (<dir>/tasks.db), and the state is durable', async () => {
    const dir = join(tmp, 'in-process-sqlite');
    const results = await runStoreCases(createHandler(), dir);
    expect(notPassing(results)).toEqual([]);
    expect(existsSync(join(dir, 'tasks.db'))).toBe(true);
    // A fresh handler on the same location reads what the run wrote.
    const again = createHandler();
    await again.handle('hello', { protocolVersion: 1, stateLocation: dir });
    const task = { projectRootIdentity: KEY.projectRootIdentity, taskId: KEY.taskId };
    expect(await again.handle('store.history', { task })).toEqual([]);
    await again.handle('store.transitionOwner', { request: acquire });
    await again.close();
    const third = createHandler();
    await third.handle('hello', { protocolVersion: 1, stateLocation: dir });
    expect(await third.handle('store.read', { task })).toMatchObject({
      status: 'found',
      fence: { stateSequence: 1 },
    });
    await third.handle('shutdown', {});
  });

  it('a store that ignores the fence fails the fence cases (the cases can fail)', async () => {
    const inner = createHandler();
    const sloppy: InProcessAdapter = {
      async handle(method, params) {
        if (method !== 'store.commitState') return inner.handle(method, params);
        const request = (params as { request: Record<string, unknown> }).request;
        const current = (await inner
          .handle('store.read', {
            task: { projectRootIdentity: request.projectRootIdentity, taskId: request.taskId },
          })
          .catch(() => null)) as { fence?: unknown } | null;
        return inner.handle(method, {
          request: { ...request, expectedFence: current?.fence ?? request.expectedFence },
        });
      },
      close: () => inner.close(),
    };
    const failed = notPassing(await runStoreCases(sloppy, 'memory:'));
    expect(failed.some((f) => f.startsWith('store/fence/stale/sequence-minus-one:'))).toBe(true);
    expect(failed.some((f) => f.startsWith('store/fence/stale/generation-plus-one-with-force:'))).toBe(true);
  });

  it('refuses malformed store params (-32602) and names a missing task key with the spec code', async () => {
    const h = createHandler();
    await h.handle('hello', { protocolVersion: 1, stateLocation: null });
    await expect(h.handle('store.read', {})).rejects.toThrow(/params.task/);
    await expect(h.handle('store.commitState', { request: 7 })).rejects.toThrow(/params.request/);
    await expect(
      h.handle('store.read', { task: { projectRootIdentity: '', taskId: 'x' } }),
    ).rejects.toMatchObject({
      code: 'LIFECYCLE_TASK_IDENTITY_REQUIRED',
    });
    await expect(h.handle('store.readWriteContext', { task: KEY })).rejects.toMatchObject({
      code: 'LIFECYCLE_STATE_UNAVAILABLE',
      data: { currentFence: { stateSequence: 0, writerGeneration: 0 } },
    });
    await h.close();
  });

  it('keeps a directory state location in its tasks.db, and refuses a location that names no store', async () => {
    const dir = join(tmp, 'bare-directory');
    const h = createHandler();
    await h.handle('hello', { protocolVersion: 1, stateLocation: dir, localDirectory: null });
    expect(readdirSync(dir)).toContain('tasks.db');
    await h.close();
    const bad = createHandler();
    await expect(
      bad.handle('hello', { protocolVersion: 1, stateLocation: 'mysql://h/db', localDirectory: null }),
    ).rejects.toMatchObject({ code: 'STATE_LOCATION_INVALID' });
    await bad.close();
  });

  it('durable state survives kill -9 of the subprocess: the restarted process reads it back', async () => {
    const state = join(tmp, 'kill');
    const impl = await startSubprocess({
      command: REFERENCE,
      stateLocation: state,
      requestTimeoutMs: 20_000,
    });
    try {
      expect(await impl.request('store.transitionOwner', { request: acquire })).toMatchObject({
        status: 'committed',
      });
      await impl.kill();
      await impl.restart();
      expect(await impl.request('store.read', { task: KEY })).toMatchObject({
        status: 'found',
        fence: { stateSequence: 1, writerGeneration: 1 },
      });
      expect(await impl.request('store.transitionOwner', { request: acquire })).toMatchObject({
        status: 'replayed',
      });
    } finally {
      await impl.close();
    }
  });
});

describe.skipIf(PG_SKIP)('reference-node store on PostgreSQL', () => {
  const schemas: string[] = [];
  const fresh = (label: string) => {
    const s = `ac_ref_${label}_${process.pid}_${Date.now().toString(36)}`;
    schemas.push(s);
    return s;
  };
  afterAll(async () => {
    if (!PG_URL) return;
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      const { rows } = await client.query<{ nspname: string }>(
        "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'ac_ref_%' OR nspname LIKE 'ac_conform_ref_%'",
      );
      for (const { nspname } of rows)
        if (schemas.some((s) => nspname.startsWith(s)))
          await client.query(`DROP SCHEMA "${nspname}" CASCADE`);
    } finally {
      await client.end();
    }
  });

  it('passes every store case in process on a fresh schema', async () => {
    const url = new URL(requirePgUrl());
    url.searchParams.set('schema', fresh('inproc'));
    const results = await runStoreCases(createHandler(), url.href);
    expect(notPassing(results)).toEqual([]);
    expect(results.length).toBe(storeCases.length);
  });
});
