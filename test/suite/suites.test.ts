// @module-tag unit
// The suite's shape (tooling/vitest/suites.ts): every test file names its kind with one file tag,
// `unit` or `integration`, and `slow` besides when it is; a `unit` file starts no process and
// opens no database; a file of test/integration is `integration`; a package's test reaches no
// workspace package its package.json does not declare (tooling/vitest/reach.ts: those run several
// packages together, in test/integration); the three projects of vitest.config.ts hold every file
// exactly once.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { reachOf, undeclaredReaches, workspacePackages } from '../../tooling/vitest/reach.ts';
import { PROJECTS, projectFiles, projectOf, tagsOf, testFiles } from '../../tooling/vitest/suites.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const files = testFiles(root);
const source = (f: string) => readFileSync(join(root, f), 'utf8');

/** What only an integration test does: start a process, or open PostgreSQL or a browser. */
const STARTS_PROCESSES =
  /from '(node:child_process|pg|playwright-core)'|test-helpers\/(run-cli|reference)\.ts'|helpers\/(child-process|packed-project)\.[jt]s'|\b(startSubprocess|ImplementationProcess|runFaultMatrix|runFaultScenario|spawnChild|runCli)\b/;

/** A file that replaces node:child_process with a scripted child starts no process, whatever it calls. */
const SCRIPTS_THE_CHILD = /vi\.mock\('node:child_process'/;
const startsProcesses = (src: string) => STARTS_PROCESSES.test(src) && !SCRIPTS_THE_CHILD.test(src);

describe('the suite', () => {
  it('is found where vitest looks (packages/*/test, examples/*/test, test)', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain('test/suite/suites.test.ts');
    expect(files).toContain('packages/cli/test/args.test.ts');
    expect(files).toContain('examples/reference-node/test/store.test.ts');
  });

  it('every file names its kind (unit or integration) and at most `slow` besides, in its first lines', () => {
    const wrong = files.filter((f) => {
      const tags = tagsOf(source(f));
      const head = tagsOf(source(f).split('\n').slice(0, 2).join('\n'));
      return (
        projectOf(tags) === null ||
        tags.some((t) => !['unit', 'integration', 'slow'].includes(t)) ||
        new Set(tags).size !== tags.length ||
        head.length !== tags.length
      );
    });
    expect(
      wrong,
      'start each with a file tag line naming unit or integration (tooling/vitest/suites.ts)',
    ).toEqual([]);
  });

  it('a unit file starts no process and opens no database (those are integration)', () => {
    // This file names those calls without making them.
    const others = files.filter((f) => f !== 'test/suite/suites.test.ts');
    const wrong = others.filter((f) => tagsOf(source(f)).includes('unit') && startsProcesses(source(f)));
    expect(wrong).toEqual([]);
  });

  it('a file of test/integration (several packages end to end) is tagged integration', () => {
    const cross = files.filter((f) => f.startsWith('test/integration/'));
    expect(cross).toContain('test/integration/mutants.test.ts');
    expect(cross.filter((f) => !tagsOf(source(f)).includes('integration'))).toEqual([]);
  });

  it('a test of a workspace package reaches only the workspace packages its package.json declares', () => {
    // Running another package's code (the reference implementation behind `conform --impl`, the CLI
    // against the reference) is several packages together: test/integration.
    expect(
      undeclaredReaches(root, files),
      'move the test to test/integration (tooling/vitest/suites.ts), or declare the package it runs',
    ).toEqual([]);
  });

  it('the reach is read through helpers and started programs, a re-export only where it is imported', () => {
    const packages = workspacePackages(root);
    const reach = (f: string) => [...reachOf(root, f, packages)].sort();
    // REFERENCE comes from tooling/test-helpers/reference.ts through a helper's re-export.
    expect(reach('test/integration/conform.test.ts')).toContain('@agent-contracts/reference-node');
    // examples/legacy-shaped/impl.mjs starts the reference behind examples/broken/lib/shim.mjs.
    expect(reach('test/integration/legacy-shaped.test.ts')).toContain('@agent-contracts/reference-node');
    // runCli starts packages/cli/src/bin.ts.
    expect(reach('test/integration/reference-conform.test.ts')).toContain('@agent-contracts/cli');
    // The CLI's helpers.ts re-exports REFERENCE too; a file that imports other names from it does
    // not reach the reference, and its own package is no reach.
    expect(reach('packages/cli/test/matrix.test.ts')).toEqual(['@agent-contracts/harness']);
    expect(packages.map((p) => p.name)).toContain('@agent-contracts/reference-node');
  });

  it('the projects hold every file exactly once, slow ones in `slow`', () => {
    const projects = projectFiles(root);
    expect(Object.keys(projects).sort()).toEqual([...PROJECTS].sort());
    expect(Object.values(projects).flat().sort()).toEqual(files);
    for (const f of projects.slow) expect(tagsOf(source(f))).toContain('slow');
    for (const f of [...projects.unit, ...projects.integration])
      expect(tagsOf(source(f))).not.toContain('slow');
    expect(projects.unit.length).toBeGreaterThan(0);
    expect(projects.integration.length).toBeGreaterThan(0);
  });

  it('reads tags as vitest does: `//` or `*` before the word, any number', () => {
    // Spelled in pieces: vitest reads the tags of this file from its text, anywhere in it.
    const tag = (name: string) => `@${'module-tag'} ${name}`;
    expect(tagsOf(`// ${tag('integration')}\n/** ${tag('slow')} */\n`)).toEqual(['integration', 'slow']);
    expect(tagsOf(`const s = "${tag('unit')}";`)).toEqual([]);
    expect(projectOf(['unit', 'integration'])).toBeNull();
    expect(projectOf(['slow'])).toBeNull();
    expect(projectOf(['integration', 'slow'])).toBe('slow');
    expect(projectOf(['unit'])).toBe('unit');
  });
});
