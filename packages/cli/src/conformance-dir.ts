// Where the kit's own conformance data lives (cases, fault scenarios, the requirement catalogue),
// for the commands that use it when no --conformance is given.
import { fileURLToPath } from 'node:url';

/** The kit's conformance directory. */
export const DEFAULT_CONFORMANCE = fileURLToPath(new URL('../../../conformance/', import.meta.url));
