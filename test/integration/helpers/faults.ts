// The fault matrix of @agent-contracts/harness run against the reference implementation
// (examples/reference-node) as a process: the scenarios of the repository's corpus, the options
// of a run, and the PostgreSQL switch (without AGENT_CONTRACTS_PG_URL the PostgreSQL suite is
// skipped loudly; in CI it fails instead).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FAULT_KIND_NAMES, type FaultRunOptions, loadFaultScenarios } from '@agent-contracts/harness';

export { REFERENCE } from '../../../tooling/test-helpers/reference.ts';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const CONFORMANCE = join(REPO, 'conformance');

/** The fault scenarios whose id starts with `faults/<prefix>`. */
export const scenarios = (prefix = '') =>
  loadFaultScenarios(CONFORMANCE, FAULT_KIND_NAMES).filter((s) => s.id.startsWith(`faults/${prefix}`));

/** A run of the matrix against `command`, its state in `stateLocation` or a fresh directory. */
export const target = (command: string, stateLocation?: string): FaultRunOptions => ({
  command,
  stateLocation: stateLocation ?? mkdtempSync(join(tmpdir(), 'ac-faults-')),
  timeoutMs: 20_000,
  conformanceDir: CONFORMANCE,
  cwd: REPO,
  jobs: 2,
});

export const PG_URL = process.env.AGENT_CONTRACTS_PG_URL ?? '';
export const PG_REQUIRED = Boolean(process.env.CI || process.env.AGENT_CONTRACTS_REQUIRE_PG);
export const PG_SKIP = PG_URL === '' && !PG_REQUIRED;
