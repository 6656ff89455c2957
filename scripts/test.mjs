#!/usr/bin/env node
// The one test command (README, CI): every generated-artifact check, lint, typecheck and the
// vitest suite. Ends with a plain "N passed, N failed" line; exits 1 when anything failed.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// docs/compatibility.md's check runs the three implementations of this repository through the
// whole kit; it leaves their reports here, and the tests of those implementations read them
// instead of running the same implementation again (AGENT_CONTRACTS_COMPAT_REPORTS).
const compatReports = mkdtempSync(join(tmpdir(), 'agent-contracts-compat-'));

// Binaries come from node_modules/.bin, which pnpm puts on PATH for scripts; pnpm itself may
// only be reachable through corepack, so it is not called from here.
const tsx = (script, ...args) => ['tsx', '--conditions=@agent-contracts/source', script, ...args];
const checks = [
  ['schemas:check', tsx('packages/schemas/scripts/generate.ts', '--check')],
  ['fixtures:check', tsx('scripts/fixtures/generate.ts', '--check')],
  ['vectors:check', tsx('scripts/vectors/generate.ts', '--check')],
  ['zod:check', tsx('packages/zod/scripts/generate.ts', '--check')],
  ['validators:check', tsx('packages/validators/scripts/generate.ts', '--check')],
  ['protocol:schemas:check', tsx('packages/protocol/scripts/generate-schemas.ts', '--check')],
  ['harness:schemas:check', tsx('packages/harness/scripts/generate-schemas.ts', '--check')],
  // The generated golden cases and the case index (conformance/index.tsv, one line per case).
  ['cases:check', tsx('scripts/cases/generate.ts', '--check')],
  ['rules:check', tsx('packages/validators/scripts/rules-doc.ts', '--check')],
  ['requirements:check', tsx('scripts/requirements/generate.ts', '--check')],
  // docs/conformance-quality.md's score and survivors tables from the committed mutation results.
  ['mutation-doc:check', ['node', 'tooling/mutate/summary.mjs', '--committed', '--check-doc']],
  [
    'compatibility:check',
    tsx('scripts/compatibility/generate.ts', '--check', '--keep-reports', compatReports),
  ],
  ['schemas:gate', tsx('scripts/schemas/gate.ts')],
  // StrykerJS, incrementally: a shard whose sources are those its committed incremental file
  // records costs nothing; a changed one is re-run for its changed mutants and fails when its
  // mutation score drops (docs/conformance-quality.md).
  ['mutate', ['node', 'tooling/mutate/run.mjs', '--ci']],
  ['lint', ['biome', 'ci', '--error-on-warnings', '.']],
  ['typecheck', ['tsc', '-p', 'tsconfig.json', '--noEmit']],
];

let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];
const env = { ...process.env, AGENT_CONTRACTS_COMPAT_REPORTS: compatReports };
const run = (cmd) => spawnSync(cmd[0], cmd.slice(1), { stdio: 'inherit', env });

// The checks only read the repository, and most are one process on one core: after the two that
// run implementations against time budgets, alone as before (the compatibility check's conform runs
// use both cores, and StrykerJS times its mutants), the others run CHECK_JOBS at a time, the
// longest first, each one's output shown in one piece when it ends (bench/README.md, "CI").
// AGENT_CONTRACTS_CHECK_JOBS=1 runs them all one after another.
const CHECK_JOBS = Math.max(1, Number(process.env.AGENT_CONTRACTS_CHECK_JOBS) || 2);
const ALONE_FIRST = ['compatibility:check', 'mutate'];
const LONGEST_FIRST = ['typecheck', 'harness:schemas:check', 'protocol:schemas:check', 'validators:check'];
const byName = (name) => checks.find(([n]) => n === name);
const alone = ALONE_FIRST.map(byName);
const queue = [
  ...LONGEST_FIRST.map(byName),
  ...checks.filter(([n]) => !LONGEST_FIRST.includes(n) && !ALONE_FIRST.includes(n)),
];

/** Run one check with its output collected; resolves to its exit status and output. */
function runCollected(cmd) {
  return new Promise((resolve) => {
    const started = performance.now();
    const chunks = [];
    const child = spawn(cmd[0], cmd.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], env });
    child.stdout.on('data', (d) => chunks.push(d));
    child.stderr.on('data', (d) => chunks.push(d));
    const done = (status, extra = '') =>
      resolve({
        status,
        output: Buffer.concat(chunks).toString() + extra,
        secs: (performance.now() - started) / 1000,
      });
    child.on('error', (e) => done(null, `${e.message}\n`));
    child.on('close', (code) => done(code));
  });
}

/** Run the checks of `list`, taking them from its front, one after another. */
async function checkLane(list) {
  for (let next = list.shift(); next; next = list.shift()) {
    const [name, cmd] = next;
    const r = await runCollected(cmd);
    process.stderr.write(`\n== ${name} (${r.secs.toFixed(1)} s)\n${r.output}`);
    if (r.status === 0) passed++;
    else {
      failed++;
      failures.push(name);
    }
  }
}
await checkLane(alone);

// The test that packs and installs every package (test/publish/installed.test.ts) builds all of
// them into their dist/ (which nothing else here reads): it runs as a vitest run of its own beside
// the checks above, which have no time limits, and the rest of the suite starts when both have
// ended, so its compilers do not slow the other suites past their timeouts on a small machine
// (bench/README.md, "CI"). Arguments given to this script go to one vitest run instead, after the
// checks.
const ALONE = 'test/publish/installed.test.ts';
const extra = process.argv.slice(2);
const beside = extra.length ? [] : [['vitest (packed install)', [ALONE]]];
const after = extra.length ? [['vitest', extra]] : [['vitest', ['--exclude', ALONE]]];

/**
 * One vitest run with a JSON report: resolves to its exit status and the report (null when it
 * wrote none). `collected`: its output is kept and shown in one piece when it ends.
 */
async function vitestRun(name, args, collected) {
  const dir = mkdtempSync(join(tmpdir(), 'agent-contracts-test-'));
  const report = join(dir, 'vitest.json');
  const cmd = [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...args,
  ];
  let status;
  if (collected) {
    const r = await runCollected(cmd);
    process.stderr.write(`\n== ${name} (${r.secs.toFixed(1)} s)\n${r.output}`);
    status = r.status;
  } else {
    process.stderr.write(`\n== ${name}\n`);
    status = run(cmd).status;
  }
  let vitest = null;
  try {
    vitest = JSON.parse(readFileSync(report, 'utf8'));
  } catch {}
  rmSync(dir, { recursive: true, force: true });
  return { status, vitest };
}

/** Counts one vitest run's tests into the totals. */
function count(name, { status, vitest }) {
  if (!vitest) {
    failed++;
    failures.push(`${name} produced no report`);
    return;
  }
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  // A skipped or todo test in CI is a defect: count it as failed. Outside CI the only skips are
  // PostgreSQL suites without a database (see .ci/postgres.sh); they are reported, never hidden.
  const pending = (vitest.numPendingTests ?? 0) + (vitest.numTodoTests ?? 0);
  if (pending && (process.env.CI || process.env.AGENT_CONTRACTS_REQUIRE_PG)) {
    failed += pending;
    failures.push(`${pending} skipped/todo tests in ${name}`);
  } else skipped += pending;
  if (vitest.numTotalTests === 0) {
    failed++;
    failures.push(`${name} ran no test`);
  }
  if (status !== 0 && vitest.numFailedTests === 0) {
    failed++;
    failures.push(`${name} exited non-zero (a suite failed to load?)`);
  }
}

const besideRuns = beside.map(async ([name, args]) => count(name, await vitestRun(name, args, true)));
await Promise.all([...Array.from({ length: CHECK_JOBS }, () => checkLane(queue)), ...besideRuns]);
for (const [name, args] of after) count(name, await vitestRun(name, args, false));

rmSync(compatReports, { recursive: true, force: true });
if (failures.length) process.stderr.write(`\nfailed: ${failures.join(', ')}\n`);
if (skipped)
  process.stderr.write(
    `\n${skipped} tests skipped: start PostgreSQL with \`bash .ci/postgres.sh\` and export AGENT_CONTRACTS_PG_URL to run them.\n`,
  );
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed ? 1 : 0);
