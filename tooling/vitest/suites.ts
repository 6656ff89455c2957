// The suite's shape: every test file says what it is in its first lines, with vitest's file tags
// (`// @module-tag <name>`, https://vitest.dev/guide/test-tags): `unit` (in process: no child
// process, no database) or `integration` (starts processes: the CLI, implementations, children;
// or uses PostgreSQL, Chromium, bubblewrap or Python; or runs another package's implementation),
// and `slow` besides when the file's tests take more than about 20 s on the CI machine. The three
// vitest projects of vitest.config.ts are made from those tags, so a file is in exactly one:
// `slow` if it is tagged so, else its kind. `--project unit` runs the quick in-process files;
// `--tags-filter` selects by the same names. test/suite/suites.test.ts holds every file to this.
// Where a file lives says what it covers: packages/<p>/test and examples/<e>/test that package
// (with the packages it depends on as they are published: a test of a workspace package reaches
// no other one its package.json does not declare, tooling/vitest/reach.ts); test/integration what
// runs several packages together end to end (the fault matrix against the reference
// implementation, `conform` against it, every broken implementation of examples/broken against
// the kit), always tagged `integration`;
// test/publish the packages as a user gets them; test/corpus and test/suite the repository's data
// and the suite itself.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** The tags a test file may carry, as vitest's `tags` option defines them. */
export const TAGS = [
  { name: 'unit', description: 'in process: no child process, no database' },
  {
    name: 'integration',
    description:
      'starts processes (the CLI, implementations, children) or uses PostgreSQL, Chromium, bubblewrap or Python',
  },
  { name: 'slow', description: 'more than about 20 s on the CI machine: its own project, started first' },
] as const;

export type Kind = 'unit' | 'integration';
export type Project = Kind | 'slow';
/** The projects in the order their files start: the longest first, so none is left for the end. */
export const PROJECTS: readonly Project[] = ['slow', 'integration', 'unit'];

/** Where test files live (relative to the repository root), as `<dir>/**\/*.test.ts`. */
function testRoots(root: string): string[] {
  const roots = [join(root, 'test')];
  for (const group of ['packages', 'examples'])
    for (const name of readdirSync(join(root, group))) roots.push(join(root, group, name, 'test'));
  return roots.filter((d) => existsSync(d));
}

/** Every test file of the suite, relative to `root`, with `/` separators, sorted. */
export function testFiles(root: string): string[] {
  const out: string[] = [];
  for (const dir of testRoots(root))
    for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' }))
      if (entry.endsWith('.test.ts') && !entry.split(sep).includes('node_modules'))
        out.push(relative(root, join(dir, entry)).split(sep).join('/'));
  return out.sort();
}

/** The file tags of a test file's source, read as vitest reads them. */
export function tagsOf(source: string): string[] {
  return [...source.matchAll(/(\/\/|\*)\s*@module-tag\s+([\w\-/]+)\b/g)].map((m) => m[2]!);
}

/** The project of a file with these tags; null when they name no kind, or both. */
export function projectOf(tags: readonly string[]): Project | null {
  const kinds = tags.filter((t) => t === 'unit' || t === 'integration');
  if (kinds.length !== 1) return null;
  return tags.includes('slow') ? 'slow' : (kinds[0] as Kind);
}

/**
 * The files of each project. A file whose tags name no kind goes to `unit`, where
 * test/suite/suites.test.ts fails on it (vitest would run it either way).
 */
export function projectFiles(root: string): Record<Project, string[]> {
  const out: Record<Project, string[]> = { slow: [], integration: [], unit: [] };
  for (const file of testFiles(root))
    out[projectOf(tagsOf(readFileSync(join(root, file), 'utf8'))) ?? 'unit'].push(file);
  return out;
}
