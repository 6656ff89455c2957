// Vitest global setup: the CLI as one esbuild bundle of its sources (scripts/bundle-reference.mjs
// cli), built once per test run, so that the tests that run the CLI as a process
// (tooling/test-helpers/run-cli.ts) do not start a TypeScript loader in each one (about 1.1 s of
// CPU each). The bundle is the sources' code: the tests of the CLI's behaviour are unchanged.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  // AGENT_CONTRACTS_TEST_FROM_SOURCE=1 runs the CLI through tsx instead (to compare, or to debug).
  if (process.env.AGENT_CONTRACTS_TEST_FROM_SOURCE) return;
  const script = fileURLToPath(new URL('../../scripts/bundle-reference.mjs', import.meta.url));
  const r = spawnSync(process.execPath, [script, 'cli', '--quiet'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`bundling the CLI for the tests failed:\n${r.stderr}`);
  process.env.AGENT_CONTRACTS_TEST_CLI = r.stdout.trim();
}
