// The reference implementation (examples/reference-node) as the command a test gives
// `conform --impl`: its bundle, built once per test run from its sources by the global setup
// (tooling/vitest/bundles.ts), which starts without a TypeScript loader (about a fifth of the CPU
// of a start from the sources: bench/README.md); its sources through tsx when there is no bundle
// (a test file run outside the configured vitest). A test about running the sources themselves
// uses SOURCE_REFERENCE.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The reference from its TypeScript sources, through tsx with the source condition. */
export const SOURCE_REFERENCE = `node --conditions=@agent-contracts/source --import tsx ${join(repoRoot, 'examples/reference-node/src/main.ts')}`;

/** The reference as the tests run it: its bundle, or its sources outside the configured vitest. */
export const REFERENCE = process.env.AGENT_CONTRACTS_TEST_REFERENCE
  ? `node ${process.env.AGENT_CONTRACTS_TEST_REFERENCE}`
  : SOURCE_REFERENCE;
