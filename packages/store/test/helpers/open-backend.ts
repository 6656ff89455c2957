// Opens the backend a child process of the race and crash tests works on, from its environment:
// STORE_BACKEND=sqlite|postgres, STORE_TARGET=<file path or URL>, STORE_SCHEMA=<postgres schema>.
import type { StorageBackend } from '../../src/backend.js';
import { createPostgresBackend } from '../../src/backends/postgres.js';
import { createSqliteBackend } from '../../src/backends/sqlite.js';

export type BackendTarget =
  | { readonly kind: 'sqlite'; readonly path: string }
  | { readonly kind: 'postgres'; readonly url: string; readonly schema: string };

export const targetEnv = (t: BackendTarget): Record<string, string> =>
  t.kind === 'sqlite'
    ? { STORE_BACKEND: 'sqlite', STORE_TARGET: t.path }
    : { STORE_BACKEND: 'postgres', STORE_TARGET: t.url, STORE_SCHEMA: t.schema };

export async function openBackend(t: BackendTarget): Promise<StorageBackend> {
  return t.kind === 'sqlite'
    ? createSqliteBackend(t.path, { busyTimeoutMs: 10_000 })
    : createPostgresBackend(t.url, { schema: t.schema, maxConnections: 2 });
}

export function targetFromEnv(): BackendTarget {
  const kind = process.env.STORE_BACKEND;
  const target = process.env.STORE_TARGET ?? '';
  if (kind === 'sqlite') return { kind, path: target };
  if (kind === 'postgres') return { kind, url: target, schema: process.env.STORE_SCHEMA ?? '' };
  throw new Error(`STORE_BACKEND must be sqlite or postgres, got ${String(kind)}`);
}
