// Shared by the harness's fault-matrix tests: where things are. The runs of the whole matrix
// against the reference implementation are in test/integration (helpers/faults.ts).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../../', import.meta.url));
export const CONFORMANCE = join(REPO, 'conformance');
export const TSX = 'node --conditions=@agent-contracts/source --import tsx';
export { REFERENCE } from '../../../tooling/test-helpers/reference.ts';
/** The broken store of test/fakes/fault-store-impl.ts in `mode`: its bundle, or its source through tsx. */
export const FAKE = (mode: string) =>
  process.env.AGENT_CONTRACTS_TEST_FAULT_FAKE
    ? `node ${process.env.AGENT_CONTRACTS_TEST_FAULT_FAKE} ${mode}`
    : `${TSX} ${join(REPO, 'packages/harness/test/fakes/fault-store-impl.ts')} ${mode}`;

export { scenarios, target } from '../../../tooling/test-helpers/faults.ts';
