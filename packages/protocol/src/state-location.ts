// The state location of `hello` (docs/protocol.md#hello-v1, PROTO-004): the one parser of the
// repository, used by the reference implementation, the store's `openStore`, the harness and the
// CLI, so that a location means the same everywhere (docs/spec/decisions.md D-PROTO-11).

/** What a state location names. */
export type StateLocation =
  /** `null`, `memory:` or `memory://`: no durable state (gone with the process). */
  | { readonly kind: 'memory' }
  /** A bare path: a directory, created if missing, in which the implementation keeps its files. */
  | { readonly kind: 'directory'; readonly path: string }
  /** `sqlite:<file>` or `sqlite://<file>`: that SQLite file. */
  | { readonly kind: 'sqlite'; readonly path: string }
  /**
   * `postgres://...` or `postgresql://...`: a PostgreSQL database; `url` without the `schema`
   * parameter, `schema` that parameter (a lowercase SQL identifier) when given.
   */
  | { readonly kind: 'postgres'; readonly url: string; readonly schema: string | undefined };

/** The code of a state location that names nothing. */
export const STATE_LOCATION_INVALID = 'STATE_LOCATION_INVALID';

/** A state location that names nothing: its code is {@link STATE_LOCATION_INVALID}. */
export class StateLocationError extends Error {
  readonly code = STATE_LOCATION_INVALID;
  constructor(message: string, options?: { readonly cause?: unknown }) {
    super(message, options);
    this.name = 'StateLocationError';
  }
}

/** The SQLite file the reference store keeps in a directory state location. */
export const DIRECTORY_SQLITE_FILE = 'tasks.db';

const SCHEMA = /^[a-z_][a-z0-9_]{0,62}$/;
// A URL scheme has two characters at least, so that a Windows drive letter (C:\) is a path.
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]+:/;
const FORMS = 'use a directory path, memory:, sqlite:<file> or postgres://host/db';

/**
 * Parse a state location: `null`, `memory:` or `memory://` keep state in memory; a bare path
 * (no URL scheme) is a directory; `sqlite:<file>` / `sqlite://<file>` is that SQLite file;
 * `postgres://...` / `postgresql://...` is a PostgreSQL database whose optional `schema=<name>`
 * query parameter (a lowercase identifier) names the schema holding the tables.
 *
 * @throws {StateLocationError} `STATE_LOCATION_INVALID` for the empty string, another URL scheme,
 * `sqlite:` without a file, a PostgreSQL URL that does not parse, or a bad `schema`.
 * @example
 * parseStateLocation('/tmp/job-1'); // { kind: 'directory', path: '/tmp/job-1' }
 * parseStateLocation('sqlite:./tasks.db'); // { kind: 'sqlite', path: './tasks.db' }
 */
export function parseStateLocation(location: string | null): StateLocation {
  if (location === null || location === 'memory:' || location === 'memory://') return { kind: 'memory' };
  if (typeof location !== 'string' || location.trim() === '')
    throw new StateLocationError(`the state location ${JSON.stringify(location)} is empty; ${FORMS}`);
  if (/^postgres(ql)?:\/\//.test(location)) {
    let url: URL;
    try {
      url = new URL(location);
    } catch (cause) {
      throw new StateLocationError(`the state location ${location} is not a URL; ${FORMS}`, { cause });
    }
    const schema = url.searchParams.get('schema') ?? undefined;
    if (schema !== undefined && !SCHEMA.test(schema)) {
      throw new StateLocationError(
        `schema=${JSON.stringify(schema)} is not a lowercase SQL identifier ([a-z_][a-z0-9_]*, at most 63 characters)`,
      );
    }
    url.searchParams.delete('schema');
    return { kind: 'postgres', url: url.toString(), schema };
  }
  const sqlite = /^sqlite:(\/\/)?(.*)$/.exec(location);
  if (sqlite) {
    const path = sqlite[2] ?? '';
    if (path === '')
      throw new StateLocationError(`the state location ${location} names no SQLite file; ${FORMS}`);
    return { kind: 'sqlite', path };
  }
  if (SCHEME.test(location))
    throw new StateLocationError(`the state location ${JSON.stringify(location)} names no store; ${FORMS}`);
  return { kind: 'directory', path: location };
}

/**
 * The directory of a state location when it is one (a bare path), else `null`: the
 * `localDirectory` that goes with it when none is given, and where per-process files go.
 * A location that does not parse has no directory.
 *
 * @example
 * directoryOf('/tmp/job-1'); // '/tmp/job-1'
 * directoryOf('postgres://h/db'); // null
 */
export function directoryOf(location: string | null): string | null {
  try {
    const parsed = parseStateLocation(location);
    return parsed.kind === 'directory' ? parsed.path : null;
  } catch {
    return null;
  }
}
