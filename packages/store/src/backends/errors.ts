import { checkTaskKey } from '@agent-contracts/engines';

/**
 * Stable error codes of the storage backends. A backend throws {@link StorageBackendError} for
 * anything that is not a fence decision (fence mismatches are results, never errors).
 *
 * - `STORE_BUSY`: the engine could not take the write lock in time (SQLite `busy_timeout`
 *   exceeded, PostgreSQL serialization or deadlock failure). Nothing was written; retry.
 * - `STORE_CONNECTION_LOST`: the connection to the database dropped or timed out. For an append
 *   the outcome is unknown: read the task and decide (the append applied exactly when the latest
 *   envelope is the one sent); never re-dispatch an effect because of it.
 * - `STORE_UNAVAILABLE`: the database cannot be opened or reached at all.
 * - `STORE_CORRUPT`: stored data is unreadable or the head row and the envelope log disagree.
 * - `STORE_SCHEMA_MISMATCH`: the database was created by an unknown schema version of this store.
 * - `STORE_APPEND_INVALID`: the envelope passed to `compareAndAppend` does not follow the expected
 *   fence (sequence + 1), belongs to another task, or its task key is malformed (D-TCW-32); a
 *   caller bug, nothing was written.
 * - `STORE_CLOSED`: the backend was used after `close()`.
 * - `STORE_IO_FAILED`: any other engine error (disk full, I/O error); the outcome of an append is
 *   unknown.
 */
export type StorageBackendErrorCode =
  | 'STORE_BUSY'
  | 'STORE_CONNECTION_LOST'
  | 'STORE_UNAVAILABLE'
  | 'STORE_CORRUPT'
  | 'STORE_SCHEMA_MISMATCH'
  | 'STORE_APPEND_INVALID'
  | 'STORE_CLOSED'
  | 'STORE_IO_FAILED';

/**
 * Whether a failed append may have been applied: `not-applied` when the engine guarantees that
 * nothing was written, `unknown` when the commit may have reached the database.
 */
export type AppendOutcome = 'not-applied' | 'unknown';

/**
 * A storage failure with a stable `code`, whether retrying may help (`retryable`), what is known
 * about an interrupted append (`outcome`), and the engine's error as `cause`.
 *
 * @example
 * ```ts
 * import { StorageBackendError } from '@agent-contracts/store';
 * const e = new StorageBackendError('STORE_BUSY', 'database is locked: retry', { retryable: true });
 * e.code satisfies string;
 * ```
 */
export class StorageBackendError extends Error {
  readonly code: StorageBackendErrorCode;
  readonly retryable: boolean;
  readonly outcome: AppendOutcome;

  constructor(
    code: StorageBackendErrorCode,
    message: string,
    options: { retryable?: boolean; outcome?: AppendOutcome; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'StorageBackendError';
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.outcome = options.outcome ?? 'not-applied';
  }
}

/**
 * Checks the parts of an append that do not need storage: a well-formed task key (so that no
 * backend, whatever its engine accepts, ever stores a key the envelope schema forbids), same
 * task, sequence + 1.
 */
export function assertAppendShape(
  key: { readonly projectRootIdentity: string; readonly taskId: string },
  expected: { readonly stateSequence: number; readonly writerGeneration: number },
  next: { readonly projectRootIdentity: string; readonly taskId: string; readonly sequence: number },
): void {
  const wellFormed = checkTaskKey(key);
  if (!wellFormed.ok)
    throw new StorageBackendError('STORE_APPEND_INVALID', `${wellFormed.message} Nothing was written.`);
  if (next.taskId !== key.taskId || next.projectRootIdentity !== key.projectRootIdentity)
    throw new StorageBackendError(
      'STORE_APPEND_INVALID',
      `the envelope belongs to task ${next.projectRootIdentity}/${next.taskId}, not to ${key.projectRootIdentity}/${key.taskId}: append it under its own key`,
    );
  if (next.sequence !== expected.stateSequence + 1)
    throw new StorageBackendError(
      'STORE_APPEND_INVALID',
      `the envelope has sequence ${next.sequence} but the expected fence has stateSequence ${expected.stateSequence}: build the envelope with sequence ${expected.stateSequence + 1}`,
    );
  if (!Number.isSafeInteger(expected.writerGeneration) || expected.writerGeneration < 0)
    throw new StorageBackendError(
      'STORE_APPEND_INVALID',
      'the expected writerGeneration is not a non-negative integer: send the fence read from the store',
    );
}
