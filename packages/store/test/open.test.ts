// @module-tag unit
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StoreError } from '../src/errors.js';
import { openBackend, openStore } from '../src/open.js';

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
