// Vitest global setup: every test file runs with TMPDIR set to one fresh directory, removed when
// the run ends, so the temporary directories that tests, the harness and the implementations they
// start create (state locations, reports, fixtures) never outlive the run, whatever a test forgot.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): (() => void) | undefined {
  // Once per run: every project of vitest.config.ts runs its global setup, the first makes the root.
  if (process.env.AGENT_CONTRACTS_TEST_TMP_ROOT) return undefined;
  const root = mkdtempSync(join(tmpdir(), 'agent-contracts-vitest-'));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = root;
  process.env.AGENT_CONTRACTS_TEST_TMP_ROOT = root;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    delete process.env.AGENT_CONTRACTS_TEST_TMP_ROOT;
    rmSync(root, { recursive: true, force: true });
  };
}
