// Vitest global setup: the CLI, the reference implementation, the fault-matrix tests' broken
// store and the store tests' child processes as esbuild bundles of their sources (scripts/bundle-reference.mjs), built once per test
// run, so that the tests that run them as processes (tooling/test-helpers/run-cli.ts,
// tooling/test-helpers/faults.ts) do not start a TypeScript loader in each one (about
// 1.1 s of CPU each). The bundles are the sources' code: the tests of their behaviour are unchanged.
import { spawnSync } from 'node:child_process';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  // AGENT_CONTRACTS_TEST_FROM_SOURCE=1 runs them all through tsx instead (to compare, or to debug).
  if (process.env.AGENT_CONTRACTS_TEST_FROM_SOURCE) return;
  // Once per run: every project of vitest.config.ts runs its global setup.
  if (process.env.AGENT_CONTRACTS_TEST_STORE_CHILDREN) return;
  const script = fileURLToPath(new URL('../../scripts/bundle-reference.mjs', import.meta.url));
  const bundle = (target: string) => {
    const r = spawnSync(process.execPath, [script, target, '--quiet'], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`bundling the ${target} for the tests failed:\n${r.stderr}`);
    return r.stdout.trim();
  };
  process.env.AGENT_CONTRACTS_TEST_CLI = bundle('cli');
  // The reference implementation as the main job starts it, for the fault-matrix tests.
  process.env.AGENT_CONTRACTS_TEST_REFERENCE = bundle('reference');
  // The broken store the fault-matrix tests run the scenarios against.
  process.env.AGENT_CONTRACTS_TEST_FAULT_FAKE = bundle('fault-store-fake');
  // The child processes of the store's crash, race and evidence tests, one module each.
  process.env.AGENT_CONTRACTS_TEST_STORE_CHILDREN = dirname(bundle('store-children'));
}
