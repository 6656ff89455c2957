import { createHash } from 'node:crypto';
import type { Fence } from '@agent-contracts/engines';
import type { TaskRecoveryStateV5 } from '@agent-contracts/schemas';
import pg from 'pg';
import type { AppendResult, StorageBackend, TaskKey } from '../backend.js';
import { assertAppendShape, StorageBackendError } from './errors.js';

/** Options of {@link createPostgresBackend}. */
export interface PostgresBackendOptions {
  /**
   * The PostgreSQL schema holding the store's tables, created if missing. Lowercase letters,
   * digits and `_`, at most 63 characters. Default `agent_contracts_store`. Tests use a fresh one
   * per run so parallel runs never share tables.
   */
  readonly schema?: string;
  /** Connections in the pool. Default 10. */
  readonly maxConnections?: number;
  /** `application_name` of the store's connections (shows in `pg_stat_activity`). */
  readonly applicationName?: string;
  /** Milliseconds to wait for a connection before failing with `STORE_UNAVAILABLE`. Default 10000. */
  readonly connectTimeoutMs?: number;
  /**
   * Milliseconds a statement may run before the server cancels it (`statement_timeout`); a
   * cancelled append fails with `STORE_BUSY` and wrote nothing. Default 30000; 0 disables it.
   */
  readonly statementTimeoutMs?: number;
}

const SCHEMA_VERSION = '1';
const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * A {@link StorageBackend} on PostgreSQL through a `pg` pool, for fleets of hosts sharing tasks.
 *
 * Every append is ONE statement, hence one implicit transaction at READ COMMITTED (forced per
 * connection, with `synchronous_commit=on`): a data-modifying CTE whose first part is the fenced
 * `UPDATE tasks ... WHERE key AND state_sequence AND writer_generation` (a first write is an
 * `INSERT ... ON CONFLICT DO NOTHING`) and whose second part inserts the envelope only for the row
 * the first part changed, so "one row inserted" is the fence check. A concurrent updater of the
 * same row waits for the row lock and re-evaluates the WHERE clause on the new row version, so
 * exactly one of two racing writers matches. No advisory lock is ever the fence. On a mismatch
 * the current fence is read in a fresh statement (a later snapshot); if that read finds the
 * expected fence (a caller sent a fence that became current only meanwhile), the append is
 * retried, so a refusal always carries a fence that differs from the expected one.
 *
 * A dropped or timed-out connection is `STORE_CONNECTION_LOST` with `outcome: 'unknown'`: it is
 * never reported as success.
 *
 * @example
 * ```ts
 * import { createPostgresBackend } from '@agent-contracts/store';
 * const backend = await createPostgresBackend('postgres://user:pw@127.0.0.1:5432/tasks', { schema: 'agent_tasks' });
 * await backend.close();
 * ```
 */
export async function createPostgresBackend(
  url: string,
  options: PostgresBackendOptions = {},
): Promise<StorageBackend> {
  const schema = options.schema ?? 'agent_contracts_store';
  if (!IDENTIFIER.test(schema))
    throw new StorageBackendError(
      'STORE_UNAVAILABLE',
      `schema name ${JSON.stringify(schema)} is not a plain lowercase identifier: use [a-z_][a-z0-9_]*`,
    );
  const statementTimeout = options.statementTimeoutMs ?? 30_000;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    application_name: options.applicationName ?? 'agent-contracts-store',
    // Durability and isolation are properties of the store, not of the server's defaults.
    options: `-c synchronous_commit=on -c default_transaction_isolation=read\\ committed -c statement_timeout=${Math.max(0, Math.trunc(statementTimeout))}`,
  });
  // An idle client whose server connection drops emits 'error' on the pool; without a listener
  // that would end the process. The pool discards the client; the next query gets a fresh one.
  pool.on('error', () => {});

  const t = (name: string) => `"${schema}".${name}`;
  try {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      // Serialises concurrent first opens of the same schema (DDL races on the catalogue); this
      // transaction-scoped lock guards the migration only, never a task write.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`agent-contracts-store:${schema}`]);
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${t('store_meta')} (key text PRIMARY KEY, value text NOT NULL)`,
      );
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${t('tasks')} (
           project_root_identity text NOT NULL,
           task_id text NOT NULL,
           state_sequence bigint NOT NULL,
           writer_generation bigint NOT NULL,
           PRIMARY KEY (project_root_identity, task_id))`,
      );
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${t('envelopes')} (
           project_root_identity text NOT NULL,
           task_id text NOT NULL,
           sequence bigint NOT NULL,
           writer_generation bigint NOT NULL,
           envelope_digest text NOT NULL,
           body text NOT NULL,
           PRIMARY KEY (project_root_identity, task_id, sequence))`,
      );
      // A row over ~2 kB makes PostgreSQL try to pglz-compress it down to toast_tuple_target
      // (default ~2 kB) on every INSERT; digest-heavy envelope JSON rarely compresses enough, so
      // the attempt is wasted CPU on each append. Up to a page the envelope stays inline and
      // uncompressed; larger ones are still compressed and moved out of line as before. Set once
      // (also on tables created by earlier releases); the data and its meaning are unchanged.
      const toast = await client.query<{ target: number; reloptions: string[] | null }>(
        `SELECT current_setting('block_size')::int - 32 AS target, reloptions
           FROM pg_class WHERE oid = to_regclass($1)`,
        [t('envelopes')],
      );
      const wanted = `toast_tuple_target=${toast.rows[0]!.target}`;
      if (!(toast.rows[0]!.reloptions ?? []).includes(wanted))
        await client.query(`ALTER TABLE ${t('envelopes')} SET (${wanted.replace('=', ' = ')})`);
      const meta = await client.query<{ value: string }>(
        `SELECT value FROM ${t('store_meta')} WHERE key = $1`,
        ['schema_version'],
      );
      const found = meta.rows[0]?.value;
      if (found === undefined)
        await client.query(`INSERT INTO ${t('store_meta')} (key, value) VALUES ($1, $2)`, [
          'schema_version',
          SCHEMA_VERSION,
        ]);
      else if (found !== SCHEMA_VERSION)
        throw new StorageBackendError(
          'STORE_SCHEMA_MISMATCH',
          `schema "${schema}" holds store schema version ${found}; this code reads version ${SCHEMA_VERSION}: use the matching @agent-contracts/store release or another schema`,
        );
      await client.query('COMMIT');
    } catch (e) {
      await client.query('ROLLBACK').catch(() => {});
      throw e;
    } finally {
      client.release();
    }
  } catch (cause) {
    await pool.end().catch(() => {});
    if (cause instanceof StorageBackendError) throw cause;
    const mapped = mapPgError(cause, `open the PostgreSQL store (schema "${schema}")`);
    throw mapped.code === 'STORE_CONNECTION_LOST'
      ? new StorageBackendError('STORE_UNAVAILABLE', mapped.message, { retryable: true, cause })
      : mapped;
  }

  const ENVELOPE_COLUMNS =
    'project_root_identity, task_id, sequence, writer_generation, envelope_digest, body';
  const sql = {
    update: `WITH head AS (
               UPDATE ${t('tasks')} SET state_sequence = $3, writer_generation = $4
                WHERE project_root_identity = $1 AND task_id = $2 AND state_sequence = $5 AND writer_generation = $6
            RETURNING project_root_identity, task_id)
             INSERT INTO ${t('envelopes')} (${ENVELOPE_COLUMNS})
             SELECT project_root_identity, task_id, $3, $4, $7, $8 FROM head`,
    insert: `WITH head AS (
               INSERT INTO ${t('tasks')} (project_root_identity, task_id, state_sequence, writer_generation)
               VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING
            RETURNING project_root_identity, task_id)
             INSERT INTO ${t('envelopes')} (${ENVELOPE_COLUMNS})
             SELECT project_root_identity, task_id, $3, $4, $5, $6 FROM head`,
    head: `SELECT state_sequence, writer_generation FROM ${t('tasks')} WHERE project_root_identity = $1 AND task_id = $2`,
    latest: `SELECT t.state_sequence, t.writer_generation, e.body
               FROM ${t('tasks')} t LEFT JOIN ${t('envelopes')} e
                 ON e.project_root_identity = t.project_root_identity AND e.task_id = t.task_id
                AND e.sequence = t.state_sequence
              WHERE t.project_root_identity = $1 AND t.task_id = $2`,
    at: `SELECT body FROM ${t('envelopes')} WHERE project_root_identity = $1 AND task_id = $2 AND sequence = $3`,
    history: `SELECT body FROM ${t('envelopes')} WHERE project_root_identity = $1 AND task_id = $2 ORDER BY sequence`,
  };
  // Named statements are parsed once per connection; the name carries a hash of the text because
  // another backend with another schema may share nothing but the name prefix.
  const named = (key: keyof typeof sql) =>
    `ac_${key}_${createHash('sha256').update(sql[key]).digest('hex').slice(0, 16)}`;
  const names = {
    update: named('update'),
    insert: named('insert'),
    head: named('head'),
    latest: named('latest'),
    at: named('at'),
    history: named('history'),
  };

  let closed = false;
  const open = (): void => {
    if (closed)
      throw new StorageBackendError('STORE_CLOSED', 'the PostgreSQL backend is closed: open a new one');
  };
  const readHead = async (key: TaskKey): Promise<Fence> => {
    const r = await pool.query<{ state_sequence: string; writer_generation: string }>({
      name: names.head,
      text: sql.head,
      values: [key.projectRootIdentity, key.taskId],
    });
    const row = r.rows[0];
    return row
      ? { stateSequence: Number(row.state_sequence), writerGeneration: Number(row.writer_generation) }
      : ZERO;
  };

  return {
    kind: 'postgres',
    async load(key) {
      open();
      let row: { state_sequence: string; writer_generation: string; body: string | null } | undefined;
      try {
        const r = await pool.query<{
          state_sequence: string;
          writer_generation: string;
          body: string | null;
        }>({
          name: names.latest,
          text: sql.latest,
          values: [key.projectRootIdentity, key.taskId],
        });
        row = r.rows[0];
      } catch (cause) {
        throw mapPgError(cause, 'read the task');
      }
      if (!row) return null;
      if (row.body === null)
        throw new StorageBackendError(
          'STORE_CORRUPT',
          `task ${key.taskId}: the head names sequence ${row.state_sequence} but the log has no such envelope: repair the store out of band`,
        );
      return parseEnvelope(row.body, key, {
        stateSequence: Number(row.state_sequence),
        writerGeneration: Number(row.writer_generation),
      });
    },
    async loadAt(key, sequence) {
      open();
      if (!Number.isSafeInteger(sequence) || sequence < 1) return null;
      let row: { body: string } | undefined;
      try {
        const r = await pool.query<{ body: string }>({
          name: names.at,
          text: sql.at,
          values: [key.projectRootIdentity, key.taskId, sequence],
        });
        row = r.rows[0];
      } catch (cause) {
        throw mapPgError(cause, 'read the envelope at a sequence');
      }
      return row ? parseEnvelope(row.body, key, null) : null;
    },
    async compareAndAppend(key, expected, next) {
      open();
      assertAppendShape(key, expected, next);
      const body = JSON.stringify(next);
      const first = expected.stateSequence === 0 && expected.writerGeneration === 0;
      // Sequence numbers only grow, so a fence read back equal to the expected one can happen at
      // most once (the fence was in the future when the append ran); two rounds always decide.
      for (let round = 0; round < 3; round++) {
        let inserted: number | null;
        try {
          const r = first
            ? await pool.query({
                name: names.insert,
                text: sql.insert,
                values: [
                  key.projectRootIdentity,
                  key.taskId,
                  next.sequence,
                  next.writerGeneration,
                  next.envelopeDigest,
                  body,
                ],
              })
            : await pool.query({
                name: names.update,
                text: sql.update,
                values: [
                  key.projectRootIdentity,
                  key.taskId,
                  next.sequence,
                  next.writerGeneration,
                  expected.stateSequence,
                  expected.writerGeneration,
                  next.envelopeDigest,
                  body,
                ],
              });
          inserted = r.rowCount;
        } catch (cause) {
          throw mapPgError(cause, 'append the envelope');
        }
        if (inserted === 1) return OK;
        if (inserted !== 0)
          throw new StorageBackendError(
            'STORE_IO_FAILED',
            `the fenced append reported ${String(inserted)} rows instead of 0 or 1: read the task before deciding`,
            { outcome: 'unknown' },
          );
        let current: Fence;
        try {
          current = await readHead(key);
        } catch (cause) {
          // The append itself changed nothing (0 rows), so only the diagnostic read failed.
          const e = mapPgError(cause, 'read the current fence after a refused append');
          throw new StorageBackendError(e.code, e.message, {
            retryable: e.retryable,
            outcome: 'not-applied',
            cause,
          });
        }
        if (
          current.stateSequence !== expected.stateSequence ||
          current.writerGeneration !== expected.writerGeneration
        )
          return { ok: false, current };
      }
      throw new StorageBackendError(
        'STORE_BUSY',
        'the task changed under every attempt of the fenced append: nothing was written, retry',
        { retryable: true },
      );
    },
    async history(key) {
      open();
      try {
        const r = await pool.query<{ body: string }>({
          name: names.history,
          text: sql.history,
          values: [key.projectRootIdentity, key.taskId],
        });
        return r.rows.map((row) => parseEnvelope(row.body, key, null));
      } catch (cause) {
        throw mapPgError(cause, 'read the task history');
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

const OK: AppendResult = Object.freeze({ ok: true as const });
const ZERO: Fence = Object.freeze({ stateSequence: 0, writerGeneration: 0 });

function parseEnvelope(body: string, key: TaskKey, head: Fence | null): TaskRecoveryStateV5 {
  let value: TaskRecoveryStateV5;
  try {
    value = JSON.parse(body) as TaskRecoveryStateV5;
  } catch (cause) {
    throw new StorageBackendError('STORE_CORRUPT', `task ${key.taskId}: a stored envelope is not JSON`, {
      cause,
    });
  }
  if (head && (value.sequence !== head.stateSequence || value.writerGeneration !== head.writerGeneration))
    throw new StorageBackendError(
      'STORE_CORRUPT',
      `task ${key.taskId}: the head fence (${head.stateSequence}, ${head.writerGeneration}) differs from its envelope's (${value.sequence}, ${value.writerGeneration}): repair the store out of band`,
    );
  return value;
}

/** SQLSTATE classes and node socket codes that mean the connection is gone or unusable. */
const CONNECTION_CODES = new Set([
  '57P01', // admin_shutdown (pg_terminate_backend)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
]);

/** Maps a `pg` error (a server `DatabaseError` with `code` = SQLSTATE, or a socket error) to a coded error. */
function mapPgError(cause: unknown, what: string): StorageBackendError {
  if (cause instanceof StorageBackendError) return cause;
  const code =
    typeof (cause as { code?: unknown })?.code === 'string' ? (cause as { code: string }).code : '';
  const detail = cause instanceof Error ? cause.message : String(cause);
  if (code === '40001' || code === '40P01' || code === '55P03' || code === '57014')
    return new StorageBackendError(
      'STORE_BUSY',
      `could not ${what}: the server aborted the statement (${code}: ${detail}); nothing was written, retry`,
      { retryable: true, outcome: 'not-applied', cause },
    );
  if (
    code.startsWith('08') ||
    CONNECTION_CODES.has(code) ||
    (code === '' && /connection|terminat|timeout|socket/i.test(detail))
  )
    return new StorageBackendError(
      'STORE_CONNECTION_LOST',
      `could not ${what}: the connection to PostgreSQL was lost (${code || 'no SQLSTATE'}: ${detail}); the outcome of an append is unknown: read the task to learn whether it applied, never re-dispatch because of it`,
      { retryable: true, outcome: 'unknown', cause },
    );
  if (code === '23505')
    return new StorageBackendError(
      'STORE_CORRUPT',
      `could not ${what}: the envelope log already holds this sequence although the head did not (${detail}); nothing was written`,
      { cause },
    );
  if (code === '28P01' || code === '28000' || code === '3D000' || code === '42501')
    return new StorageBackendError('STORE_UNAVAILABLE', `could not ${what}: ${detail}`, { cause });
  return new StorageBackendError(
    'STORE_IO_FAILED',
    `could not ${what}: ${code ? `${code}: ` : ''}${detail}; for an append the outcome is unknown, read the task before deciding`,
    { retryable: true, outcome: 'unknown', cause },
  );
}
