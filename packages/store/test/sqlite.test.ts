// @module-tag integration
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteBackend } from '../src/backends/sqlite.js';
import { defineStoreModelProperties } from './contract/model.js';
import { defineStoreContractSuite } from './contract/suite.js';
import { backendPrimitiveCases } from './helpers/backend-primitive-cases.js';
import { acquire, fenceOf, stateCommit, taskKey } from './helpers/envelopes.js';

const dir = mkdtempSync(join(tmpdir(), 'agent-contracts-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const freshPath = () => join(dir, `store-${++n}.db`);

// The TaskStore contract suite and the model-based properties, on a real file; every test opens
// its own connection to the same file.
const contractPath = freshPath();
defineStoreContractSuite(
  'sqlite',
  async () => createSqliteBackend(contractPath),
  async () => {},
);
const modelPath = freshPath();
defineStoreModelProperties(
  'sqlite',
  async () => createSqliteBackend(modelPath),
  async () => {},
  { numRuns: 25 },
);

describe('sqlite backend: the storage primitive', () => {
  const path = freshPath();
  backendPrimitiveCases(
    async () => createSqliteBackend(path),
    async () => {},
  );
});

describe('sqlite backend: engine settings and durability', () => {
  it('opens in WAL mode and records its schema version', async () => {
    const path = freshPath();
    const backend = createSqliteBackend(path);
    await backend.close();
    const db = new Database(path, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.prepare('SELECT value FROM store_meta WHERE key = ?').get('schema_version')).toEqual({
      value: '1',
    });
    db.close();
  });

  it('an acknowledged append is visible to a fresh process reading the file', async () => {
    const path = freshPath();
    const backend = createSqliteBackend(path);
    const key = taskKey('fresh-process');
    const e1 = acquire(key);
    await backend.compareAndAppend(key, fenceOf(null), e1);
    const e2 = stateCommit(e1, { durable: true });
    await backend.compareAndAppend(key, fenceOf(e1), e2);
    const seen = execFileSync(
      process.execPath,
      [
        '-e',
        `const D=require(${JSON.stringify(require.resolve('better-sqlite3'))});const d=new D(process.argv[1],{readonly:true});console.log(JSON.stringify(d.prepare('SELECT state_sequence s, writer_generation g FROM tasks').all()));`,
        path,
      ],
      { encoding: 'utf8' },
    );
    expect(JSON.parse(seen)).toEqual([{ s: 2, g: 1 }]);
    await backend.close();
  });

  it('load and history change no byte of the file', async () => {
    const path = freshPath();
    const backend = createSqliteBackend(path);
    const key = taskKey('read-only');
    const e1 = acquire(key);
    await backend.compareAndAppend(key, fenceOf(null), e1);
    const before = [readFileSync(path), readFileSync(`${path}-wal`)];
    await backend.load(key);
    await backend.history(key);
    await backend.load(taskKey('absent'));
    expect([readFileSync(path), readFileSync(`${path}-wal`)]).toEqual(before);
    await backend.close();
  });

  it('a writer blocked past busy_timeout gets a coded, retryable STORE_BUSY and writes nothing', async () => {
    const path = freshPath();
    const backend = createSqliteBackend(path, { busyTimeoutMs: 50 });
    const key = taskKey('busy');
    const e1 = acquire(key);
    await backend.compareAndAppend(key, fenceOf(null), e1);
    const blocker = new Database(path);
    blocker.exec('BEGIN IMMEDIATE');
    const started = Date.now();
    const err = await backend
      .compareAndAppend(key, fenceOf(e1), stateCommit(e1, { busy: 1 }))
      .catch((e) => e);
    expect(err).toMatchObject({ code: 'STORE_BUSY', retryable: true, outcome: 'not-applied' });
    expect(Date.now() - started).toBeLessThan(2000);
    blocker.exec('ROLLBACK');
    blocker.close();
    expect(await backend.history(key)).toEqual([e1]);
    expect(await backend.compareAndAppend(key, fenceOf(e1), stateCommit(e1, { busy: 2 }))).toEqual({
      ok: true,
    });
    await backend.close();
  });

  it('refuses a file written by another schema version, and a closed backend', async () => {
    const path = freshPath();
    await createSqliteBackend(path).close();
    const db = new Database(path);
    db.prepare('UPDATE store_meta SET value = ? WHERE key = ?').run('99', 'schema_version');
    db.close();
    expect(() => createSqliteBackend(path)).toThrow(
      expect.objectContaining({ code: 'STORE_SCHEMA_MISMATCH' }),
    );
    const other = createSqliteBackend(freshPath());
    await other.close();
    await expect(other.load(taskKey('x'))).rejects.toMatchObject({ code: 'STORE_CLOSED' });
  });

  it('a head row whose envelope is missing or different is STORE_CORRUPT, never an older envelope', async () => {
    const path = freshPath();
    const backend = createSqliteBackend(path);
    const key = taskKey('corrupt');
    const e1 = acquire(key);
    await backend.compareAndAppend(key, fenceOf(null), e1);
    await backend.compareAndAppend(key, fenceOf(e1), stateCommit(e1, { v: 2 }));
    const db = new Database(path);
    db.prepare('DELETE FROM envelopes WHERE sequence = 2').run();
    db.close();
    await expect(backend.load(key)).rejects.toMatchObject({ code: 'STORE_CORRUPT' });
    await backend.close();
  });
});
