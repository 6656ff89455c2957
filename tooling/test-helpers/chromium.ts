// Headless Chromium for the HTML report tests (the CLI's and test/integration's): the
// apt-installed browser driven by playwright-core. CI installs Chromium (.ci/run); elsewhere a
// missing browser skips loudly, never silently.
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const required = Boolean(process.env.CI || process.env.AGENT_CONTRACTS_REQUIRE_PG);

/** Whether the Chromium suites are skipped (no browser, and not in CI). */
export function skipWithoutChromium(suite: string): boolean {
  const skip = !existsSync(CHROMIUM) && !required;
  if (skip) console.warn(`${suite}: SKIPPED, no Chromium at ${CHROMIUM} (apt-get install chromium)`);
  return skip;
}

/** One headless browser; the caller closes it (once per test file: a launch is the slow part). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}
