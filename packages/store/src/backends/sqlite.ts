import type { Fence } from '@agent-contracts/engines';
import type { TaskRecoveryStateV5 } from '@agent-contracts/schemas';
import Database from 'better-sqlite3';
import type { AppendResult, StorageBackend, TaskKey } from '../backend.js';
import { assertAppendShape, StorageBackendError } from './errors.js';

/** Options of {@link createSqliteBackend}. */
export interface SqliteBackendOptions {
  /**
   * How long a writer waits for another process's write lock before failing with `STORE_BUSY`,
   * in milliseconds (SQLite `busy_timeout`). better-sqlite3 waits synchronously, blocking the
   * event loop, so keep it bounded. Default 5000.
   */
  readonly busyTimeoutMs?: number;
  /**
   * `full` (default) syncs the WAL on every commit: an acknowledged append survives power loss.
   * `normal` survives process crashes only and is for throwaway stores (tests, benchmarks); it is
   * not acceptable where a `dispatched` record must be durable before the effect starts.
   */
  readonly synchronous?: 'full' | 'normal';
}

/** The schema version this code writes into `store_meta`; another version is refused. */
const SCHEMA_VERSION = '1';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS store_meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tasks (
  project_root_identity TEXT NOT NULL,
  task_id TEXT NOT NULL,
  state_sequence INTEGER NOT NULL,
  writer_generation INTEGER NOT NULL,
  PRIMARY KEY (project_root_identity, task_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS envelopes (
  project_root_identity TEXT NOT NULL,
  task_id TEXT NOT NULL,
  sequence INTEGER NOT NULL,
  writer_generation INTEGER NOT NULL,
  envelope_digest TEXT NOT NULL,
  body TEXT NOT NULL,
  UNIQUE (project_root_identity, task_id, sequence)
);
`;

interface HeadRow {
  readonly state_sequence: number;
  readonly writer_generation: number;
}
interface LatestRow extends HeadRow {
  readonly sequence: number | null;
  readonly body: string | null;
}

/**
 * A {@link StorageBackend} on one SQLite file through better-sqlite3: WAL journal,
 * `synchronous=FULL`, and every append one `BEGIN IMMEDIATE` transaction whose first statement is
 * the fenced `UPDATE tasks ... WHERE key AND state_sequence AND writer_generation` (a first write
 * is an `INSERT ... ON CONFLICT DO NOTHING`), with "exactly one row changed" as the fence check
 * and the envelope appended to the `envelopes` log in the same transaction. The promise resolves
 * only after SQLite has committed (and, with `full`, synced) the transaction.
 *
 * Several processes may open the same file; `BEGIN IMMEDIATE` serialises their writers and
 * `busyTimeoutMs` bounds the wait. The file must be on a local file system (WAL needs shared
 * memory).
 *
 * @example
 * ```ts
 * import { createSqliteBackend } from '@agent-contracts/store';
 * const backend = createSqliteBackend('./tasks.db');
 * const latest = await backend.load({ projectRootIdentity: 'a'.repeat(64), taskId: '0199b6e2-4c1d-7a3e-8f52-3d9c0e7a41b6' });
 * await backend.close();
 * ```
 */
export function createSqliteBackend(path: string, options: SqliteBackendOptions = {}): StorageBackend {
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  let db: Database.Database;
  try {
    db = new Database(path, { timeout: busyTimeoutMs });
  } catch (cause) {
    throw new StorageBackendError(
      'STORE_UNAVAILABLE',
      `cannot open the SQLite store at ${path}: ${String(cause)}`,
      {
        cause,
      },
    );
  }
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(busyTimeoutMs))}`);
    const mode = db.pragma('journal_mode = WAL', { simple: true });
    if (String(mode).toLowerCase() !== 'wal' && path !== ':memory:')
      throw new StorageBackendError(
        'STORE_UNAVAILABLE',
        `SQLite refused WAL mode for ${path} (got ${String(mode)}): put the store on a local file system`,
      );
    db.pragma(`synchronous = ${options.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
    db.transaction(() => {
      db.exec(SCHEMA);
      const row = db.prepare('SELECT value FROM store_meta WHERE key = ?').get('schema_version') as
        | { value: string }
        | undefined;
      if (!row)
        db.prepare('INSERT INTO store_meta (key, value) VALUES (?, ?)').run('schema_version', SCHEMA_VERSION);
      else if (row.value !== SCHEMA_VERSION)
        throw new StorageBackendError(
          'STORE_SCHEMA_MISMATCH',
          `the SQLite store at ${path} has schema version ${row.value}; this code reads version ${SCHEMA_VERSION}: use the matching @agent-contracts/store release`,
        );
    }).immediate();
  } catch (cause) {
    db.close();
    throw mapSqliteError(cause, `open the SQLite store at ${path}`);
  }

  const selectHead = db.prepare<[string, string], HeadRow>(
    'SELECT state_sequence, writer_generation FROM tasks WHERE project_root_identity = ? AND task_id = ?',
  );
  const selectLatest = db.prepare<[string, string], LatestRow>(
    `SELECT t.state_sequence, t.writer_generation, e.sequence, e.body
       FROM tasks t LEFT JOIN envelopes e
         ON e.project_root_identity = t.project_root_identity AND e.task_id = t.task_id
        AND e.sequence = t.state_sequence
      WHERE t.project_root_identity = ? AND t.task_id = ?`,
  );
  const selectAt = db.prepare<[string, string, number], { body: string }>(
    'SELECT body FROM envelopes WHERE project_root_identity = ? AND task_id = ? AND sequence = ?',
  );
  const selectHistory = db.prepare<[string, string], { body: string }>(
    'SELECT body FROM envelopes WHERE project_root_identity = ? AND task_id = ? ORDER BY sequence',
  );
  const updateHead = db.prepare<[number, number, string, string, number, number]>(
    `UPDATE tasks SET state_sequence = ?, writer_generation = ?
      WHERE project_root_identity = ? AND task_id = ? AND state_sequence = ? AND writer_generation = ?`,
  );
  const insertHead = db.prepare<[string, string, number, number]>(
    `INSERT INTO tasks (project_root_identity, task_id, state_sequence, writer_generation)
     VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`,
  );
  const insertEnvelope = db.prepare<[string, string, number, number, string, string]>(
    `INSERT INTO envelopes (project_root_identity, task_id, sequence, writer_generation, envelope_digest, body)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );

  // One IMMEDIATE transaction: the write lock is taken before the fence is compared, so no other
  // process can commit between the compare and the append.
  const append = db.transaction((key: TaskKey, expected: Fence, next: TaskRecoveryStateV5, body: string) => {
    const changed =
      expected.stateSequence === 0 && expected.writerGeneration === 0
        ? insertHead.run(key.projectRootIdentity, key.taskId, next.sequence, next.writerGeneration).changes
        : updateHead.run(
            next.sequence,
            next.writerGeneration,
            key.projectRootIdentity,
            key.taskId,
            expected.stateSequence,
            expected.writerGeneration,
          ).changes;
    if (changed !== 1) {
      const head = selectHead.get(key.projectRootIdentity, key.taskId);
      return head ? { stateSequence: head.state_sequence, writerGeneration: head.writer_generation } : ZERO;
    }
    insertEnvelope.run(
      key.projectRootIdentity,
      key.taskId,
      next.sequence,
      next.writerGeneration,
      next.envelopeDigest,
      body,
    );
    return null;
  });

  let closed = false;
  const open = (): void => {
    if (closed) throw new StorageBackendError('STORE_CLOSED', 'the SQLite backend is closed: open a new one');
  };

  return {
    kind: 'sqlite',
    async load(key) {
      open();
      let row: LatestRow | undefined;
      try {
        row = selectLatest.get(key.projectRootIdentity, key.taskId);
      } catch (cause) {
        throw mapSqliteError(cause, 'read the task');
      }
      if (!row) return null;
      if (row.body === null || row.sequence !== row.state_sequence)
        throw new StorageBackendError(
          'STORE_CORRUPT',
          `task ${key.taskId}: the head names sequence ${row.state_sequence} but the log has no such envelope: repair the store out of band`,
        );
      return parseEnvelope(row.body, key, row);
    },
    async loadAt(key, sequence) {
      open();
      if (!Number.isSafeInteger(sequence) || sequence < 1) return null;
      let row: { body: string } | undefined;
      try {
        row = selectAt.get(key.projectRootIdentity, key.taskId, sequence);
      } catch (cause) {
        throw mapSqliteError(cause, 'read the envelope at a sequence');
      }
      return row ? parseEnvelope(row.body, key, null) : null;
    },
    async compareAndAppend(key, expected, next) {
      open();
      assertAppendShape(key, expected, next);
      const body = JSON.stringify(next);
      let current: Fence | null;
      try {
        current = append.immediate(key, expected, next, body);
      } catch (cause) {
        throw mapSqliteError(cause, 'append the envelope');
      }
      return current === null ? OK : { ok: false, current };
    },
    async history(key) {
      open();
      try {
        return selectHistory
          .all(key.projectRootIdentity, key.taskId)
          .map((r) => parseEnvelope(r.body, key, null));
      } catch (cause) {
        throw mapSqliteError(cause, 'read the task history');
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
}

const OK: AppendResult = Object.freeze({ ok: true as const });
const ZERO: Fence = Object.freeze({ stateSequence: 0, writerGeneration: 0 });

function parseEnvelope(body: string, key: TaskKey, head: HeadRow | null): TaskRecoveryStateV5 {
  let value: TaskRecoveryStateV5;
  try {
    value = JSON.parse(body) as TaskRecoveryStateV5;
  } catch (cause) {
    throw new StorageBackendError('STORE_CORRUPT', `task ${key.taskId}: a stored envelope is not JSON`, {
      cause,
    });
  }
  if (head && (value.sequence !== head.state_sequence || value.writerGeneration !== head.writer_generation))
    throw new StorageBackendError(
      'STORE_CORRUPT',
      `task ${key.taskId}: the head fence (${head.state_sequence}, ${head.writer_generation}) differs from its envelope's (${value.sequence}, ${value.writerGeneration}): repair the store out of band`,
    );
  return value;
}

/** Maps a better-sqlite3 `SqliteError` (its `code` is the extended result code name) to a coded error. */
function mapSqliteError(cause: unknown, what: string): StorageBackendError {
  if (cause instanceof StorageBackendError) return cause;
  const code =
    typeof (cause as { code?: unknown })?.code === 'string' ? (cause as { code: string }).code : '';
  const detail = cause instanceof Error ? cause.message : String(cause);
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
    return new StorageBackendError(
      'STORE_BUSY',
      `could not ${what}: another process held the SQLite write lock past busy_timeout (${detail}); nothing was written, retry`,
      { retryable: true, outcome: 'not-applied', cause },
    );
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB')
    return new StorageBackendError(
      'STORE_CORRUPT',
      `could not ${what}: the SQLite file is corrupt (${detail})`,
      {
        cause,
      },
    );
  if (code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_READONLY') || code === 'SQLITE_PERM')
    return new StorageBackendError('STORE_UNAVAILABLE', `could not ${what}: ${detail}`, { cause });
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
    return new StorageBackendError(
      'STORE_CORRUPT',
      `could not ${what}: the envelope log already holds this sequence although the head did not (${detail}); nothing was written`,
      { cause },
    );
  return new StorageBackendError(
    'STORE_IO_FAILED',
    `could not ${what}: ${detail}; for an append the outcome is unknown, read the task before deciding`,
    { retryable: true, outcome: 'unknown', cause },
  );
}
