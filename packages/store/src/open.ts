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

/** A backend module and the driver package it imports. */
export interface BackendModule {
  readonly importer: () => Promise<object>;
  readonly factory: string;
  /** The backend's name in messages. */
  readonly name: string;
  /** The driver's package and the major version the backend is written for. */
  readonly driver: string;
  readonly major: number;
}

/** Whether `e` is Node's "cannot find package `<pkg>`", not a failure inside the driver. */
function driverMissing(e: unknown, pkg: string): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    String((e as Error).message).includes(`'${pkg}'`)
  );
}

/**
 * The factory of a backend module, imported now; `STORE_BACKEND_UNAVAILABLE` when it cannot be
 * (its driver not installed: the message names the package to add).
 */
export async function loadBackend({
  importer,
  factory,
  name,
  driver,
  major,
}: BackendModule): Promise<(...args: unknown[]) => unknown> {
  let mod: Record<string, unknown>;
  try {
    mod = (await importer()) as Record<string, unknown>;
  } catch (cause) {
    throw new StoreError(
      'STORE_BACKEND_UNAVAILABLE',
      driverMissing(cause, driver)
        ? `The ${name} backend needs the driver ${driver}, which is not installed: npm install ${driver}@${major} (an optional peer dependency of @agent-contracts/store), or use another store URL.`
        : `The ${name} backend cannot be loaded (${(cause as Error).message}); reinstall its driver (npm install ${driver}@${major}), or use another store URL.`,
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
const SQLITE: BackendModule = {
  importer: () => import('./backends/sqlite.js'),
  factory: 'createSqliteBackend',
  name: 'SQLite',
  driver: 'better-sqlite3',
  major: 12,
};
const POSTGRES: BackendModule = {
  importer: () => import('./backends/postgres.js'),
  factory: 'createPostgresBackend',
  name: 'PostgreSQL',
  driver: 'pg',
  major: 8,
};

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
    const create = await loadBackend(SQLITE);
    if (target.kind === 'sqlite') return (await create(target.path)) as StorageBackend;
    mkdirSync(target.path, { recursive: true });
    return (await create(join(target.path, DIRECTORY_SQLITE_FILE))) as StorageBackend;
  }
  const create = await loadBackend(POSTGRES);
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
