import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Io } from '../src/io.ts';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const bin = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Run the real CLI from source (tsx, source condition) as a child process. */
export function runCli(
  args: readonly string[],
  options: {
    input?: string | Buffer;
    env?: Record<string, string>;
    cwd?: string;
    nodeOptions?: string[];
    /** Safety net only (default 120 s): the run is killed after it. */
    timeoutMs?: number;
  } = {},
): Run {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && k !== 'NO_COLOR' && k !== 'FORCE_COLOR' && k !== 'NODE_OPTIONS') env[k] = v;
  }
  const r = spawnSync(
    process.execPath,
    [...(options.nodeOptions ?? []), '--conditions=@agent-contracts/source', '--import', tsx, bin, ...args],
    {
      cwd: options.cwd ?? repoRoot,
      env: { ...env, ...options.env },
      input: options.input ?? '',
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      timeout: options.timeoutMs ?? 120_000,
    },
  );
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

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

/** A fresh temporary directory, removed by the returned cleanup. */
export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'agent-contracts-cli-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
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
