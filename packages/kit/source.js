// Under the `@agent-contracts/source` condition (tests and scripts of the repository), the data
// is read from the repository's conformance/ and docs/ themselves, never from a copy an earlier
// build left.
import { fileURLToPath } from 'node:url';

export const conformanceDirectory = fileURLToPath(new URL('../../conformance/', import.meta.url));
export const docsDirectory = fileURLToPath(new URL('../../docs/', import.meta.url));
