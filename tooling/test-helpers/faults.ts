// The fault matrix as the tests run it: the scenarios of the repository's corpus and the options
// of a run. Shared by the harness's fault-matrix tests (packages/harness/test/faults-helpers.ts)
// and the runs against the reference implementation (test/integration/helpers/faults.ts).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FAULT_KIND_NAMES, type FaultRunOptions, loadFaultScenarios } from '@agent-contracts/harness';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const CONFORMANCE = join(REPO, 'conformance');

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
