// Shared by the fault-matrix tests: where things are, and the PostgreSQL switch (without
// AGENT_CONTRACTS_PG_URL the PostgreSQL suite is skipped loudly; in CI it fails instead).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FAULT_KIND_NAMES, type FaultRunOptions, loadFaultScenarios } from '../src/index.js';

export const REPO = fileURLToPath(new URL('../../../', import.meta.url));
export const CONFORMANCE = join(REPO, 'conformance');
export const TSX = 'node --conditions=@agent-contracts/source --import tsx';
/**
 * The reference implementation: its bundle, built once per test run from its sources
 * (tooling/vitest/bundles.ts), or its sources through tsx outside the configured vitest.
 */
export const REFERENCE = process.env.AGENT_CONTRACTS_TEST_REFERENCE
  ? `node ${process.env.AGENT_CONTRACTS_TEST_REFERENCE}`
  : `${TSX} ${join(REPO, 'examples/reference-node/src/main.ts')}`;
/** The broken store of test/fakes/fault-store-impl.ts in `mode`: its bundle, or its source through tsx. */
export const FAKE = (mode: string) =>
  process.env.AGENT_CONTRACTS_TEST_FAULT_FAKE
    ? `node ${process.env.AGENT_CONTRACTS_TEST_FAULT_FAKE} ${mode}`
    : `${TSX} ${join(REPO, 'packages/harness/test/fakes/fault-store-impl.ts')} ${mode}`;

export const scenarios = (prefix = '') =>
  loadFaultScenarios(CONFORMANCE, FAULT_KIND_NAMES).filter((s) => s.id.startsWith(`faults/${prefix}`));

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
