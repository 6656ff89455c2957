/**
 * Stable codes of what the harness observes about an implementation under test. None of them is
 * ever a pass: a case that ends in one of these is reported as `error`, `timeout` or `crash`.
 *
 * - `IMPL_SPAWN_FAILED`: the command could not be started (not found, not executable).
 * - `IMPL_EXITED`: the process exited or was killed while a request was outstanding.
 * - `IMPL_STDOUT_CLOSED`: the process closed stdout but kept running.
 * - `IMPL_TIMEOUT`: no reply to a request within the per-request timeout.
 * - `IMPL_GARBAGE_OUTPUT`: a stdout line that is not a JSON-RPC 2.0 response object.
 * - `IMPL_OVERSIZED_OUTPUT`: a stdout line longer than the harness's line limit.
 * - `IMPL_UNKNOWN_ID`: a response whose id matches no outstanding request (wrong or duplicate id).
 * - `IMPL_MISSING_ID`: a response without an id.
 * - `IMPL_RPC_ERROR`: the implementation answered with a JSON-RPC error object.
 * - `IMPL_REPLY_INVALID`: a reply that breaks the method's result or refusal schema
 *   (docs/protocol.md#every-message-is-checked); a case or scenario that gets one fails.
 * - `IMPL_NOT_RUNNING`: a request was made while the process was not running.
 * - `IMPL_RESTART_BUDGET_EXHAUSTED`: the process crashed more often than the restart budget allows.
 * - `IMPL_HELLO_INVALID`: `hello` answered with a result that lacks a member `hello` must carry,
 *   or has one of the wrong type (docs/protocol.md#hello).
 * - `IMPL_HELLO_CHANGED`: a process of the run (a restart, a `--jobs` worker, the probe, a fault
 *   scenario's process) answered `hello` differently from the run's first process.
 * - `IMPL_SHUTDOWN_UNANSWERED`: `shutdown` got no `null` result before the process was killed.
 * - `IMPL_DUPLICATE_MEMBER`: a reply holds an object with two members of the same name.
 */
export type HarnessErrorCode =
  | 'IMPL_SPAWN_FAILED'
  | 'IMPL_EXITED'
  | 'IMPL_STDOUT_CLOSED'
  | 'IMPL_TIMEOUT'
  | 'IMPL_GARBAGE_OUTPUT'
  | 'IMPL_OVERSIZED_OUTPUT'
  | 'IMPL_UNKNOWN_ID'
  | 'IMPL_MISSING_ID'
  | 'IMPL_RPC_ERROR'
  | 'IMPL_REPLY_INVALID'
  | 'IMPL_NOT_RUNNING'
  | 'IMPL_RESTART_BUDGET_EXHAUSTED'
  | 'IMPL_HELLO_INVALID'
  | 'IMPL_HELLO_CHANGED'
  | 'IMPL_SHUTDOWN_UNANSWERED'
  | 'IMPL_DUPLICATE_MEMBER';

/** What went wrong talking to the implementation, with its stderr tail as context. */
export class HarnessError extends Error {
  readonly code: HarnessErrorCode;
  /** The last lines the implementation wrote to stderr (kept as context, never as a verdict). */
  readonly stderrTail: string;
  /** Extra machine-readable detail (exit code, signal, the offending line, the RPC error). */
  readonly detail: Readonly<Record<string, unknown>>;

  constructor(
    code: HarnessErrorCode,
    message: string,
    options: { stderrTail?: string; detail?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HarnessError';
    this.code = code;
    this.stderrTail = options.stderrTail ?? '';
    this.detail = options.detail ?? {};
  }
}

/**
 * A request the harness was about to send that breaks its own params schema (or names a method
 * protocol v1 does not have): a defect of agent-contracts, never of the implementation under test.
 * The request is not sent; the case or scenario ends as `harness-error`
 * (docs/protocol.md#every-message-is-checked).
 *
 * - `HARNESS_REQUEST_INVALID`: the only code.
 */
export class HarnessDefect extends Error {
  readonly code = 'HARNESS_REQUEST_INVALID';

  constructor(
    message: string,
    /** The method of the request. */
    readonly method: string,
  ) {
    super(message);
    this.name = 'HarnessDefect';
  }
}

/**
 * Codes of a report file that cannot be read as an agent-contracts JSONL report:
 *
 * - `REPORT_INVALID`: too large, too many or too long lines, a line that is not JSON or breaks
 *   schemas/harness/ReportLine.schema.json, or lines out of order (the `run` line first, at most
 *   one `summary` line and last, every case id once).
 */
export type ReportErrorCode = 'REPORT_INVALID';

/** A report file that is refused before anything is rendered from it. */
export class ReportError extends Error {
  readonly code: ReportErrorCode;
  /** The 1-based line the problem is on, or null for the file as a whole. */
  readonly line: number | null;
  /** JSON Pointer into that line's value, or null when the line is not JSON. */
  readonly pointer: string | null;

  constructor(message: string, where: { line?: number; pointer?: string } = {}) {
    super(message);
    this.name = 'ReportError';
    this.code = 'REPORT_INVALID';
    this.line = where.line ?? null;
    this.pointer = where.pointer ?? null;
  }
}
