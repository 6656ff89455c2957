// The one way a test runs the real agent-contracts CLI from source as a child process. Shared by
// the CLI's own tests, the tests of examples/ and test/integration, which must not reach into
// another package's test folder.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const bin = fileURLToPath(new URL('../../packages/cli/src/bin.ts', import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The arguments of `node` that start the CLI, for a test that spawns it itself: the bundle of its
 * sources that the test run's global setup built (tooling/vitest/bundles.ts), or its sources
 * through tsx with the source condition when there is none.
 */
export function cliEntry(): string[] {
  const bundle = process.env.AGENT_CONTRACTS_TEST_CLI;
  return bundle ? [bundle] : ['--conditions=@agent-contracts/source', '--import', tsx, bin];
}

/**
 * Run the real CLI from source as a child process: the bundle of its sources that the test run's
 * global setup built (tooling/vitest/bundles.ts), or through tsx with the source condition when
 * there is none (a test file run outside the configured vitest).
 */
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
  const r = spawnSync(process.execPath, [...(options.nodeOptions ?? []), ...cliEntry(), ...args], {
    cwd: options.cwd ?? repoRoot,
    env: { ...env, ...options.env },
    input: options.input ?? '',
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: options.timeoutMs ?? 120_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
