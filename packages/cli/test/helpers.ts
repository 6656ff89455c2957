import { Readable } from 'node:stream';
import type { Io } from '../src/io.ts';

export { REFERENCE, SOURCE_REFERENCE } from '../../../tooling/test-helpers/reference.ts';
export { cliEntry, type Run, repoRoot, runCli } from '../../../tooling/test-helpers/run-cli.ts';
export { tempDir } from '../../../tooling/test-helpers/temp-dir.ts';

import type { Run } from '../../../tooling/test-helpers/run-cli.ts';

/** Parse `--json` output. */
export function json(run: Run): {
  results: Array<{
    file: string;
    status: string;
    contract: string | null;
    issues: Array<{ code: string; path: string; severity: string }>;
  }>;
  summary: { files: number; valid: number; invalid: number; errors: number; exitCode: number };
} {
  return JSON.parse(run.stdout);
}

/** No stack trace and no Node crash banner on stderr. */
export function expectNoCrash(run: Run): void {
  if (/\n\s+at .+:\d+:\d+\)?\n/.test(run.stderr) || /Error \[ERR_|node:internal/.test(run.stderr)) {
    throw new Error(`stack trace on stderr:\n${run.stderr}`);
  }
}

/** An in-process Io that collects stdout and stderr, with `stdin` as standard input. */
export function memoryIo(stdin = ''): Io & { stdout: string; stderr: string } {
  const io = {
    stdout: '',
    stderr: '',
    out: async (t: string) => {
      io.stdout += t;
    },
    err: async (t: string) => {
      io.stderr += t;
    },
    stdin: Readable.from([Buffer.from(stdin)]),
    env: {},
    stdoutIsTty: false,
  };
  return io;
}
