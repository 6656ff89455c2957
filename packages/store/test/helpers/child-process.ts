// Spawning the child processes of the race, crash and evidence tests (helpers/*-child.ts) and
// reading their NDJSON output line by line. A child runs from its bundle, built once per test run
// by the global setup (tooling/vitest/bundles.ts, `store-children`): the same code without a
// TypeScript loader in each of the sixty or so processes these tests start. Outside the configured
// vitest (no bundle) it runs from its source through tsx, with the source condition.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** The command line of the child whose source is `script`: its bundle, or its source through tsx. */
export function childArgs(script: string): string[] {
  const dir = process.env.AGENT_CONTRACTS_TEST_STORE_CHILDREN;
  const bundled = dir ? join(dir, basename(script).replace(/\.ts$/, '.mjs')) : null;
  if (bundled && existsSync(bundled)) return [bundled];
  return ['--conditions=@agent-contracts/source', '--import', 'tsx', script];
}

export function spawnChild(script: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, childArgs(script), {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}
/** Calls `onLine` with every parsed JSON line of the child's stdout; collects stderr for failures. */
export function readLines(
  child: ChildProcess,
  onLine: (msg: Record<string, unknown>) => void,
): { stderr: () => string } {
  let buffer = '';
  let err = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    buffer += chunk;
    let nl = buffer.indexOf('\n');
    while (nl >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line.trim()) onLine(JSON.parse(line) as Record<string, unknown>);
      nl = buffer.indexOf('\n');
    }
  });
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (c: string) => {
    err += c;
  });
  return { stderr: () => err };
}

/** Resolves with the exit code or signal of the child. */
export const exited = (
  child: ChildProcess,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null)
      resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });
