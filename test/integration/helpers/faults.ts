// The fault matrix of @agent-contracts/harness run against the reference implementation
// (examples/reference-node) as a process: the scenarios of the repository's corpus, the options
// of a run, and the PostgreSQL switch (without AGENT_CONTRACTS_PG_URL the PostgreSQL suite is
// skipped loudly; in CI it fails instead), and the harness's broken store (FAKE).

export { CONFORMANCE, FAKE, REPO, scenarios, target } from '../../../tooling/test-helpers/faults.ts';
export { REFERENCE } from '../../../tooling/test-helpers/reference.ts';

export const PG_URL = process.env.AGENT_CONTRACTS_PG_URL ?? '';
export const PG_REQUIRED = Boolean(process.env.CI || process.env.AGENT_CONTRACTS_REQUIRE_PG);
export const PG_SKIP = PG_URL === '' && !PG_REQUIRED;
