// @module-tag integration
// @module-tag slow
// The CI recipe (examples/ci/agent-contracts.yml) as a user copies it into a repository of their
// own, run by test/publish/helpers/workflow.ts: in a repository without schemas/ but with a
// release tag (the schema job ends after its checkout, green), with schemas/ newer than the tag,
// and with schemas/ released (schema-diff classifies, a breaking edit fails). The CLI is this
// repository's (the test run's bundle of it, tooling/test-helpers/run-cli.ts), installed by
// `npm ci` as a local package: test/publish/installed.test.ts runs the whole recipe against the
// packed tarballs. Also: every `run:` step runs with the shell the recipe sets, and the JUnit
// step publishes on a push, on a pull request and on one from a fork.
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { cliEntry } from '../../tooling/test-helpers/run-cli.ts';
import { gitIn } from './helpers/git.js';
import { NPM_ENV, repoRoot, run } from './helpers/packed-project.js';
import { runWorkflow, type StepResult, type WorkflowEvent } from './helpers/workflow.js';

const recipe = join(repoRoot, 'examples/ci/agent-contracts.yml');
const work = mkdtempSync(join(tmpdir(), 'agent-contracts-ci-recipe-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const env = { ...NPM_ENV, PATH: process.env.PATH ?? '' };
const PIPEFAIL = 'bash --noprofile --norc -eo pipefail {0}';
let repos = 0;

/**
 * A fresh git repository with the recipe in .github/workflows/: `files` committed and tagged
 * v1.0.0, then `after` committed on top. With `cli`, a package.json whose one devDependency is
 * this repository's CLI as a local package, installed once so that package-lock.json exists.
 */
function repository(options: {
  cli: boolean;
  files?: Record<string, string>;
  after?: Record<string, string>;
}): string {
  const dir = join(work, `repo-${++repos}`);
  mkdirSync(join(dir, '.github/workflows'), { recursive: true });
  cpSync(recipe, join(dir, '.github/workflows/agent-contracts.yml'));
  writeFileSync(join(dir, '.gitignore'), 'node_modules/\nreports/\n');
  if (options.cli) {
    mkdirSync(join(dir, 'tools/cli'), { recursive: true });
    const entry = [process.execPath, ...cliEntry()].map((a) => `'${a}'`).join(' ');
    writeFileSync(join(dir, 'tools/cli/agent-contracts'), `#!/bin/sh\nexec ${entry} "$@"\n`);
    chmodSync(join(dir, 'tools/cli/agent-contracts'), 0o755);
    writeFileSync(
      join(dir, 'tools/cli/package.json'),
      JSON.stringify({
        name: 'cli-under-test',
        version: '0.0.0',
        bin: { 'agent-contracts': 'agent-contracts' },
      }),
    );
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({
        name: 'runtime',
        private: true,
        devDependencies: { 'cli-under-test': 'file:tools/cli' },
      }),
    );
    const npm = run('npm', ['install', '--offline'], dir, NPM_ENV);
    if (npm.status !== 0) throw new Error(`npm install: ${npm.stderr}`);
  }
  const write = (files: Record<string, string>) => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
  };
  const git = gitIn(() => dir);
  git('init', '--quiet', '--initial-branch=main');
  write(options.files ?? {});
  git('add', '-A');
  git('commit', '--quiet', '-m', 'release 1.0.0');
  git('tag', 'v1.0.0');
  if (options.after) {
    write(options.after);
    git('add', '-A');
    git('commit', '--quiet', '-m', 'after the release');
  }
  return dir;
}

function schemasJob(
  dir: string,
  workflow = join(dir, '.github/workflows/agent-contracts.yml'),
): StepResult[] {
  return runWorkflow(workflow, { repository: dir, env, only: ['schemas'] });
}

const step = (results: StepResult[], name: string) => {
  const found = results.find((s) => s.step.startsWith(name));
  if (!found) throw new Error(`no step ${name} in ${results.map((s) => s.step).join(', ')}`);
  return found;
};
const statuses = (results: StepResult[]) => results.map((s) => `${s.step.split('\n')[0]}: ${s.status}`);

const released = JSON.parse(
  readFileSync(join(repoRoot, 'schemas/contracts/IntentSeedV1.schema.json'), 'utf8'),
);
const schemaFile = (schema: object) => ({
  'schemas/IntentSeedV1.schema.json': `${JSON.stringify(schema, null, 2)}\n`,
});

/** A workflow file outside any repository: `runWorkflow` reads it, every job clones the repository. */
function workflowFile(text: string): string {
  const file = join(work, `workflow-${++repos}.yml`);
  writeFileSync(file, text);
  return file;
}

/** Made once, on first use: a repository that `make` builds. */
function once(make: () => string): () => string {
  let dir: string | undefined;
  return () => {
    dir ??= make();
    return dir;
  };
}

const withoutSchemas = once(() => repository({ cli: true, files: { 'impl.py': 'print()\n' } }));
const schemasSinceTag = once(() => repository({ cli: true, after: schemaFile(released) }));

describe('the schemas job of the recipe', () => {
  it('in a repository without schemas/ and with a v1.0.0 tag: checks out, says so, skips the rest, passes', () => {
    const results = schemasJob(withoutSchemas());
    expect(statuses(results)).toEqual([
      'actions/checkout@v4: ok',
      'no schemas/ in this repository: ok',
      'actions/setup-node@v4: skipped',
      'npm ci: skipped',
      'schema-diff against the last release tag: skipped',
    ]);
    expect(step(results, 'no schemas/').output).toBe('no schemas/ in this repository: no schema to gate\n');
    expect(step(results, 'schema-diff').output).toBe("if: hashFiles('schemas/**') != '' was false");
  }, 240_000);

  it('without those conditions the steps run there, and without the tag check fail as issue 24 found (so the test above can fail)', () => {
    const unguarded = readFileSync(recipe, 'utf8').replace(
      /^ *if: hashFiles\('schemas\/\*\*'\) != ''\n/gm,
      '',
    );
    expect(unguarded).not.toContain("!= ''");
    const ran = schemasJob(withoutSchemas(), workflowFile(unguarded));
    expect(statuses(ran).slice(2)).toEqual([
      'actions/setup-node@v4: ok',
      'npm ci: ok',
      'schema-diff against the last release tag: ok',
    ]);
    expect(step(ran, 'schema-diff').output).toContain('v1.0.0 has no schemas/');
    const untagged = unguarded.replace(/^ *if ! git cat-file [^\n]*\n[^\n]*\n[^\n]*\n *fi\n/m, '');
    expect(untagged).not.toContain('git cat-file');
    const failed = schemasJob(withoutSchemas(), workflowFile(untagged));
    expect(step(failed, 'schema-diff').status).toBe('failed');
    expect(step(failed, 'schema-diff').output).toContain("fatal: pathspec 'schemas' did not match any files");
  }, 240_000);

  it('with schemas/ newer than the tag: the job runs, and says the tag has none to compare', () => {
    const results = schemasJob(schemasSinceTag());
    expect(statuses(results)).toEqual([
      'actions/checkout@v4: ok',
      'no schemas/ in this repository: skipped',
      'actions/setup-node@v4: ok',
      'npm ci: ok',
      'schema-diff against the last release tag: ok',
    ]);
    expect(step(results, 'schema-diff').output).toBe(
      'v1.0.0 has no schemas/: every schema is new since it, nothing to compare against\n',
    );
    // Every run: step ran as the recipe's defaults.run.shell says.
    const ran = results.filter((s) => s.shell !== undefined);
    expect(ran.map((s) => s.step.split('\n')[0])).toEqual([
      'npm ci',
      'schema-diff against the last release tag',
    ]);
    for (const s of ran) expect(s.shell, s.step).toBe(PIPEFAIL);
  }, 240_000);

  it('with schemas/ in the tag: schema-diff classifies against it; a breaking edit fails the job', () => {
    const editorial = { ...released, description: `${released.description ?? ''} (reworded)` };
    const dir = repository({ cli: true, files: schemaFile(released), after: schemaFile(editorial) });
    const ok = schemasJob(dir);
    expect(step(ok, 'schema-diff').status).toBe('ok');
    expect(step(ok, 'schema-diff').output).toContain('1 editorial');
    const breaking = {
      ...released,
      properties: { ...released.properties, reviewer: { type: 'string' } },
      required: [...released.required, 'reviewer'],
    };
    writeFileSync(
      join(dir, 'schemas/IntentSeedV1.schema.json'),
      schemaFile(breaking)['schemas/IntentSeedV1.schema.json'],
    );
    gitIn(() => dir)('commit', '--quiet', '-am', 'a new required property');
    const bad = schemasJob(dir);
    expect(step(bad, 'schema-diff').status).toBe('failed');
    expect(step(bad, 'schema-diff').output).toContain('breaking');
  }, 240_000);
});

describe('the shell of the recipe', () => {
  it('is set: defaults.run.shell: bash', () => {
    expect(parse(readFileSync(recipe, 'utf8')).defaults).toEqual({ run: { shell: 'bash' } });
  });

  it('the runner honours it: a failing command inside a pipe fails only under shell: bash', () => {
    const job = (defaults?: object) =>
      stringify({
        on: { push: null },
        ...(defaults ? { defaults } : {}),
        jobs: {
          pipe: { 'runs-on': 'ubuntu-latest', steps: [{ name: 'pipe', run: 'false | cat\necho after\n' }] },
        },
      });
    const piped = runWorkflow(workflowFile(job({ run: { shell: 'bash' } })), { repository: bare(), env });
    expect(piped.map((s) => [s.status, s.shell])).toEqual([['failed', PIPEFAIL]]);
    // GitHub's default without shell: `bash -e {0}`, no pipefail: the pipe's status is cat's.
    const plain = runWorkflow(workflowFile(job()), { repository: bare(), env });
    expect(plain.map((s) => [s.status, s.shell, s.output])).toEqual([['ok', 'bash -e {0}', 'after\n']]);
  });
});

const bare = once(() => repository({ cli: false }));

describe('the JUnit step of the recipe on pushes and pull requests', () => {
  // The recipe's report job with its own permissions and JUnit step; the steps before it
  // (which download the shards' artifacts) replaced by one that writes a JUnit file.
  const workflow = parse(readFileSync(recipe, 'utf8'));
  const junitStep = workflow.jobs.report.steps.find((s: { uses?: string }) =>
    s.uses?.startsWith('mikepenz/action-junit-report'),
  );
  const reportJob = (junit: object) =>
    stringify({
      on: workflow.on,
      defaults: workflow.defaults,
      jobs: {
        report: {
          'runs-on': 'ubuntu-latest',
          permissions: workflow.jobs.report.permissions,
          steps: [
            {
              name: 'a JUnit file',
              run: 'mkdir -p reports\necho \'<testsuites tests="1"><testsuite name="s" tests="1"><testcase name="c"/></testsuite></testsuites>\' > reports/junit-1.xml\n',
            },
            junit,
          ],
        },
      },
    });
  const publish = (junit: object, event: WorkflowEvent) => {
    const file = workflowFile(reportJob(junit));
    return step(runWorkflow(file, { repository: bare(), env, event }), 'mikepenz/action-junit-report');
  };

  it('a push and a pull request from the same repository get a check run', () => {
    expect(workflow.jobs.report.permissions).toEqual({ contents: 'read', checks: 'write' });
    for (const event of [{ name: 'push' }, { name: 'pull_request', fork: false }] as const) {
      const r = publish(junitStep, event);
      expect([r.status, r.output], event.name).toEqual([
        'ok',
        'read 1 JUnit files: 1 tests, 0 skipped; check run created',
      ]);
    }
  });

  it('a pull request from a fork (a read-only token) gets annotations, and the step passes', () => {
    const r = publish(junitStep, { name: 'pull_request', fork: true });
    expect([r.status, r.output]).toEqual([
      'ok',
      'read 1 JUnit files: 1 tests, 0 skipped; annotations only, no check run',
    ]);
  });

  it('without annotate_only the same step fails on a fork (so the test above can fail)', () => {
    const { annotate_only: _, ...rest } = junitStep.with;
    const r = publish({ ...junitStep, with: rest }, { name: 'pull_request', fork: true });
    expect(r.status).toBe('failed');
    expect(r.output).toContain('Resource not accessible by integration (403)');
  });
});

describe('the workflow runner refuses what it does not emulate', () => {
  it('an unknown step key, context or shell', () => {
    const dir = repository({ cli: false });
    const one = (stepDef: object) => {
      const file = join(dir, `w-${Math.random().toString(36).slice(2)}.yml`);
      writeFileSync(
        file,
        stringify({ on: { push: null }, jobs: { j: { 'runs-on': 'x', steps: [stepDef] } } }),
      );
      return () => runWorkflow(file, { repository: dir, env });
    };
    expect(one({ run: 'true', 'continue-on-error': true })).toThrow(/key continue-on-error is not emulated/);
    expect(one({ run: `echo $\{{ secrets.TOKEN }}` })).toThrow(/expression secrets\.TOKEN/);
    expect(one({ run: 'true', shell: 'pwsh' })).toThrow(/shell pwsh is not emulated/);
  });
});
