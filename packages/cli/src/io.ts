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
  };
}
