// The conformance data of this package: conformance/ beside this file, copied from the
// repository's conformance/ when the package is built (scripts/copy-into-package.mjs).
import { fileURLToPath } from 'node:url';

export const conformanceDirectory = fileURLToPath(new URL('./conformance/', import.meta.url));
