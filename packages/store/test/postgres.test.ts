// @module-tag integration
// @module-tag slow
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StorageBackend } from '../src/backend.js';
import { createPostgresBackend } from '../src/backends/postgres.js';
import { defineStoreModelProperties } from './contract/model.js';
import { defineStoreContractSuite } from './contract/suite.js';
import { backendPrimitiveCases } from './helpers/backend-primitive-cases.js';
import { acquire, fenceOf, stateCommit, taskKey } from './helpers/envelopes.js';
import { dropSchema, freshSchema, PG_SKIP, requirePgUrl } from './helpers/postgres-env.js';

/** One backend per suite, shared by its tests (tasks have fresh keys); `close` is idempotent. */
function sharedBackend(label: string) {
  const schema = freshSchema(label);
  let backend: Promise<StorageBackend> | null = null;
  return {
    make: () => (backend ??= createPostgresBackend(requirePgUrl(), { schema })),
    cleanup: async () => {
      if (backend) await (await backend).close();
      await dropSchema(schema);
    },
  };
}

describe.skipIf(PG_SKIP)('postgres backend: TaskStore contract and model', () => {
  const contract = sharedBackend('contract');
  defineStoreContractSuite('postgres', contract.make, contract.cleanup);
  const model = sharedBackend('model');
  defineStoreModelProperties('postgres', model.make, model.cleanup, { numRuns: 25 });
});

describe.skipIf(PG_SKIP)('postgres backend: the storage primitive', () => {
  const schema = freshSchema('primitive');
  backendPrimitiveCases(
    () => createPostgresBackend(requirePgUrl(), { schema }),
    () => dropSchema(schema),
  );
});

describe.skipIf(PG_SKIP)('postgres backend: engine settings and failures', () => {
  const schema = freshSchema('engine');
  const appName = `ac-test-${schema}`;
  let backend: StorageBackend;
  let admin: pg.Client;
  beforeAll(async () => {
    backend = await createPostgresBackend(requirePgUrl(), {
      schema,
      applicationName: appName,
      maxConnections: 4,
    });
    admin = new pg.Client({ connectionString: requirePgUrl() });
    await admin.connect();
  });
  afterAll(async () => {
    await backend?.close();
    await admin?.end();
    await dropSchema(schema);
  });

  it('the envelope log is append-only under the head: history equals every acknowledged append', async () => {
    const key = taskKey('log');
    const e1 = acquire(key);
    await backend.compareAndAppend(key, fenceOf(null), e1);
    let prev = e1;
    const chain = [e1];
    for (let i = 0; i < 5; i++) {
      const next = stateCommit(prev, { i });
      expect(await backend.compareAndAppend(key, fenceOf(prev), next)).toEqual({ ok: true });
      chain.push(next);
      prev = next;
    }
    expect(await backend.history(key)).toEqual(chain);
    const rows = await admin.query(`SELECT state_sequence FROM "${schema}".tasks WHERE task_id = $1`, [
      key.taskId,
    ]);
    expect(rows.rows).toEqual([{ state_sequence: '6' }]);
  });

  it('a connection dropped mid-append is a coded retryable STORE_CONNECTION_LOST, never a success', async () => {
    const key = taskKey('dropped');
    const e1 = acquire(key);
    await backend.compareAndAppend(key, fenceOf(null), e1);
    // Hold the task row so the append blocks inside the server, then kill its connection.
    const holder = new pg.Client({ connectionString: requirePgUrl() });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query(`SELECT 1 FROM "${schema}".tasks WHERE task_id = $1 FOR UPDATE`, [key.taskId]);
    const pending = backend.compareAndAppend(key, fenceOf(e1), stateCommit(e1, { dropped: true })).then(
      (r) => ({ resolved: r }),
      (e) => ({ rejected: e }),
    );
    let killed = 0;
    for (let i = 0; i < 100 && killed === 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
      const r = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE application_name = $1 AND wait_event_type = 'Lock'`,
        [appName],
      );
      killed = r.rowCount ?? 0;
    }
    expect(killed).toBe(1);
    const outcome = await pending;
    expect(outcome).toMatchObject({
      rejected: { code: 'STORE_CONNECTION_LOST', retryable: true, outcome: 'unknown' },
    });
    await holder.query('ROLLBACK');
    await holder.end();
    // The store recovers with a fresh connection, and the killed append did not apply.
    expect(await backend.history(key)).toEqual([e1]);
    expect(await backend.compareAndAppend(key, fenceOf(e1), stateCommit(e1, { after: true }))).toEqual({
      ok: true,
    });
  });

  it('an unreachable server is STORE_UNAVAILABLE at open', async () => {
    const url = new URL(requirePgUrl());
    url.port = '1';
    await expect(
      createPostgresBackend(url.toString(), { schema, connectTimeoutMs: 2000 }),
    ).rejects.toMatchObject({
      code: 'STORE_UNAVAILABLE',
    });
  });

  it('refuses a schema of another store version and unsafe schema names', async () => {
    const other = freshSchema('version');
    await (await createPostgresBackend(requirePgUrl(), { schema: other })).close();
    await admin.query(`UPDATE "${other}".store_meta SET value = '99'`);
    await expect(createPostgresBackend(requirePgUrl(), { schema: other })).rejects.toMatchObject({
      code: 'STORE_SCHEMA_MISMATCH',
    });
    await dropSchema(other);
    await expect(
      createPostgresBackend(requirePgUrl(), { schema: 'x"; DROP TABLE y; --' }),
    ).rejects.toMatchObject({
      code: 'STORE_UNAVAILABLE',
    });
  });
});
