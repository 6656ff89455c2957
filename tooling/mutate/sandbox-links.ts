// Vitest global setup of the mutation run: Stryker copies the repository into its sandbox file by
// file, so a symbolic link arrives there as a plain copy of its target. The conformance project of
// the reference implementation holds a link that points out of the project on purpose (the case
// store/terminal/evidence-link-out-of-the-root): make it a link again.
import { lstatSync, rmSync, symlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Links of the repository, each as its path and its target. */
const LINKS: readonly (readonly [string, string])[] = [
  ['examples/reference-node/conformance-project/closeout/outside.md', '../../package.json'],
];

export default function setup(): void {
  for (const [path, target] of LINKS) {
    const abs = fileURLToPath(new URL(`../../${path}`, import.meta.url));
    if (lstatSync(abs).isSymbolicLink()) continue;
    rmSync(abs);
    symlinkSync(target, abs);
  }
}
