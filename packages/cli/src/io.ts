import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';

/** Everything a command touches outside the file system: injected so commands stay testable. */
export interface Io {
  /** Write results; resolves when the stream can take more (backpressure keeps memory bounded). */
  out(text: string): Promise<void>;
  /** Write diagnostics and progress. */
  err(text: string): Promise<void>;
  readonly stdin: Readable;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Whether stdout is a terminal (colour is on by default only then). */
  readonly stdoutIsTty: boolean;
  /** stderr when it is a terminal, for live progress that redraws a line; else absent. */
  readonly progressStream?: NodeJS.WritableStream;
}

/**
 * The directory relative paths are resolved from: where the user typed the command. Run through
 * the repository's `pnpm agent-contracts` script, the process starts in the repository root, and
 * pnpm keeps the user's directory in INIT_CWD; anywhere else it is the working directory.
 */
export function invocationDirectory(io: Io): string {
  const { INIT_CWD, npm_lifecycle_event } = io.env;
  return npm_lifecycle_event === 'agent-contracts' && INIT_CWD ? INIT_CWD : process.cwd();
}

async function write(stream: Writable, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, 'drain');
}

/** The process's own streams and environment. */
export function processIo(): Io {
  return {
    out: (text) => write(process.stdout, text),
    err: (text) => write(process.stderr, text),
    stdin: process.stdin,
    env: process.env,
    stdoutIsTty: process.stdout.isTTY === true,
    ...(process.stderr.isTTY === true ? { progressStream: process.stderr } : {}),
  };
}
