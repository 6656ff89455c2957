// One implementation under test, as a long-running child process speaking newline-delimited
// JSON-RPC 2.0 on stdin/stdout. The harness trusts nothing it says: every reply is checked for
// shape and id, every request has a deadline, and a crash, a closed stdout, garbage or an
// oversized line fails the outstanding requests at once with a coded HarnessError instead of
// letting them hang. stderr is free for the implementation's logs and is kept as context.
import { type ChildProcess, spawn } from 'node:child_process';
import { JsonTextError, nestingDepth, parseJsonText } from '@agent-contracts/digest';
import { HarnessError, type HarnessErrorCode } from '../errors.js';
import { LIVE } from '../live.js';
import { printable, truncated } from '../text.js';
import type { RawReply } from '../wire/reply.js';
import type { WireTap } from '../wire-log.js';

export { killAllImplementations } from '../live.js';

/** How to start an implementation and how patient to be with it. */
export interface ProcessOptions {
  /** The command line, run by `/bin/sh -c` (so `node impl.js --flag` and `./impl` both work). */
  readonly command: string;
  readonly cwd?: string;
  /**
   * Environment variables set for the implementation, over the minimal inherited environment
   * ({@link INHERITED_ENVIRONMENT}); the harness's other variables (tokens, credentials) are not
   * passed.
   */
  readonly env?: Readonly<Record<string, string>>;
  /** Default deadline of one request, in ms (default 10 000). */
  readonly requestTimeoutMs?: number;
  /** Longest stdout line accepted, in bytes (default 16 MiB). */
  readonly maxLineBytes?: number;
  /** How much of stderr to keep as context, in bytes (default 64 KiB). */
  readonly stderrTailBytes?: number;
  /** Deepest nesting of arrays and objects accepted in a reply (default 512). */
  readonly maxDepth?: number;
  /**
   * Run the command inside a sandbox: the argument vector that precedes `/bin/sh -c <command>`
   * (`sandboxCommand` of transport/sandbox.ts, for bwrap). Absent: `/bin/sh -c` directly.
   */
  readonly sandbox?: readonly string[];
  /**
   * Told of every line written to the process's stdin and read from its stdout, as it crossed
   * (`conform --wire`, wire-log.ts). A tap that throws changes nothing.
   */
  readonly wire?: WireTap;
}

/**
 * The variables of the harness's own environment that an implementation inherits: what a
 * program needs to find its interpreter, its home and its locale. Everything else (tokens,
 * cloud credentials, CI secrets) stays with the harness unless passed explicitly with `env`.
 */
export const INHERITED_ENVIRONMENT: readonly string[] = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'LC_MESSAGES',
  'TZ',
  'TMPDIR',
];

/** The environment an implementation starts with: {@link INHERITED_ENVIRONMENT} plus `extra`. */
export function implementationEnvironment(
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INHERITED_ENVIRONMENT) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...extra };
}

/** A protocol violation seen on stdout, kept for the report even when no request was waiting. */
export interface ProtocolViolation {
  readonly code: HarnessErrorCode;
  readonly message: string;
  /** The first 200 characters of the offending line, if any. */
  readonly excerpt?: string;
}

/** How the process ended. */
export interface ExitInfo {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

interface Pending {
  readonly method: string;
  readonly resolve: (reply: RawReply) => void;
  readonly reject: (error: HarnessError) => void;
  readonly timer: NodeJS.Timeout;
}

const DEFAULTS = {
  requestTimeoutMs: 10_000,
  maxLineBytes: 16 * 1024 * 1024,
  stderrTailBytes: 64 * 1024,
  maxDepth: 512,
};

/** How many violations are kept with their text; later ones are only counted. */
const KEPT_VIOLATIONS = 100;

/** Characters of an offending stdout line quoted in the error of the requests it failed. */
export const QUOTED_LINE_CHARS = 200;

/** A stdout line as an error quotes it: a JSON string, cut, with nothing that can draw on a terminal. */
const quotedLine = (line: string) => printable(JSON.stringify(truncated(line, QUOTED_LINE_CHARS)));

/** Strict UTF-8: a malformed byte sequence throws instead of becoming U+FFFD. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * How long to wait for the pipes to close once the process group is gone, and for stdout to end
 * once the process has exited.
 */
const PIPE_GRACE_MS = 1_000;

/** How many ids of requests given up on are remembered, to tell a late reply from a foreign one. */
const GIVEN_UP_KEPT = 1024;

/**
 * A running implementation. Create with {@link ImplementationProcess.start}.
 *
 * @example
 * const impl = ImplementationProcess.start({ command: 'node impl.js' });
 * const reply = await impl.call('hello', { protocolVersion: 1, stateLocation: null, localDirectory: null });
 * if ('result' in reply) console.log(reply.result);
 * await impl.close();
 */
export class ImplementationProcess {
  readonly options: Required<Omit<ProcessOptions, 'cwd' | 'env' | 'sandbox' | 'wire'>> &
    Pick<ProcessOptions, 'cwd' | 'env' | 'sandbox' | 'wire'>;
  /** Resolves once, when the process has exited (or failed to start). */
  readonly exited: Promise<ExitInfo>;
  /** The protocol violations seen so far (the first {@link KEPT_VIOLATIONS}; see `violationCount`). */
  readonly violations: ProtocolViolation[] = [];
  /** How many protocol violations were seen, kept or not. */
  violationCount = 0;
  /**
   * Replies to requests the harness had already given up on (their deadline passed, or a
   * violation failed them): not violations, since the harness gave up first.
   */
  lateReplies = 0;
  /** Resolves once every pipe of the process is closed (or was given up on). */
  readonly pipesClosed: Promise<void>;

  #child: ChildProcess;
  #nextId = 1;
  #pending = new Map<number, Pending>();
  /** Ids of the requests given up on (timed out or failed): a reply to one is late, not foreign. */
  #givenUp = new Set<number>();
  #stdoutChunks: Buffer[] = [];
  #stdoutBytes = 0;
  #discarding = false;
  #stderr = '';
  #exit: ExitInfo | null = null;
  #stdoutClosed = false;
  /** Resolves once stdout has ended or was closed: every line it carried has been read. */
  #stdoutDone: Promise<void>;
  #spawnError: Error | null = null;

  private constructor(options: ProcessOptions) {
    this.options = { ...DEFAULTS, ...options };
    const sandbox = options.sandbox;
    this.#child = spawn(
      sandbox ? sandbox[0]! : options.command,
      sandbox ? [...sandbox.slice(1), '/bin/sh', '-c', options.command] : [],
      {
        shell: !sandbox,
        cwd: options.cwd,
        env: implementationEnvironment(options.env),
        stdio: ['pipe', 'pipe', 'pipe'],
        // A process group of its own, so a kill reaches the shell and everything it started.
        detached: true,
      },
    );
    this.exited = new Promise<ExitInfo>((resolve) => {
      this.#child.once('error', (err) => {
        this.#spawnError = err;
        this.#exit = { code: null, signal: null };
        this.#failAll('IMPL_SPAWN_FAILED', `could not start "${options.command}": ${err.message}`);
        resolve(this.#exit);
      });
      this.#child.once('exit', (code, signal) => {
        this.#exit = { code, signal };
        resolve(this.#exit);
        // The exit can be seen before the last lines the process wrote are read (the reply to
        // `shutdown`, written just before exiting): fail what is still outstanding only once
        // stdout has been read to its end, or after a bounded wait if something else holds it.
        const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        let timer: NodeJS.Timeout | undefined;
        const grace = new Promise<void>((done) => {
          timer = setTimeout(done, PIPE_GRACE_MS);
          timer.unref();
        });
        void Promise.race([this.#stdoutDone, grace]).then(() => {
          clearTimeout(timer);
          this.#failAll('IMPL_EXITED', `the implementation ${how} while a request was outstanding`, {
            code,
            signal,
          });
        });
      });
    });
    LIVE.add(this);
    this.pipesClosed = new Promise<void>((resolve) => {
      this.#child.once('close', () => resolve());
      this.#child.once('error', () => resolve());
    });
    this.#stdoutDone = new Promise<void>((resolve) => {
      this.#child.stdout!.once('end', () => resolve());
      this.#child.stdout!.once('close', () => resolve());
    });
    this.#child.stdout!.on('data', (chunk: Buffer) => this.#onStdout(chunk));
    this.#child.stdout!.on('end', () => {
      this.#stdoutClosed = true;
      // stdout also ends when the process exits; give the exit event the chance to name the
      // real cause before calling it a closed stdout.
      setTimeout(() => {
        if (this.running)
          this.#failAll('IMPL_STDOUT_CLOSED', 'the implementation closed stdout but kept running');
      }, 100).unref();
    });
    this.#child.stderr!.setEncoding('utf8');
    this.#child.stderr!.on('data', (text: string) => {
      this.#stderr = (this.#stderr + text).slice(-this.options.stderrTailBytes);
    });
    // Writing to a process that died raises EPIPE on stdin; the exit handler reports it.
    this.#child.stdin!.on('error', () => {});
  }

  /** Start an implementation. Never throws: a spawn failure surfaces on the first request. */
  static start(options: ProcessOptions): ImplementationProcess {
    return new ImplementationProcess(options);
  }

  /** The operating-system process id, or undefined if it never started. */
  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** Whether the process is still running. */
  get running(): boolean {
    return this.#exit === null && this.#spawnError === null;
  }

  /** The tail of what the implementation wrote to stderr. */
  get stderrTail(): string {
    return this.#stderr;
  }

  /**
   * Send one JSON-RPC request and wait for its reply: `{ result }` or `{ error }`, as sent (an
   * error, a refusal included, is a reply like a result; checking either against its schema is
   * the reader's job, wire/reply.ts).
   *
   * @throws {HarnessError} only for a transport failure: a timeout, a crash, a closed stdout,
   *   garbage or an oversized line.
   */
  call(method: string, params?: unknown, options: { timeoutMs?: number } = {}): Promise<RawReply> {
    if (!this.running || this.#stdoutClosed) {
      const code = this.#spawnError
        ? 'IMPL_SPAWN_FAILED'
        : this.#stdoutClosed && this.running
          ? 'IMPL_STDOUT_CLOSED'
          : 'IMPL_NOT_RUNNING';
      return Promise.reject(this.#error(code, `cannot call ${method}: the implementation is not running`));
    }
    const id = this.#nextId++;
    const timeoutMs = options.timeoutMs ?? this.options.requestTimeoutMs;
    return new Promise<RawReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        this.#giveUp(id);
        reject(
          this.#error('IMPL_TIMEOUT', `no reply to ${method} within ${timeoutMs} ms`, { method, timeoutMs }),
        );
      }, timeoutMs);
      this.#pending.set(id, { method, resolve, reject, timer });
      const line = `${JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) })}\n`;
      this.#tap('sent', id, line.slice(0, -1));
      this.#child.stdin!.write(line);
    });
  }

  /** Tell the wire tap (if any) of a line; nothing it does can reach the transport. */
  #tap(direction: 'sent' | 'received', id: number | null, line: string): void {
    const tap = this.options.wire;
    if (!tap) return;
    try {
      if (direction === 'sent') tap.sent(this.#child.pid, id ?? 0, line);
      else tap.received(this.#child.pid, id, line);
    } catch {}
  }

  /** Send a signal to the whole process group (SIGKILL, SIGSTOP, SIGCONT, SIGTERM). */
  signal(signal: NodeJS.Signals): void {
    if (this.#exit) return;
    this.#signalGroup(signal);
  }

  #signalGroup(signal: NodeJS.Signals): void {
    const pid = this.#child.pid;
    if (pid === undefined || this.#groupGone) return;
    try {
      process.kill(-pid, signal);
    } catch {
      try {
        this.#child.kill(signal);
      } catch {}
    }
  }

  #groupGone = false;

  /** SIGCONT and SIGKILL to the whole process group, now (see {@link killAllImplementations}). */
  killGroupNow(): void {
    this.#signalGroup('SIGCONT');
    this.#signalGroup('SIGKILL');
  }

  /**
   * The end of every session, however it ended: kill what is left of the process group (children
   * the implementation started outlive it otherwise), then wait a bounded time for the pipes to
   * close and stop reading them, so that a grandchild holding stdout open cannot keep the harness
   * alive.
   */
  async #reap(): Promise<void> {
    this.killGroupNow();
    this.#groupGone = true;
    LIVE.delete(this);
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, PIPE_GRACE_MS);
    });
    await Promise.race([this.pipesClosed, grace]);
    clearTimeout(timer);
    for (const stream of [this.#child.stdin, this.#child.stdout, this.#child.stderr]) stream?.destroy();
  }

  /** kill -9 the implementation (its whole process group) and wait until it is gone. */
  async kill(): Promise<ExitInfo> {
    this.signal('SIGCONT');
    this.signal('SIGKILL');
    const exit = await this.exited;
    await this.#reap();
    return exit;
  }

  /**
   * Ask the implementation to shut down (`shutdown`), then close stdin; kill it if it has not
   * exited after `graceMs`.
   */
  async close(graceMs = 2_000): Promise<ExitInfo> {
    if (this.running && !this.#stdoutClosed) {
      // PROTO-001: `shutdown` is a request like any other and must be answered, with `null`.
      const why = await this.call('shutdown', {}, { timeoutMs: graceMs }).then(
        (reply) =>
          'result' in reply && reply.result === null
            ? null
            : `shutdown was answered with ${'error' in reply ? 'an error' : 'a result other than null'}`,
        (e: HarnessError) => `shutdown was not answered (${e.code})`,
      );
      if (why !== null)
        this.recordViolation(
          'IMPL_SHUTDOWN_UNANSWERED',
          `${why}; the implementation must answer shutdown with null, then exit`,
        );
    }
    this.#child.stdin!.end();
    const timer = setTimeout(() => this.signal('SIGKILL'), graceMs);
    const exit = await this.exited;
    clearTimeout(timer);
    await this.#reap();
    return exit;
  }

  #error(code: HarnessErrorCode, message: string, detail: Record<string, unknown> = {}): HarnessError {
    return new HarnessError(code, message, { stderrTail: this.#stderr, detail });
  }

  /** Remember a request given up on (the last {@link GIVEN_UP_KEPT}), so that its reply is late. */
  #giveUp(id: number): void {
    this.#givenUp.add(id);
    if (this.#givenUp.size > GIVEN_UP_KEPT)
      this.#givenUp.delete(this.#givenUp.values().next().value as number);
  }

  #failAll(code: HarnessErrorCode, message: string, detail: Record<string, unknown> = {}): void {
    for (const [id, p] of this.#pending) {
      clearTimeout(p.timer);
      this.#pending.delete(id);
      this.#giveUp(id);
      p.reject(this.#error(code, `${p.method}: ${message}`, { ...detail, method: p.method }));
    }
  }

  /**
   * A protocol violation the session saw outside the wire reader (a `hello` that differs from
   * the run's first, an unanswered `shutdown`): kept and counted like the reader's own.
   */
  recordViolation(code: HarnessErrorCode, message: string): void {
    this.violationCount++;
    if (this.violations.length < KEPT_VIOLATIONS) this.violations.push({ code, message });
  }

  #violation(code: HarnessErrorCode, message: string, line?: string): void {
    this.violationCount++;
    if (this.violations.length < KEPT_VIOLATIONS)
      this.violations.push({ code, message, ...(line === undefined ? {} : { excerpt: line.slice(0, 200) }) });
    // A reply we cannot attribute means the request it belonged to will never be answered
    // correctly: fail everything outstanding now rather than wait for the timeout, quoting the
    // line (escaped and bounded: it is the implementation's) so that a stray log line is seen.
    this.#failAll(code, line === undefined ? message : `${message}: ${quotedLine(line)}`);
  }

  #onStdout(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl === -1) break;
      const part = chunk.subarray(start, nl);
      start = nl + 1;
      if (this.#discarding) {
        this.#discarding = false;
        this.#stdoutChunks = [];
        this.#stdoutBytes = 0;
        continue;
      }
      const bytes = this.#stdoutChunks.length ? Buffer.concat([...this.#stdoutChunks, part]) : part;
      this.#stdoutChunks = [];
      this.#stdoutBytes = 0;
      let line: string;
      try {
        line = UTF8.decode(bytes);
      } catch {
        // Never replaced by U+FFFD: a reply read as other text than was written is no reply.
        this.#violation(
          'IMPL_GARBAGE_OUTPUT',
          'stdout carried a line that is not valid UTF-8 (the protocol is UTF-8, docs/protocol.md#framing-and-errors)',
          bytes.toString('latin1'),
        );
        continue;
      }
      this.#onLine(line);
    }
    if (start < chunk.length && !this.#discarding) {
      const rest = chunk.subarray(start);
      this.#stdoutBytes += rest.length;
      if (this.#stdoutBytes > this.options.maxLineBytes) {
        this.#stdoutChunks = [];
        this.#stdoutBytes = 0;
        this.#discarding = true;
        this.#violation(
          'IMPL_OVERSIZED_OUTPUT',
          `a stdout line exceeded ${this.options.maxLineBytes} bytes; replies must be one line each and bounded`,
        );
      } else this.#stdoutChunks.push(rest);
    }
  }

  #onLine(raw: string): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    let id: number | null = null;
    try {
      id = this.#readLine(line);
    } finally {
      // After the line was read (a reply resolves its request, whose continuation runs later).
      this.#tap('received', id, line);
    }
  }

  /** Read one stdout line; the numeric id it carries, if it is a response with one. */
  #readLine(line: string): number | null {
    if (nestingDepth(line, this.options.maxDepth) > this.options.maxDepth) {
      this.#violation(
        'IMPL_OVERSIZED_OUTPUT',
        `a stdout line nests arrays and objects deeper than ${this.options.maxDepth} levels; replies must be bounded`,
        line,
      );
      return null;
    }
    let msg: unknown;
    try {
      msg = parseJsonText(line);
    } catch (e) {
      if (e instanceof JsonTextError && e.problem.kind === 'duplicate-member') {
        // Another reader (first-wins, say) would see other values than this one: no reply.
        this.#violation('IMPL_DUPLICATE_MEMBER', `a response repeats a member name: ${e.message}`, line);
        return null;
      }
      this.#violation(
        'IMPL_GARBAGE_OUTPUT',
        'stdout carried a line that is not JSON (logs belong on stderr)',
        line,
      );
      return null;
    }
    if (
      msg === null ||
      typeof msg !== 'object' ||
      Array.isArray(msg) ||
      (msg as { jsonrpc?: unknown }).jsonrpc !== '2.0'
    ) {
      this.#violation('IMPL_GARBAGE_OUTPUT', 'stdout carried a line that is not a JSON-RPC 2.0 object', line);
      return null;
    }
    const m = msg as { id?: unknown; result?: unknown; error?: unknown };
    const hasResult = Object.hasOwn(m, 'result');
    const hasError = Object.hasOwn(m, 'error');
    if (hasResult === hasError) {
      this.#violation(
        'IMPL_GARBAGE_OUTPUT',
        'a response must carry exactly one of "result" and "error"',
        line,
      );
      return null;
    }
    if (m.id === undefined || m.id === null) {
      this.#violation('IMPL_MISSING_ID', 'a response carried no id', line);
      return null;
    }
    const pending = typeof m.id === 'number' ? this.#pending.get(m.id) : undefined;
    if (!pending && typeof m.id === 'number' && this.#givenUp.delete(m.id)) {
      // The reply to a request already given up on (timed out, or failed by a violation): counted,
      // but it answers nobody and is no second failure.
      this.lateReplies++;
      return m.id as number;
    }
    if (!pending) {
      this.#violation(
        'IMPL_UNKNOWN_ID',
        `a response carried id ${JSON.stringify(m.id)}, which no outstanding request has`,
        line,
      );
      return null;
    }
    this.#pending.delete(m.id as number);
    clearTimeout(pending.timer);
    pending.resolve(hasError ? { error: m.error } : { result: m.result });
    return m.id as number;
  }
}

/** One line saying which protocol violations were seen (the first few, and how many in all). */
export function describeViolations(seen: {
  readonly count: number;
  readonly first: readonly ProtocolViolation[];
}): string {
  const shown = seen.first
    .slice(0, 3)
    .map((v) => `${v.code}: ${v.message}${v.excerpt === undefined ? '' : ` (line: ${v.excerpt})`}`);
  const more = seen.count - shown.length;
  return `protocol violation${seen.count === 1 ? '' : 's'}: ${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}
