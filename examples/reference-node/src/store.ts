// Where the reference implementation keeps its TaskStore: the state location the harness passes
// in `hello` mapped to a backend, and the conformance project root terminal evidence is read from.
import { fileURLToPath } from 'node:url';
import type { Clock } from '@agent-contracts/engines';
import { parseStateLocation } from '@agent-contracts/protocol';
import { openBackend, type StorageBackend, TaskStore, type TaskStoreOptions } from '@agent-contracts/store';

/**
 * The project root every task's terminal evidence is resolved against: the files that
 * docs/protocol.md#terminal-evidence lists, shipped with this package (`closeout/outside.md` is
 * the symbolic link that leads out of it).
 */
export const CONFORMANCE_PROJECT_ROOT = fileURLToPath(new URL('../conformance-project/', import.meta.url));

/**
 * Open the TaskStore of a state location (`parseStateLocation`, docs/protocol.md#hello-v1: null or
 * `memory:` in memory, a directory holding `tasks.db`, `sqlite:<file>`, `postgres://...` with an
 * optional `schema=<name>`) on `clock` (the handler's injectable clock), reading terminal evidence from {@link CONFORMANCE_PROJECT_ROOT}. A new runtime generation is minted
 * at every open, as at every runtime start. `wrap` sees the storage backend before the store
 * does (the crash points of docs/protocol.md#crash-points sit there).
 */
export async function openStateStore(
  location: string | null,
  clock: Clock,
  wrap: (backend: StorageBackend) => StorageBackend = (b) => b,
): Promise<TaskStore> {
  const options: TaskStoreOptions = { clock, projectRoot: CONFORMANCE_PROJECT_ROOT };
  const target = parseStateLocation(location);
  if (target.kind !== 'postgres') {
    // memory:, a directory (its tasks.db) or a SQLite file: the store opens what the location names.
    return new TaskStore(wrap(await openBackend(location ?? 'memory:')), options);
  }
  // Loaded only here, so that a run without PostgreSQL never loads the driver.
  const { createPostgresBackend } = await import('@agent-contracts/store/postgres');
  const backend = await createPostgresBackend(target.url, {
    ...(target.schema === undefined ? {} : { schema: target.schema }),
    applicationName: 'agent-contracts-reference-node',
  });
  return new TaskStore(wrap(backend), options);
}
