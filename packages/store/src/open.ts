import type { StorageBackend } from './backend.js';
import { createMemoryBackend } from './backends/memory.js';
import { StoreError } from './errors.js';
import { TaskStore, type TaskStoreOptions } from './task-store.js';

/** Which backend a store URL names, and its target. */
export type StoreTarget =
  | { readonly kind: 'memory' }
  | { readonly kind: 'sqlite'; readonly path: string }
  | { readonly kind: 'postgres'; readonly url: string };

/**
 * Map a store URL to its backend: `memory:`; `sqlite:<path>`, `sqlite://<path>` or a bare file
 * path (SQLite, the embedded default); `postgres://...` or `postgresql://...`.
 *
 * @throws {StoreError} `STORE_URL_INVALID` for anything else.
 * @example
 * parseStoreUrl('sqlite:./tasks.db'); // { kind: 'sqlite', path: './tasks.db' }
 */
export function parseStoreUrl(url: string): StoreTarget {
  const invalid = () =>
    new StoreError(
      'STORE_URL_INVALID',
      `"${url}" names no store backend; use memory:, sqlite:<path>, a file path, or postgres://...`,
    );
  if (typeof url !== 'string' || url.trim() === '') throw invalid();
  if (url === 'memory:' || url === 'memory://') return { kind: 'memory' };
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url };
  const sqlite = /^sqlite:(\/\/)?(.*)$/.exec(url);
  if (sqlite) {
    const path = sqlite[2] ?? '';
    if (path === '') throw invalid();
    return { kind: 'sqlite', path };
  }
  // A bare path: no URL scheme (a Windows drive letter such as C:\ is a path, not a scheme).
  if (/^[A-Za-z][A-Za-z0-9+.-]+:/.test(url)) throw invalid();
  return { kind: 'sqlite', path: url };
}

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

/**
 * Open the storage backend a store URL names (see {@link parseStoreUrl}). The SQLite and
 * PostgreSQL modules are imported only when asked for.
 *
 * @throws {StoreError} `STORE_URL_INVALID`, or `STORE_BACKEND_UNAVAILABLE` when the backend cannot be loaded.
 * @example
 * ```ts
 * const backend = await openBackend('memory:');
 * ```
 */
export async function openBackend(url: string): Promise<StorageBackend> {
  const target = parseStoreUrl(url);
  if (target.kind === 'memory') return createMemoryBackend();
  if (target.kind === 'sqlite') {
    const create = await load(SQLITE_MODULE, 'createSqliteBackend');
    return (await create(target.path)) as StorageBackend;
  }
  const create = await load(POSTGRES_MODULE, 'createPostgresBackend');
  return (await create(target.url)) as StorageBackend;
}

/**
 * Open a {@link TaskStore} on the backend a URL names: `memory:`, `sqlite:./tasks.db` (or a bare
 * path), `postgres://...`.
 *
 * @throws {StoreError} `STORE_URL_INVALID` or `STORE_BACKEND_UNAVAILABLE`.
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
