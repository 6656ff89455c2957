// @module-tag integration
// @module-tag slow
// The kit as a user gets it: every package packed (prepack builds it), linted as a registry
// would receive it (publint, attw), the CLI installed with npm into a fresh project outside this
// repository as `npm install --save-dev @agent-contracts/cli` installs it (that install's size is
// held to its target), and run from there: conform against examples/python-digest, validate,
// report, schema-diff. Then the example CI workflow (examples/ci/agent-contracts.yml) runs its
// `run:` steps as written in that project, so neither the packages nor the recipe can rot.
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitIn } from './helpers/git.js';
import {
  closureOf,
  type InstallSize,
  installedPackages,
  installProject,
  installSize,
  NPM_ENV,
  packAll,
  type Run,
  repoRoot,
  run,
  runInBackground,
  unpackPackage,
} from './helpers/packed-project.js';
import { runWorkflow, type StepResult } from './helpers/workflow.js';

const work = mkdtempSync(join(tmpdir(), 'agent-contracts-installed-'));
const project = join(work, 'project');
const impl = join(repoRoot, 'examples/python-digest/impl.py');
const kit = join(project, 'node_modules/@agent-contracts/kit/conformance');
let tarballs: string[] = [];
const npx = (...args: string[]) => run('npx', ['--no-install', 'agent-contracts', ...args], project, NPM_ENV);

const git = gitIn(() => project);

/** The project's own published schema, edited in place: a description or a new required field. */
function editSchema(change: 'editorial' | 'breaking'): void {
  const file = join(project, 'schemas/IntentSeedV1.schema.json');
  const schema = JSON.parse(readFileSync(file, 'utf8'));
  if (change === 'editorial') schema.description = `${schema.description ?? ''} (reworded)`;
  else {
    schema.properties.reviewer = { type: 'string', description: 'Who reviewed the seed.' };
    schema.required = [...schema.required, 'reviewer'];
  }
  writeFileSync(file, `${JSON.stringify(schema, null, 2)}\n`);
}

let lint: Promise<Run>;
/** What the install put into the project's node_modules, measured before anything ran there. */
let size: InstallSize;
/** A directory with the published schemas package, unpacked as npm lays it out (no dependency of the CLI). */
const schemasProject = join(work, 'schemas-package');
let schemasPackage: string;

beforeAll(() => {
  tarballs = packAll(join(work, 'packs'));
  // The tarball lint needs no install: it runs while the project is set up and the CLI runs.
  lint = runInBackground(
    process.execPath,
    [join(repoRoot, 'scripts/lint-packages.mjs'), join(work, 'packs')],
    repoRoot,
    join(work, 'lint'),
  );
  mkdirSync(project);
  // What `npm install --save-dev @agent-contracts/cli` fetches: the CLI and the workspace packages
  // it depends on, nothing else, so every command below runs with only what a user has (the store,
  // better-sqlite3 and pg included: the CLI must not need them).
  installProject(project, closureOf('@agent-contracts/cli', tarballs));
  size = installSize(project);
  schemasPackage = unpackPackage(
    schemasProject,
    tarballs.find((t) => /\/agent-contracts-schemas-\d/.test(t))!,
  );
  // What the example workflow expects in the repository under test.
  cpSync(impl, join(project, 'impl.py'));
  writeFileSync(join(project, 'conformance-baseline.json'), '{ "expectedFailures": [] }\n');
  mkdirSync(join(project, 'schemas'));
  cpSync(
    join(repoRoot, 'schemas/contracts/IntentSeedV1.schema.json'),
    join(project, 'schemas/IntentSeedV1.schema.json'),
  );
  mkdirSync(join(project, '.github/workflows'), { recursive: true });
  cpSync(
    join(repoRoot, 'examples/ci/agent-contracts.yml'),
    join(project, '.github/workflows/agent-contracts.yml'),
  );
  writeFileSync(join(project, '.gitignore'), 'node_modules/\nreports/\n');
  git('init', '--quiet', '--initial-branch=main');
  git('add', '-A');
  git('commit', '--quiet', '-m', 'release 1.0.0');
  git('tag', 'v1.0.0');
  editSchema('editorial');
  git('commit', '--quiet', '-am', 'reword a description');
}, 600_000);

// The project holds thousands of installed files: removing them outlasts the default hook timeout.
afterAll(() => rmSync(work, { recursive: true, force: true }), 120_000);

describe('the packed packages', () => {
  it('are every package of packages/', () => {
    const names = readdirSync(join(repoRoot, 'packages')).filter(
      (d) => JSON.parse(readFileSync(join(repoRoot, 'packages', d, 'package.json'), 'utf8')).private !== true,
    );
    expect(
      tarballs
        .map((t) =>
          t
            .split('/')
            .pop()
            ?.replace(/-\d+\.\d+\.\d+\.tgz$/, ''),
        )
        .sort(),
    ).toEqual(names.map((n) => `agent-contracts-${n}`).sort());
  });
});

// What `npm install --save-dev @agent-contracts/cli` installs, without PostgreSQL: the CLI is one
// bundle that brings its code with it (the OpenTelemetry exporter included), and the kit's data.
// docs/cli.md and bench/README.md record the figures; the target is 30 MB (issue 24).
describe('installed with npm into a fresh project', () => {
  const TARGET_BYTES = 30_000_000;

  it(`is the CLI and the kit, no store, no native module, no pg, no OpenTelemetry package, within ${TARGET_BYTES / 1e6} MB`, () => {
    const installed = installedPackages(project);
    expect(installed.sort()).toEqual(['@agent-contracts/cli', '@agent-contracts/kit']);
    expect(installed).not.toContain('@agent-contracts/store');
    expect(installed).not.toContain('better-sqlite3');
    // pg is an optional peer dependency: only PostgreSQL users add it.
    expect(installed).not.toContain('pg');
    expect(existsSync(join(kit, 'cases'))).toBe(true);
    expect(size.packages).toBe(2);
    expect(size.bytes).toBeLessThanOrEqual(TARGET_BYTES);
    // The notices of the third-party code the bundle copies travel with it.
    const notices = readFileSync(
      join(project, 'node_modules/@agent-contracts/cli/dist/THIRD_PARTY_LICENSES.txt'),
      'utf8',
    );
    expect(notices).toContain('@opentelemetry/api@');
    expect(notices).toContain('Apache License');
  });

  it('conform finds the kit by package resolution and python-digest conforms', () => {
    const r = npx('conform', '--impl', `python3 ${impl}`, '--report', join(work, 'run.jsonl'));
    expect(r.stderr).not.toContain('USAGE_BAD_VALUE');
    expect(r.stdout).toContain('CONFORMS');
    const jcs = JSON.parse(readFileSync(join(repoRoot, 'conformance/vectors/jcs.json'), 'utf8')).vectors
      .length;
    expect(jcs).toBeGreaterThan(40);
    expect(r.stdout).toMatch(new RegExp(`jcs\\s+${jcs}/${jcs}\\b`));
    expect(r.status).toBe(0);
    // What did not apply is no progress mark: one line per capability it does not declare.
    expect(r.stderr).toMatch(/^ {2}not-applicable +\d+ cases: capability "store" not declared/m);
    expect(r.stderr).toMatch(
      /^ {2}not-applicable +\d+ cases: capability "contracts" does not list what they need/m,
    );
    expect(r.stderr).not.toMatch(/^[.FETCH]*-/m);
    // The verdict is scoped to what it declared, on the console and in the report's summary line.
    const lines = readFileSync(join(work, 'run.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const total = lines.filter((l) => l.type === 'case').length;
    expect(r.stdout).toContain(`\nCONFORMS: digest; ${jcs} of ${total} cases applicable\n`);
    expect(lines.at(-1).scope).toEqual({ capabilities: ['digest'], applicable: jcs, total });
  });

  it('conform --conformance still overrides, and an empty directory is CASES_INVALID', () => {
    const empty = join(work, 'no-cases');
    mkdirSync(empty, { recursive: true });
    const r = npx('conform', '--impl', `python3 ${impl}`, '--conformance', empty);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('CASES_INVALID');
    expect(r.stderr).toContain('holds no cases');
  });

  it('validate judges a fixture of the installed kit, the invalid one by its rule', () => {
    const valid = join(kit, 'fixtures/IntentSeedV1/valid/audit-high-risk.json');
    expect(npx('validate', valid).status).toBe(0);
    const invalid = npx('validate', join(kit, 'fixtures/IntentSeedV1/invalid/confidence-above-one.json'));
    expect(invalid.status).toBe(1);
    expect(invalid.stdout).toContain('SCHEMA_MAXIMUM at /confidence');
  });

  it('report --format html renders the run', () => {
    const r = npx('report', '--format', 'html', join(work, 'run.jsonl'));
    expect(r.status).toBe(0);
    expect(r.stdout.startsWith('<!doctype html>')).toBe(true);
    expect(r.stdout).toContain('python-digest');
    expect(r.stdout).toMatch(/>conforms: digest; \d+ of \d+ cases applicable</);
    // The requirement catalogue is the installed kit's.
    expect(r.stdout).toMatch(/Requirement coverage: <strong>\d+\/\d+<\/strong>/);
  });

  it('matrix shows the requirement coverage of the installed kit', () => {
    const r = npx('matrix', '--format', 'markdown', join(work, 'run.jsonl'));
    expect(r.stderr).not.toContain('agent-contracts:');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/requirements \d+\/\d+/);
  });

  it('conform --state-url without pg installed: PG_NOT_INSTALLED, naming the package to add', () => {
    const r = npx(
      'conform',
      '--impl',
      `python3 ${impl}`,
      '--state-url',
      'postgres://user:pw@127.0.0.1:9/db',
      '--filter',
      'faults/field/pg-connections-dropped',
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('agent-contracts: PG_NOT_INSTALLED: ');
    expect(r.stderr).toContain('npm install pg@8');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('schema-diff classifies against the published schemas, which resolve by $id', () => {
    const installed = join(schemasPackage, 'schemas/contracts');
    const r = npx('schema-diff', join(installed, 'IntentSeedV1.schema.json'), join(project, 'schemas'));
    expect(r.stdout).toContain('1 editorial');
    expect(r.status).toBe(0);
    // A $id https://agent-contracts.dev/<path> is <path> of the package, through its exports map.
    const resolveIds = `
      import { readdirSync, readFileSync } from 'node:fs';
      import { createRequire } from 'node:module';
      const require = createRequire(process.cwd() + '/');
      const dir = 'node_modules/@agent-contracts/schemas/schemas/contracts';
      let n = 0;
      for (const f of readdirSync(dir)) {
        const id = JSON.parse(readFileSync(dir + '/' + f, 'utf8')).$id;
        const file = require.resolve('@agent-contracts/schemas/' + id.replace('https://agent-contracts.dev/', ''));
        if (JSON.parse(readFileSync(file, 'utf8')).$id !== id) throw new Error(id);
        n++;
      }
      console.log(n + ' resolved');`;
    const resolved = run(process.execPath, ['--input-type=module', '-e', resolveIds], schemasProject);
    expect(resolved.stderr).toBe('');
    expect(resolved.stdout).toMatch(/^(\d+) resolved/);
    expect(Number.parseInt(resolved.stdout, 10)).toBe(readdirSync(installed).length);
  });
});

describe('examples/ci/agent-contracts.yml, run as written in that project', () => {
  // NODE_PATH emptied: pnpm's bin shims set it to this repository's packages.
  const env = { ...NPM_ENV, PATH: process.env.PATH ?? '', NODE_PATH: '' };
  const failures = (results: StepResult[]) =>
    results.filter((s) => s.status === 'failed').map((s) => `${s.job} / ${s.step}: ${s.status}\n${s.output}`);
  /** The steps that did not run, as `job / step`. */
  const skipped = (results: StepResult[]) =>
    results.filter((s) => s.status === 'skipped').map((s) => `${s.job} / ${s.step.split('\n')[0]}`);

  const workflowFile = join(project, '.github/workflows/agent-contracts.yml');
  const artifacts = join(work, 'artifacts');
  const out = (results: StepResult[], job: string, step: string) =>
    results.find((s) => s.job === job && s.step.startsWith(step))?.output ?? '';
  /** The applicable counts of the two shards' verdict lines. */
  const applicable = (results: StepResult[]) =>
    ['conform (1)', 'conform (2)'].map((job) => {
      const m = /^(?:CONFORMS|NO VERDICT .*): digest; (\d+) of \d+ cases applicable$/m.exec(
        out(results, job, 'conform'),
      );
      expect(m, job).not.toBeNull();
      return Number(m![1]);
    });

  it('every job passes on a push: schema gate, two conform shards with a baseline, JUnit check run and HTML', () => {
    const results = runWorkflow(workflowFile, { repository: project, env, artifacts });
    expect(failures(results)).toEqual([]);
    // With schemas/, only the step that says there are none is skipped.
    expect(skipped(results)).toEqual(['schemas / no schemas/ in this repository']);
    const jobs = new Set(results.map((s) => s.job));
    expect([...jobs]).toEqual(['schemas', 'conform (1)', 'conform (2)', 'report']);
    expect(out(results, 'schemas', 'schema-diff')).toContain('1 editorial');
    expect(out(results, 'conform (1)', 'JUnit')).toContain('|');
    // The JUnit files hold the applicable cases, none of the not-applicable ones as skipped.
    const [one, two] = applicable(results);
    expect(out(results, 'report', 'mikepenz/action-junit-report')).toBe(
      `read 2 JUnit files: ${one! + two!} tests, 0 skipped; check run created`,
    );
    expect(out(results, 'report', 'actions/upload-artifact')).toBe(
      'uploaded conformance.html as conformance-html',
    );
    // Every run: step ran as the recipe's defaults.run.shell says.
    const shells = new Set(results.filter((s) => s.shell !== undefined).map((s) => s.shell));
    expect([...shells]).toEqual(['bash --noprofile --norc -eo pipefail {0}']);
  }, 300_000);

  it('the report job on a pull request from a fork (read-only token) annotates and passes', () => {
    const results = runWorkflow(workflowFile, {
      repository: project,
      env,
      artifacts,
      only: ['report'],
      event: { name: 'pull_request', fork: true },
    });
    expect(failures(results)).toEqual([]);
    expect(skipped(results)).toEqual([]);
    expect(out(results, 'report', 'mikepenz/action-junit-report')).toMatch(
      /^read 2 JUnit files: \d+ tests, 0 skipped; annotations only, no check run$/,
    );
  }, 300_000);

  it('in a repository without schemas/ (with a v1.0.0 tag) every job passes; the schema job only checks out', () => {
    const bare = join(work, 'no-schemas');
    gitIn(() => work)('clone', '--quiet', project, bare);
    const gitBare = gitIn(() => bare);
    gitBare('rm', '--quiet', '-r', 'schemas');
    gitBare('commit', '--quiet', '-m', 'no schemas of our own');
    expect(gitBare('tag', '--list')).toBe('v1.0.0\n');
    const results = runWorkflow(join(bare, '.github/workflows/agent-contracts.yml'), {
      repository: bare,
      env,
    });
    expect(results.filter((s) => s.status === 'failed')).toEqual([]);
    expect(
      results.filter((s) => s.job === 'schemas').map((s) => `${s.step.split('\n')[0]}: ${s.status}`),
    ).toEqual([
      'actions/checkout@v4: ok',
      'no schemas/ in this repository: ok',
      'actions/setup-node@v4: skipped',
      'npm ci: skipped',
      'schema-diff against the last release tag: skipped',
    ]);
    expect(results.filter((s) => s.job !== 'schemas' && s.status !== 'ok')).toEqual([]);
    expect([...new Set(results.map((s) => s.job))]).toEqual([
      'schemas',
      'conform (1)',
      'conform (2)',
      'report',
    ]);
  }, 300_000);

  it('the schema gate fails a breaking change to a released schema', () => {
    editSchema('breaking');
    git('commit', '--quiet', '-am', 'a new required property');
    const results = runWorkflow(workflowFile, {
      repository: project,
      env,
      only: ['schemas'],
    });
    const gate = results.find((s) => s.step.startsWith('schema-diff'));
    expect(gate?.status).toBe('failed');
    expect(gate?.output).toContain('breaking');
    expect(gate?.output).toContain('/required');
  }, 300_000);
});

// Last, so that the lint has run beside everything above.
describe('the tarballs, linted as a registry receives them', () => {
  it('pass publint, attw and the content checks (LICENSE, no workspace: range, maps with sources)', async () => {
    const r = await lint;
    expect(r.stdout + r.stderr).toMatch(/\d+ packages: \d+ ok, 0 failing/);
    expect(r.status).toBe(0);
  }, 300_000);
});

describe('mutants as an installed project meets it (issue 24, item 8)', () => {
  it('without a directory: USAGE_MISSING_ARGUMENT and what to give, not a path inside node_modules', () => {
    const r = npx('mutants');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('USAGE_MISSING_ARGUMENT');
    expect(r.stderr).toContain('agent-contracts mutants <dir>');
    expect(r.stderr).toMatch(
      /node_modules\/@agent-contracts\/kit\/docs\/conformance-quality\.md#the-manifest/,
    );
    expect(r.stderr).not.toContain('INPUT_NOT_FOUND');
  });

  it("a user's directory with a broken OpenTelemetry checker in plain JavaScript is judged and caught", () => {
    const dir = join(project, 'broken', 'otel-drops-every-issue');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'checker.mjs'),
      [
        '// The reference checker, but every run passes.',
        'export function check(requests, reference) {',
        '  const verdict = reference.checkRequests(requests);',
        '  return { ...verdict, runs: verdict.runs.map((r) => ({ ...r, ok: true, issues: [] })) };',
        '}',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'mutant.json'),
      JSON.stringify({
        capability: 'otel',
        rule: 'a run that breaks a mapping rule fails',
        spec: 'docs/spec/opentelemetry-mapping.md#mapping-rules',
        cases: ['otel/broken/tool-without-end'],
        impl: 'checker.mjs',
      }),
    );
    const r = npx('mutants', 'broken');
    expect(r.stdout, r.stderr).toMatch(/^CAUGHT +otel-drops-every-issue +otel /m);
    expect(r.stdout).toContain('caught by: otel/broken/tool-without-end');
    expect(r.stdout).toContain('mutation score: 1/1 caught (100%)');
    expect(r.status).toBe(0);
  });
});

describe('the docs as an installed project meets them (issue 24, part A)', () => {
  const installedDocs = join(project, 'node_modules/@agent-contracts/kit/docs');

  it('the kit installs docs/, and docs prints paths of pages that exist there', () => {
    for (const page of ['protocol.md', 'cli.md', 'coverage.md', 'spec/index.md'])
      expect(existsSync(join(installedDocs, page)), page).toBe(true);
    const list = npx('docs');
    expect(list.status).toBe(0);
    expect(list.stdout).toMatch(/^ {2}protocol +Conformance protocol, version 1$/m);
    const where = npx('docs', 'protocol#hello');
    expect(where.status).toBe(0);
    const printed = where.stdout.trim();
    expect(printed).toMatch(/node_modules\/@agent-contracts\/kit\/docs\/protocol\.md#hello$/);
    expect(existsSync(join(project, printed.split('#')[0]!))).toBe(true);
    expect(npx('docs', 'cli', '--print').stdout).toBe(readFileSync(join(installedDocs, 'cli.md'), 'utf8'));
  });

  it('the CI recipe docs/ci-gating.md links to ships beside the docs, as the link says', () => {
    const gating = readFileSync(join(installedDocs, 'ci-gating.md'), 'utf8');
    expect(gating).toContain('(../examples/ci/agent-contracts.yml)');
    const recipe = join(installedDocs, '../examples/ci/agent-contracts.yml');
    expect(readFileSync(recipe, 'utf8')).toBe(
      readFileSync(join(repoRoot, 'examples/ci/agent-contracts.yml'), 'utf8'),
    );
  });

  it('every docs/ path a help prints resolves from the project', () => {
    for (const args of [['--help'], ['conform', '--help'], ['explain', '--help']]) {
      const out = npx(...args).stdout;
      expect(out).not.toContain('github.com/agent-contracts');
      expect(out, args.join(' ')).toContain('node_modules/@agent-contracts/kit/docs/');
      for (const m of out.matchAll(/(?:^|[\s(])((?:\S*\/)?docs\/[\w./-]+\.md)/g))
        expect(existsSync(join(project, m[1]!.replace(/^\(/, ''))), `${args.join(' ')}: ${m[1]}`).toBe(true);
    }
  });

  it('explain shows a case with its requirement sentences and the installed spec page', () => {
    const r = npx('explain', 'digest/jcs/jcs-negative-zero');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('step 1: ');
    expect(r.stdout).toMatch(/spec: node_modules\/@agent-contracts\/kit\/docs\/spec\/index\.md#/);
    const unknown = npx('explain', 'digest/jcs/jcs-negative-zer');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('CASE_UNKNOWN');
  });
});

describe('a run as an installed project meets it (issue 24, parts B, C and F)', () => {
  /** Every docs/ path in `text` (a path the CLI printed), checked to exist from the project. */
  const docPaths = (text: string) =>
    [...text.matchAll(/(?:^|[\s("'])((?:\S*\/)?docs\/[\w./-]+\.md)/g)].map((m) => m[1]!.replace(/^\(/, ''));

  it('a start that fails: no mark per case, the reason and its stderr in the report, every printed path resolves', () => {
    const report = join(work, 'no-start.jsonl');
    const r = npx('conform', '--impl', 'node nope.js', '--report', report);
    expect(r.status).toBe(1);
    expect(r.stderr).not.toMatch(/EEEE|Golden cases|Fault matrix/);
    expect(r.stderr).toContain('The implementation could not be started: IMPL_EXITED');
    const items = readFileSync(report, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((l) => l.type === 'case');
    expect(items.length).toBeGreaterThan(1000);
    for (const l of items) {
      expect(l.outcome).toBe('error');
      expect(l.stderrTail).toContain('Cannot find module');
    }
    const printed = docPaths(r.stdout + r.stderr);
    expect(printed.length).toBeGreaterThan(0);
    for (const p of printed) expect(existsSync(resolve(project, p)), p).toBe(true);
  });

  it('the paths a conforming run prints resolve from the project', () => {
    const r = npx('conform', '--impl', `python3 ${impl}`, '--no-faults');
    expect(r.status).toBe(0);
    const printed = docPaths(r.stdout + r.stderr);
    expect(printed).toContain('node_modules/@agent-contracts/kit/docs/coverage.md');
    for (const p of printed) expect(existsSync(resolve(project, p)), p).toBe(true);
  });

  it('baseline update refuses a report cut to 5 lines and leaves the baseline byte for byte', () => {
    const cut = join(work, 'cut.jsonl');
    writeFileSync(
      cut,
      `${readFileSync(join(work, 'run.jsonl'), 'utf8').split('\n').slice(0, 5).join('\n')}\n`,
    );
    const out = join(work, 'three.json');
    const before = `${JSON.stringify(
      {
        expectedFailures: ['a', 'b', 'c'].map((x) => ({ id: `digest/jcs/${x}`, reason: `kept ${x}` })),
      },
      null,
      2,
    )}\n`;
    writeFileSync(out, before);
    const r = npx('baseline', 'update', '--report', cut, '--out', out);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('REPORT_INCOMPLETE');
    expect(r.stderr).toContain('is unchanged');
    expect(r.stdout).not.toContain('wrote');
    expect(readFileSync(out, 'utf8')).toBe(before);
  });

  it('conform --wire --wire-all records every message of the run beside the report', () => {
    const wire = join(work, 'wire.jsonl');
    const r = npx(
      'conform',
      '--impl',
      `python3 ${impl}`,
      '--no-faults',
      '--filter',
      'digest/jcs/*',
      '--wire',
      wire,
      '--wire-all',
    );
    expect(r.status).toBe(0);
    const lines = readFileSync(wire, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ type: 'wire', wireVersion: 1, recorded: 'all' });
    const messages = lines.filter((l) => l.type === 'message');
    const item = messages.find((m) => m.item === 'digest/jcs/jcs-negative-zero' && m.direction === 'sent');
    expect(JSON.parse(item.text)).toMatchObject({ jsonrpc: '2.0', method: 'digest' });
    expect(
      messages.some((m) => m.item === 'digest/jcs/jcs-negative-zero' && m.direction === 'received'),
    ).toBe(true);
    expect(messages.some((m) => m.item === null && m.text.includes('"hello"'))).toBe(true);
  });
});
