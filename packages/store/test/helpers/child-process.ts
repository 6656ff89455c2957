// Spawning the TypeScript child processes of the race and crash tests (node + tsx, source
// condition) and reading their NDJSON output line by line.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export function spawnTsChild(script: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--conditions=@agent-contracts/source', '--import', 'tsx', script], {
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
