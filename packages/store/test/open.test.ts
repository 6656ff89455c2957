import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StoreError } from '../src/errors.js';
import { openBackend, openStore, parseStoreUrl } from '../src/open.js';

const dir = mkdtempSync(join(tmpdir(), 'agent-contracts-open-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('openStore', () => {
  it('maps URLs and paths to backends', () => {
    expect(parseStoreUrl('memory:')).toEqual({ kind: 'memory' });
    expect(parseStoreUrl('sqlite:./tasks.db')).toEqual({ kind: 'sqlite', path: './tasks.db' });
    expect(parseStoreUrl('sqlite:///var/tasks.db')).toEqual({ kind: 'sqlite', path: '/var/tasks.db' });
    expect(parseStoreUrl('./tasks.db')).toEqual({ kind: 'sqlite', path: './tasks.db' });
    expect(parseStoreUrl('postgres://u@h/db')).toEqual({ kind: 'postgres', url: 'postgres://u@h/db' });
    expect(parseStoreUrl('postgresql://u@h/db')).toEqual({ kind: 'postgres', url: 'postgresql://u@h/db' });
  });

  for (const bad of ['', 'mysql://h/db', 'sqlite:', 'http://x']) {
    it(`refuses ${JSON.stringify(bad)} with STORE_URL_INVALID`, () => {
      let caught: unknown;
      try {
        parseStoreUrl(bad);
      } catch (e) {
        caught = e;
      }
      expect(caught instanceof StoreError && caught.code).toBe('STORE_URL_INVALID');
    });
  }

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
