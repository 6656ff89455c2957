// Shared by the harness's fault-matrix tests: where things are, and the broken store of
// test/fakes/fault-store-impl.ts (tooling/test-helpers/faults.ts). The runs of the whole matrix
// against the reference implementation are in test/integration (helpers/faults.ts).
export { CONFORMANCE, FAKE, REPO, scenarios, target } from '../../../tooling/test-helpers/faults.ts';
