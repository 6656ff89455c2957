// The notices a bundle owes the packages it copies code from: esbuild's metafile names every
// input file, the ones under node_modules/ belong to third-party packages, and each package's
// license (MIT, BSD, ISC, Apache-2.0: all ask that their notice travel with copies) and NOTICE
// file, if it has one, go into one text file beside the bundle.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The directory of the package an input path under node_modules/ belongs to, or null. */
function packageDir(input) {
  const parts = input.split('/');
  const at = parts.lastIndexOf('node_modules');
  if (at === -1) return null;
  const size = parts[at + 1]?.startsWith('@') ? 2 : 1;
  return parts.slice(0, at + 1 + size).join('/');
}

/** The text of the first file of `dir` whose name matches `pattern`, or null. */
function fileText(dir, pattern) {
  const name = readdirSync(dir)
    .sort()
    .find((f) => pattern.test(f));
  return name ? readFileSync(join(dir, name), 'utf8').trim() : null;
}

/** Who a package.json names as its author, as text. */
const authorOf = (pkg) => (typeof pkg.author === 'string' ? pkg.author : (pkg.author?.name ?? null));

/**
 * The third-party notices of a bundle built from `repo` with `metafile`: one section per
 * package (name, version, license, its license text and NOTICE). A package that ships no license
 * file (@humanwhocodes/momoa, Apache-2.0) is named with its license and author; throws when a
 * bundled package names no license at all, so that a bundle never ships code of unknown terms.
 */
export function thirdPartyLicenses(repo, metafile) {
  const dirs = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const dir = packageDir(input);
    if (dir) dirs.add(dir);
  }
  const sections = new Map();
  for (const dir of dirs) {
    const abs = join(repo, dir);
    if (!existsSync(join(abs, 'package.json'))) continue;
    const pkg = JSON.parse(readFileSync(join(abs, 'package.json'), 'utf8'));
    const key = `${pkg.name}@${pkg.version}`;
    if (sections.has(key)) continue;
    const id = typeof pkg.license === 'string' ? pkg.license : null;
    const license =
      fileText(abs, /^(licen[cs]e|copying)(\.|$)/i) ??
      (id
        ? `Licensed under ${id}${authorOf(pkg) ? ` by ${authorOf(pkg)}` : ''} (the package ships no license file; the text is at https://spdx.org/licenses/${id}.html).`
        : null);
    if (!license) throw new Error(`${key} (${dir}) is bundled but names no license`);
    const notice = fileText(abs, /^notice(\.|$)/i);
    sections.set(
      key,
      `${key} (${id ?? 'see below'})\n\n${license}${notice ? `\n\nNOTICE:\n\n${notice}` : ''}`,
    );
  }
  const body = [...sections.keys()].sort().map((k) => sections.get(k));
  return `Third-party software bundled into this package's dist/, with the notices its licenses ask to be kept.\n\n${body.join(`\n\n${'-'.repeat(72)}\n\n`)}\n`;
}
