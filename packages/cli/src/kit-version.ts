// This kit's version, for the run line and the trace resource. The conformance data itself is
// @agent-contracts/kit's (`conformanceDirectory`), found by package resolution wherever the CLI runs.
import { readFileSync } from 'node:fs';

/** This kit's version (`@agent-contracts/cli`'s), as `conform` records it in the run line. */
export function kitVersion(): string {
  try {
    return (
      JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
        version: string;
      }
    ).version;
  } catch {
    return 'unknown';
  }
}
