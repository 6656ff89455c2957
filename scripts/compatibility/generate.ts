// `pnpm compatibility:generate` / `compatibility:check`: docs/compatibility.md, the compatibility
// matrix (`agent-contracts matrix --format markdown --no-details`) of fresh `conform` runs of the
// three implementations in this repository, fault matrix included. The page holds only ids,
// names, versions and counts, never a time, a date or a detail text, so the same outcomes always
// give the same bytes. `--check` fails (exit 1) when the committed page differs, and says which
// cells changed. `--keep-reports <dir>` leaves each run's JSONL report and console output there
// (`<name>.jsonl`, `<name>.out`), for tests that would otherwise run the same implementation
// again (scripts/test.mjs hands them to the tests of examples/python-reference and
// examples/python-digest). `--from <dir>` renders
// the reports found there (`<name>.jsonl`, written by `conform --report` from this checkout) and
// runs only the missing ones: to regenerate after a run that a loaded machine timed out.
// reference-node is started from its bundle (scripts/bundle-reference.mjs, rebuilt first when a
// source changed), as the main job starts it: the same code, without a TypeScript loader in each
// of the fault matrix's processes.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  compatibilityMatrix,
  loadRequirements,
  parseReport,
  renderMatrixMarkdown,
} from '@agent-contracts/harness';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const page = join(repo, 'docs/compatibility.md');
const args = process.argv.slice(2);
const check = args.includes('--check');
const keepAt = args.indexOf('--keep-reports');
const reportsDir = keepAt >= 0 ? args[keepAt + 1] : mkdtempSync(join(tmpdir(), 'compatibility-'));
if (!reportsDir) {
  console.error('compatibility: --keep-reports needs a directory');
  process.exit(2);
}
mkdirSync(reportsDir, { recursive: true });
const fromAt = args.indexOf('--from');
const fromDir = fromAt >= 0 ? args[fromAt + 1] : null;
// `--jobs <n>` of each conform run (default 2, the CI machine's cores); 1 on a loaded machine, where
// two scenarios at once can run out of their time budget.
const jobsAt = args.indexOf('--jobs');
const jobs = jobsAt >= 0 ? (args[jobsAt + 1] ?? '2') : '2';

/** The implementations of this repository, with the command `conform` starts (from the repository root). */
const IMPLEMENTATIONS = [
  {
    name: 'reference-node',
    dir: 'examples/reference-node',
    // The bundle's path, as scripts/bundle-reference.mjs builds it (REFERENCE_BUNDLE).
    command: 'node examples/reference-node/dist/main.mjs',
  },
  {
    name: 'python-reference',
    dir: 'examples/python-reference',
    command: 'python3 examples/python-reference/impl.py',
  },
  { name: 'python-digest', dir: 'examples/python-digest', command: 'python3 examples/python-digest/impl.py' },
] as const;

let bundled = false;
/** Build reference-node's bundle unless it is fresh (once, and only when reference-node is run). */
const ensureBundle = () => {
  if (bundled) return;
  const built = execFileSync(process.execPath, [join(repo, 'scripts/bundle-reference.mjs'), '--quiet'], {
    encoding: 'utf8',
  }).trim();
  if (built !== join(repo, IMPLEMENTATIONS[0].command.slice('node '.length))) {
    console.error(`compatibility: the reference bundle is at ${built}, not where the page says`);
    process.exit(1);
  }
  bundled = true;
};

const reports = IMPLEMENTATIONS.map((impl) => {
  const given = fromDir ? join(fromDir, `${impl.name}.jsonl`) : null;
  if (given && existsSync(given)) return parseReport(readFileSync(given, 'utf8'), given);
  if (impl.name === 'reference-node') ensureBundle();
  const report = join(reportsDir, `${impl.name}.jsonl`);
  const started = Date.now();
  const r = spawnSync(
    process.execPath,
    [
      '--conditions=@agent-contracts/source',
      '--import',
      'tsx',
      'packages/cli/src/bin.ts',
      'conform',
      '--impl',
      impl.command,
      '--jobs',
      jobs,
      '--report',
      report,
    ],
    { cwd: repo, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 64 * 1024 * 1024 },
  );
  writeFileSync(join(reportsDir, `${impl.name}.out`), `${r.stdout}\n${r.stderr}`);
  console.error(
    `compatibility: ${impl.name}: exit ${r.status} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  // 0 conforms, 1 does not: both wrote a whole report; anything else is no report to show.
  if (r.status !== 0 && r.status !== 1) {
    console.error(`compatibility: conform of ${impl.name} exited ${r.status}:\n${r.stderr.slice(-4000)}`);
    process.exit(1);
  }
  return parseReport(readFileSync(report, 'utf8'), report);
});

const matrix = compatibilityMatrix(reports, loadRequirements(join(repo, 'conformance')));
const text = `# Compatibility

<!-- Generated by \`pnpm compatibility:generate\` from fresh \`agent-contracts conform\` runs; do not edit. -->

The implementations in this repository, each run through the whole kit (golden cases and the
fault matrix) by \`agent-contracts conform\`, side by side:
${IMPLEMENTATIONS.map((i) => `[${i.name}](../${i.dir}) (\`${i.command}\`)`).join(', ')}. This is the
output of \`agent-contracts matrix --format markdown --no-details\` over their reports; render
your own implementation's report beside them the same way ([cli.md](cli.md#agent-contracts-matrix)).
CI regenerates it and fails when it differs (\`pnpm compatibility:check\`).

${renderMatrixMarkdown(matrix, { title: false, details: false })}`;

if (!check) {
  writeFileSync(page, text);
  console.error(`compatibility: wrote docs/compatibility.md (${reports.length} implementations)`);
} else {
  let committed = '';
  try {
    committed = readFileSync(page, 'utf8');
  } catch {
    // compared below as empty
  }
  if (committed !== text) {
    const old = new Set(committed.split('\n'));
    const changed = text.split('\n').filter((l) => !old.has(l));
    console.error(
      `compatibility:check: docs/compatibility.md differs from fresh runs (run \`pnpm compatibility:generate\`, and look at any implementation that stopped passing). Lines now:\n${changed.slice(0, 40).join('\n')}`,
    );
    process.exit(1);
  }
  console.error('compatibility:check: docs/compatibility.md is up to date');
}
