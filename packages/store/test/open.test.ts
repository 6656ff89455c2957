// @module-tag unit
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StoreError } from '../src/errors.js';
import { type BackendModule, loadBackend, openBackend, openStore } from '../src/open.js';

const dir = mkdtempSync(join(tmpdir(), 'agent-contracts-open-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('openStore', () => {
  for (const bad of ['', 'mysql://h/db', 'sqlite:', 'http://x']) {
    it(`refuses ${JSON.stringify(bad)} with STATE_LOCATION_INVALID`, async () => {
      let caught: unknown;
      try {
        await openStore(bad);
      } catch (e) {
        caught = e;
      }
      expect(caught instanceof StoreError && caught.code).toBe('STATE_LOCATION_INVALID');
    });
  }

  it('opens a bare path as a directory holding tasks.db (docs/protocol.md PROTO-004)', async () => {
    const state = join(dir, 'state-directory');
    const store = await openStore(state);
    expect(store.backend.kind).toBe('sqlite');
    expect(readdirSync(state)).toContain('tasks.db');
    await store.close();
  });

  it('opens a memory store', async () => {
    const store = await openStore('memory:');
    expect(store.backend.kind).toBe('memory');
    await store.close();
  });

  it('opens a SQLite store through the dynamically loaded backend', async () => {
    const backend = await openBackend(`sqlite:${join(dir, 'tasks.db')}`);
    expect(backend.kind).toBe('sqlite');
    await backend.close();
  });
});

describe('a backend whose driver is not installed (pg is an optional peer dependency)', () => {
  const notFound = (pkg: string) =>
    Object.assign(new Error(`Cannot find package '${pkg}' imported from /x/postgres.js`), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
  const postgres = (error: Error): BackendModule => ({
    importer: () => Promise.reject(error),
    factory: 'createPostgresBackend',
    name: 'PostgreSQL',
    driver: 'pg',
    major: 8,
  });
  const refusal = async (m: BackendModule) => {
    try {
      await loadBackend(m);
    } catch (e) {
      return e;
    }
    throw new Error('loadBackend resolved');
  };

  it('is STORE_BACKEND_UNAVAILABLE naming the package to add', async () => {
    const e = await refusal(postgres(notFound('pg')));
    expect(e instanceof StoreError && e.code).toBe('STORE_BACKEND_UNAVAILABLE');
    expect((e as Error).message).toContain('needs the driver pg, which is not installed: npm install pg@8');
  });

  it('another failure of loading it is not called a missing driver', async () => {
    const e = await refusal(postgres(notFound('pg-types')));
    expect(e instanceof StoreError && e.code).toBe('STORE_BACKEND_UNAVAILABLE');
    expect((e as Error).message).not.toContain('not installed');
    expect((e as Error).message).toContain("Cannot find package 'pg-types'");
  });
});
