// The conformance data of this package: conformance/ beside this file, copied from the
// repository's conformance/ when the package is built (scripts/copy-into-package.mjs); the same
// for docs/, the pages the CLI cites.
import { fileURLToPath } from 'node:url';

export const conformanceDirectory = fileURLToPath(new URL('./conformance/', import.meta.url));
export const docsDirectory = fileURLToPath(new URL('./docs/', import.meta.url));
