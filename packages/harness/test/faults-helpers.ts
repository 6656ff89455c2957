// Shared by the harness's fault-matrix tests: where things are. The runs of the whole matrix
// against the reference implementation are in test/integration (helpers/faults.ts).
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
