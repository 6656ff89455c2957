// Where the reference implementation keeps its TaskStore: the state location the harness passes
// in `hello` mapped to a backend, and the conformance project root terminal evidence is read from.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Clock } from '@agent-contracts/engines';
import {
  openBackend,
  type StorageBackend,
  StoreError,
  TaskStore,
  type TaskStoreOptions,
} from '@agent-contracts/store';

/**
 * The project root every task's terminal evidence is resolved against: the files that
 * docs/protocol.md#terminal-evidence lists, shipped with this package (`closeout/outside.md` is
 * the symbolic link that leads out of it).
 */
export const CONFORMANCE_PROJECT_ROOT = fileURLToPath(new URL('../conformance-project/', import.meta.url));

/** The backend a state location names, and its target (see {@link storeTargetOf}). */
export type StoreLocation =
  | { readonly kind: 'memory' }
  | { readonly kind: 'sqlite'; readonly path: string }
  | { readonly kind: 'postgres'; readonly url: string; readonly schema: string | undefined };

const SCHEMA = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Map a `hello` state location to a store: `null` or `memory:` keep state in memory (gone with
 * the process); `postgres://...` / `postgresql://...` is a PostgreSQL database whose optional
 * `schema=<name>` query parameter (a lowercase identifier, default `agent_contracts_store`) names
 * the schema holding the tables, so parallel jobs and test runs on one database never share
 * tasks; `sqlite:<file>` is that SQLite file; anything else is a directory holding the SQLite
 * file `tasks.db`.
 *
 * @example
 * storeTargetOf('/tmp/job-1'); // { kind: 'sqlite', path: '/tmp/job-1/tasks.db' }
 */
export function storeTargetOf(location: string | null): StoreLocation {
  if (location === null || location === '' || location === 'memory:' || location === 'memory://')
    return { kind: 'memory' };
  if (/^postgres(ql)?:\/\//.test(location)) {
    let url: URL;
    try {
      url = new URL(location);
    } catch (cause) {
      throw new StoreError('STORE_URL_INVALID', `the state location ${location} is not a URL`, { cause });
    }
    const schema = url.searchParams.get('schema') ?? undefined;
    if (schema !== undefined && !SCHEMA.test(schema)) {
      throw new StoreError(
        'STORE_URL_INVALID',
        `schema=${JSON.stringify(schema)} is not a lowercase SQL identifier ([a-z_][a-z0-9_]*, at most 63 characters)`,
      );
    }
    url.searchParams.delete('schema');
    return { kind: 'postgres', url: url.toString(), schema };
  }
  const sqlite = /^sqlite:(\/\/)?(.+)$/.exec(location);
  if (sqlite) return { kind: 'sqlite', path: sqlite[2] as string };
  return { kind: 'sqlite', path: join(location, 'tasks.db') };
}

/**
 * Open the TaskStore of a state location on `clock` (the handler's injectable clock), reading
 * terminal evidence from {@link CONFORMANCE_PROJECT_ROOT}. A new runtime generation is minted
 * at every open, as at every runtime start. `wrap` sees the storage backend before the store
 * does (the crash points of docs/protocol.md#crash-points sit there).
 */
export async function openStateStore(
  location: string | null,
  clock: Clock,
  wrap: (backend: StorageBackend) => StorageBackend = (b) => b,
): Promise<TaskStore> {
  const options: TaskStoreOptions = { clock, projectRoot: CONFORMANCE_PROJECT_ROOT };
  const target = storeTargetOf(location);
  if (target.kind === 'memory') return new TaskStore(wrap(await openBackend('memory:')), options);
  if (target.kind === 'sqlite') {
    if (location !== null && !location.startsWith('sqlite:')) mkdirSync(location, { recursive: true });
    return new TaskStore(wrap(await openBackend(`sqlite:${target.path}`)), options);
  }
  // Loaded only here, so that a run without PostgreSQL never loads the driver.
  const { createPostgresBackend } = await import('@agent-contracts/store/postgres');
  const backend = await createPostgresBackend(target.url, {
    ...(target.schema === undefined ? {} : { schema: target.schema }),
    applicationName: 'agent-contracts-reference-node',
  });
  return new TaskStore(wrap(backend), options);
}
