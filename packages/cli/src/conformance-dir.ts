// Where the kit's own conformance data lives (cases, fault scenarios, the requirement catalogue),
// for the commands that use it when no --conformance is given.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The kit's conformance directory. */
export const DEFAULT_CONFORMANCE = fileURLToPath(new URL('../../../conformance/', import.meta.url));

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
