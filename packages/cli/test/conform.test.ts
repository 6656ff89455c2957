// `agent-contracts conform` end to end: against the reference implementation (everything
// passes), and against misbehaving implementations, none of which may ever conform or hang.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseReport } from '@agent-contracts/harness';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const node = (script: string) => `node --conditions=@agent-contracts/source --import tsx ${script}`;
const REFERENCE = node(join(repo, 'examples/reference-node/src/main.ts'));
const FAKE = join(repo, 'packages/harness/test/fakes/fake-conform-impl.mjs');
const tmp = mkdtempSync(join(tmpdir(), 'conform-test-'));

function cli(...args: string[]) {
  const r = spawnSync(
    process.execPath,
    [
      '--conditions=@agent-contracts/source',
      '--import',
      'tsx',
      join(repo, 'packages/cli/src/bin.ts'),
      ...args,
    ],
    {
      cwd: repo,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
      timeout: 120_000,
    },
  );
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
    const parsed = parseReport(readFileSync(report, 'utf8'));
    expect(parsed.cases.length).toBeGreaterThan(40);
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
