#!/usr/bin/env node
// Build step of the packages that publish repository data (kit: conformance/, schemas: schemas/):
// copies <from> (relative to the repository root, the source of truth) into <to> (relative to the
// package being built), replacing what an earlier build left there. The copy is git-ignored.
// Usage (from a package directory): node ../../scripts/copy-into-package.mjs <from> <to>
import { cpSync, existsSync, rmSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const [from, to] = process.argv.slice(2);
if (!from || !to) {
  process.stderr.write('usage: node ../../scripts/copy-into-package.mjs <from> <to>\n');
  process.exit(2);
}
const source = resolve(root, from);
const target = resolve(process.cwd(), to);
const inside = (dir, path) => {
  const rel = relative(dir, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
};
if (!inside(root, source) || !existsSync(source) || !statSync(source).isDirectory()) {
  process.stderr.write(`copy-into-package: ${from} is not a directory of the repository\n`);
  process.exit(2);
}
if (!inside(process.cwd(), target)) {
  process.stderr.write(`copy-into-package: ${to} is not inside the package directory\n`);
  process.exit(2);
}
rmSync(target, { recursive: true, force: true });
cpSync(source, target, {
  recursive: true,
  filter: (path) => !/(^|[/\\])(__pycache__|\.DS_Store)$/.test(path),
});
process.stderr.write(`copied ${join(from)} -> ${relative(process.cwd(), target)}\n`);
