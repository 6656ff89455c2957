// @module-tag integration
// @module-tag slow
// `agent-contracts conform` end to end: against the reference implementation (everything
// passes), and against misbehaving implementations, none of which may ever conform or hang.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseReport } from '@agent-contracts/harness';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { REFERENCE, runCli } from './helpers/cli.ts';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const FAKE = join(repo, 'packages/harness/test/fakes/fake-conform-impl.mjs');
const tmp = mkdtempSync(join(tmpdir(), 'conform-test-'));

/** The CLI as a process (its bundle: tooling/test-helpers/run-cli.ts), without colour. */
function cli(...args: string[]) {
  const r = runCli(args, { env: { NO_COLOR: '1' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const FENCE = 'validate/TaskRecoveryCommitFenceV1/*';

describe('agent-contracts conform', () => {
  const report = join(tmp, 'reference.jsonl');

  it('the reference implementation conforms: every case passes, exit 0, with a JSONL report', () => {
    const r = cli(
      'conform',
      '--impl',
      REFERENCE,
      '--filter',
      'validate/TaskRecoveryCommitFenceV1/*',
      '--filter',
      'digest/*',
      '--report',
      report,
    );
    expect(r.err).not.toMatch(/Error|at .*\.ts/);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain('CONFORMS');
    // Coverage of the kit's own catalogue: the digest cases name GEN-005, so Conventions is not 0.
    expect(r.out).toMatch(/Requirement coverage \(.*\): \d+\/\d+\n/);
    expect(r.out).toMatch(/\n {2}Conventions +[1-9]\d*\/\d+\n/);
    const parsed = parseReport(readFileSync(report, 'utf8'));
    expect(parsed.cases.length).toBeGreaterThan(40);
    expect(parsed.cases.every((c) => c.requirements?.length)).toBe(true);
    expect(parsed.cases.every((c) => c.outcome === 'pass')).toBe(true);
    expect(parsed.summary?.conforms).toBe(true);
    expect(parsed.run.implementation.name).toBe('agent-contracts reference (node)');
  });

  it('every report line, and the reference hello, match their published schemas', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    const load = (f: string) => JSON.parse(readFileSync(join(repo, 'schemas', f), 'utf8'));
    const line = ajv.compile(load('harness/ReportLine.schema.json'));
    const hello = ajv.compile(load('protocol/HelloResult.schema.json'));
    const lines = readFileSync(report, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    for (const l of lines) expect(line(l), JSON.stringify(line.errors)).toBe(true);
    const caps = lines[0].implementation.capabilities;
    const h = { name: 'n', version: 'v', language: 'l', protocolVersion: 1, capabilities: caps };
    expect(hello(h), JSON.stringify(hello.errors)).toBe(true);
    expect(line({ ...lines[1], outcome: 'passed' })).toBe(false);
  });

  it('a lying implementation (everything is valid) does not conform: the invalid cases fail', () => {
    const out = join(tmp, 'liar.jsonl');
    const r = cli('conform', '--impl', `node ${FAKE} liar`, '--filter', FENCE, '--report', out);
    expect(r.code).toBe(1);
    expect(r.out).toContain('DOES NOT CONFORM');
    const cases = parseReport(readFileSync(out, 'utf8')).cases;
    expect(cases.filter((c) => c.id.includes('/invalid/')).every((c) => c.outcome === 'fail')).toBe(true);
    expect(cases.filter((c) => c.id.includes('/valid/')).every((c) => c.outcome === 'pass')).toBe(true);
  });

  it('cases for undeclared capabilities are not applicable, never passed; nothing applicable never conforms', () => {
    const out = join(tmp, 'none.jsonl');
    const r = cli('conform', '--impl', `node ${FAKE} nothing-declared`, '--filter', FENCE, '--report', out);
    expect(r.code).toBe(1);
    const cases = parseReport(readFileSync(out, 'utf8')).cases;
    expect(cases.every((c) => c.outcome === 'not-applicable')).toBe(true);
  });

  it.each([
    ['hang-after-hello', 'timeout'],
    ['crash-on-validate', 'crash'],
  ])(
    'a %s implementation ends in %s then error once the restart budget is spent, exit 1, no hang',
    (mode, first) => {
      const out = join(tmp, `${mode}.jsonl`);
      const r = cli(
        'conform',
        '--impl',
        `node ${FAKE} ${mode}`,
        '--filter',
        FENCE,
        '--timeout',
        '300',
        '--restart-budget',
        '1',
        '--report',
        out,
      );
      expect(r.code).toBe(1);
      const cases = parseReport(readFileSync(out, 'utf8')).cases;
      expect(cases[0]!.outcome).toBe(first);
      expect(cases.at(-1)!.outcome).toBe('error');
      expect(cases.at(-1)!.detail).toMatch(/restart budget/);
      expect(cases.some((c) => c.outcome === 'pass')).toBe(false);
      if (mode === 'crash-on-validate') expect(cases[0]!.stderrTail).toContain('segfault in validate');
    },
  );

  it.each(['exit-at-start', 'garbage-hello', 'bad-hello'])(
    'an implementation that cannot be greeted (%s) is never compliant: every case is an error, exit 1',
    (mode) => {
      const out = join(tmp, `${mode}.jsonl`);
      const r = cli(
        'conform',
        '--impl',
        `node ${FAKE} ${mode}`,
        '--filter',
        FENCE,
        '--timeout',
        '2000',
        '--report',
        out,
      );
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/could not be started or did not answer hello/);
      const cases = parseReport(readFileSync(out, 'utf8')).cases;
      expect(cases.length).toBeGreaterThan(0);
      expect(cases.every((c) => c.outcome === 'error')).toBe(true);
    },
  );

  it('a baseline turns expected failures green, and fails the run when an entry now passes', () => {
    const baseline = join(tmp, 'baseline.json');
    const liar = join(tmp, 'liar.jsonl');
    expect(cli('baseline', 'update', '--report', liar, '--out', baseline).code).toBe(0);
    const entries = JSON.parse(readFileSync(baseline, 'utf8')).expectedFailures as Array<{ id: string }>;
    expect(entries.length).toBeGreaterThan(0);
    expect(
      cli('conform', '--impl', `node ${FAKE} liar`, '--filter', FENCE, '--baseline', baseline).code,
    ).toBe(0);
    // The reference passes those cases: every entry is stale, so the run fails.
    const stale = cli('conform', '--impl', REFERENCE, '--filter', FENCE, '--baseline', baseline);
    expect(stale.code).toBe(1);
    expect(stale.out).toContain('Baseline entries that now pass');
  });

  it('shards partition the suite: every case in exactly one shard', () => {
    const ids = (shard: string) => {
      const out = join(tmp, `shard-${shard.replace('/', '-')}.jsonl`);
      cli('conform', '--impl', REFERENCE, '--filter', 'digest/*', '--shard', shard, '--report', out);
      return parseReport(readFileSync(out, 'utf8')).cases.map((c) => c.id);
    };
    const all = [...ids('1/3'), ...ids('2/3'), ...ids('3/3')].sort();
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBe(
      parseReport(readFileSync(report, 'utf8')).cases.filter((c) => c.id.startsWith('digest/')).length,
    );
  });

  it('diff shows what broke and what was fixed, and exits 1 when something broke', () => {
    const d = cli('diff', '--json', report, join(tmp, 'liar.jsonl'));
    expect(d.code).toBe(1);
    const diff = JSON.parse(d.out) as { broken: string[]; removed: string[] };
    expect(diff.broken.every((id) => id.includes('/invalid/'))).toBe(true);
    expect(diff.broken.length).toBeGreaterThan(0);
    expect(cli('diff', join(tmp, 'liar.jsonl'), report).code).toBe(0);
  });

  it('report renders JUnit, Markdown and HTML from the JSONL', () => {
    const junit = cli('report', '--format', 'junit', join(tmp, 'liar.jsonl'));
    expect(junit.code).toBe(0);
    expect(junit.out).toMatch(/<testsuite name="TaskContinuityWriteGate" tests="\d+" failures="[1-9]/);
    const md = cli('report', '--format', 'markdown', report);
    expect(md.out).toContain('**Conforms**');
    const html = cli('report', '--format', 'html', report, join(tmp, 'liar.jsonl'));
    expect(html.out).toContain('<table id="matrix">');
    writeFileSync(join(tmp, 'side-by-side.html'), html.out);
  });

  it.each([
    [['conform'], 'USAGE_MISSING_ARGUMENT'],
    [['conform', '--impl', 'x', '--shard', '4/3'], 'USAGE_BAD_VALUE'],
    [['conform', '--impl', 'x', '--jobs', 'many'], 'USAGE_BAD_VALUE'],
    [['conform', '--impl', 'x', '--baseline', '/nonexistent.json'], 'BASELINE_INVALID'],
    [['conform', '--impl', 'x', '--filter', 'no-such-case/*'], 'USAGE_BAD_VALUE'],
    [['report', '--format', 'pdf', 'x.jsonl'], 'USAGE_BAD_VALUE'],
    [['report', '--format', 'junit', '/nonexistent.jsonl'], 'REPORT_INVALID'],
    [['diff', 'only-one.jsonl'], 'USAGE_MISSING_ARGUMENT'],
    [['baseline', 'update', '--report', '/nonexistent.jsonl', '--out', '/tmp/x.json'], 'REPORT_INVALID'],
  ])('%j exits 2 with %s and no stack trace', (args, code) => {
    const r = cli(...args);
    expect(r.code).toBe(2);
    expect(r.err).toContain(code);
    expect(r.err).not.toMatch(/\n\s+at /);
  });
});

describe('agent-contracts conform --state-url', () => {
  it.each([
    [['--state-url', 'mysql://h/db'], /postgres:\/\//],
    [['--state-url', 'postgres://h/db?schema=Bad-Name'], /lowercase SQL identifier/],
    [['--state-url', 'postgres://h/db', '--state', '/tmp/x'], /not both/],
  ])('%j is a usage error (exit 2)', (args, message) => {
    const r = cli('conform', '--impl', 'true', '--filter', 'digest/*', ...args);
    expect(r.code).toBe(2);
    expect(r.err).toContain('USAGE_BAD_VALUE');
    expect(r.err).toMatch(message);
  });

  it('hands each job its own schema of the PostgreSQL URL, derived from schema= or fresh per run', () => {
    // A fake implementation that records the state location of its hello, then conforms to nothing.
    const seen = join(tmp, 'state-urls.txt');
    const fake = join(tmp, 'record-state.mjs');
    writeFileSync(
      fake,
      `import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
createInterface({ input: process.stdin }).on('line', (line) => {
  const req = JSON.parse(line);
  if (req.method === 'hello') appendFileSync(${JSON.stringify(seen)}, req.params.stateLocation + '\\n');
  const caps = { contracts: [], bundles: [], digest: false, store: false, liveness: false, checkpoint: false, trace: false, clock: false, crashPoints: [] };
  const result = req.method === 'hello' ? { name: 'fake', version: '0', language: 'js', protocolVersion: 1, capabilities: caps } : null;
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: req.id, result }) + '\\n');
  if (req.method === 'shutdown') process.exit(0);
});
`,
    );
    const run = (url: string) =>
      cli('conform', '--impl', `node ${fake}`, '--filter', 'digest/*', '--jobs', '2', '--state-url', url);
    run('postgres://u:p@127.0.0.1:5432/db?schema=ac_mine&sslmode=disable');
    run('postgresql://u:p@127.0.0.1:5432/db');
    run('postgresql://u:p@127.0.0.1:5432/db');
    const urls = readFileSync(seen, 'utf8').trim().split('\n');
    expect(urls.slice(0, 2).sort()).toEqual([
      'postgres://u:p@127.0.0.1:5432/db?schema=ac_mine_1&sslmode=disable',
      'postgres://u:p@127.0.0.1:5432/db?schema=ac_mine_2&sslmode=disable',
    ]);
    const schemas = urls.slice(2).map((u) => new URL(u).searchParams.get('schema') ?? '');
    expect(schemas).toHaveLength(4);
    for (const s of schemas) expect(s).toMatch(/^ac_conform_[a-z0-9]+_[0-9a-f]{8}_[12]$/);
    expect(new Set(schemas).size).toBe(4);
  });
});
