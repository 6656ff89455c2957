// The CLI as the tests of test/integration run it (tooling/test-helpers): as a process against the
// reference implementation (examples/reference-node), its bundle or its sources.
export { CHROMIUM, launchChromium, skipWithoutChromium } from '../../../tooling/test-helpers/chromium.ts';
export { REFERENCE, SOURCE_REFERENCE } from '../../../tooling/test-helpers/reference.ts';
export { cliEntry, type Run, repoRoot, runCli } from '../../../tooling/test-helpers/run-cli.ts';
export { tempDir } from '../../../tooling/test-helpers/temp-dir.ts';
