import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  DIRECTORY_SQLITE_FILE,
  parseStateLocation,
  type StateLocation,
  StateLocationError,
} from '@agent-contracts/protocol';
import type { StorageBackend } from './backend.js';
import { createMemoryBackend } from './backends/memory.js';
import { StoreError } from './errors.js';
import { TaskStore, type TaskStoreOptions } from './task-store.js';

async function load(
  importer: () => Promise<object>,
  factory: string,
): Promise<(...args: unknown[]) => unknown> {
  let mod: Record<string, unknown>;
  try {
    mod = (await importer()) as Record<string, unknown>;
  } catch (cause) {
    throw new StoreError(
      'STORE_BACKEND_UNAVAILABLE',
      `The ${factory.replace(/^create|Backend$/g, '')} backend cannot be loaded; install its driver (better-sqlite3 12 or pg) and rebuild, or use another store URL.`,
      { cause },
    );
  }
  const fn = mod[factory];
  if (typeof fn !== 'function') {
    throw new StoreError(
      'STORE_BACKEND_UNAVAILABLE',
      `The backend module does not export ${factory}; reinstall @agent-contracts/store.`,
    );
  }
  return fn as (...args: unknown[]) => unknown;
}

// Imported only when called, so that loading this module never loads a native driver; literal
// specifiers, so that a bundle of the reference implementation carries them as lazy chunks.
const SQLITE_MODULE = () => import('./backends/sqlite.js');
const POSTGRES_MODULE = () => import('./backends/postgres.js');

/** The state location `url` names (the protocol's one parser), or `STATE_LOCATION_INVALID`. */
function targetOf(url: string): StateLocation {
  try {
    return parseStateLocation(url);
  } catch (e) {
    if (e instanceof StateLocationError) throw new StoreError(e.code, e.message, { cause: e });
    throw e;
  }
}

/**
 * Open the storage backend a state location names (`parseStateLocation` of
 * @agent-contracts/protocol, docs/protocol.md#hello-v1): `memory:`; a bare path is a directory,
 * created if missing, holding the SQLite file `tasks.db`; `sqlite:<file>` that SQLite file;
 * `postgres://...` a PostgreSQL database, its `schema=<name>` parameter the schema of the tables.
 * The SQLite and PostgreSQL modules are imported only when asked for.
 *
 * @throws {StoreError} `STATE_LOCATION_INVALID`, or `STORE_BACKEND_UNAVAILABLE` when the backend cannot be loaded.
 * @example
 * ```ts
 * const backend = await openBackend('memory:');
 * ```
 */
export async function openBackend(url: string): Promise<StorageBackend> {
  const target = targetOf(url);
  if (target.kind === 'memory') return createMemoryBackend();
  if (target.kind === 'directory' || target.kind === 'sqlite') {
    const create = await load(SQLITE_MODULE, 'createSqliteBackend');
    if (target.kind === 'sqlite') return (await create(target.path)) as StorageBackend;
    mkdirSync(target.path, { recursive: true });
    return (await create(join(target.path, DIRECTORY_SQLITE_FILE))) as StorageBackend;
  }
  const create = await load(POSTGRES_MODULE, 'createPostgresBackend');
  return (await create(
    target.url,
    target.schema === undefined ? {} : { schema: target.schema },
  )) as StorageBackend;
}

/**
 * Open a {@link TaskStore} on the backend a URL names: `memory:`, `sqlite:./tasks.db` (or a bare
 * path), `postgres://...`.
 *
 * @throws {StoreError} `STATE_LOCATION_INVALID` or `STORE_BACKEND_UNAVAILABLE`.
 * @example
 * ```ts
 * import { openStore } from '@agent-contracts/store';
 * const store = await openStore('sqlite:./tasks.db');
 * await store.close();
 * ```
 */
export async function openStore(url: string, options: TaskStoreOptions = {}): Promise<TaskStore> {
  return new TaskStore(await openBackend(url), options);
}
