// The fault matrix as the tests run it: the scenarios of the repository's corpus, the options of
// a run and the harness's broken store. Shared by the harness's fault-matrix tests
// (packages/harness/test/faults-helpers.ts) and the runs against the reference implementation
// (test/integration/helpers/faults.ts).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FAULT_KIND_NAMES, type FaultRunOptions, loadFaultScenarios } from '@agent-contracts/harness';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const CONFORMANCE = join(REPO, 'conformance');
const TSX = 'node --conditions=@agent-contracts/source --import tsx';

/**
 * The broken store of packages/harness/test/fakes/fault-store-impl.ts in `mode`: its bundle
 * (tooling/vitest/bundles.ts), or its source through tsx.
 */
export const FAKE = (mode: string) =>
  process.env.AGENT_CONTRACTS_TEST_FAULT_FAKE
    ? `node ${process.env.AGENT_CONTRACTS_TEST_FAULT_FAKE} ${mode}`
    : `${TSX} ${join(REPO, 'packages/harness/test/fakes/fault-store-impl.ts')} ${mode}`;

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
