// @module-tag integration
// Reports that do not hold a whole run: an interrupted run (no summary line) and a cut-short file
// (fewer case lines than the summary counts). `diff` refuses them, `report` renders them only when
// asked, labelled incomplete; and a shard in which nothing applies gives no verdict, saying so.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { memoryIo, repoRoot, runCli, tempDir } from './helpers.ts';
import { kase, run, summary } from './report-lines.ts';

const { dir, cleanup } = tempDir();
afterAll(cleanup);

const counted = (pass: number) =>
  summary({
    counts: { pass, fail: 0, error: 0, timeout: 0, crash: 0, 'not-applicable': 0 },
  });
let n = 0;
const file = (lines: readonly unknown[]) => {
  const path = join(dir, `r${n++}.jsonl`);
  writeFileSync(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return path;
};
async function cli(args: string[]) {
  const io = memoryIo();
  const status = await main(args, io);
  return { status, stdout: io.stdout, stderr: io.stderr };
}

const whole = file([run, kase('a/b/1', 'pass'), kase('a/b/2', 'pass'), kase('a/b/3', 'pass'), counted(3)]);
const interrupted = file([run, kase('a/b/1', 'pass')]);
const cutShort = file([run, kase('a/b/1', 'pass'), counted(3)]);
const marker = {
  type: 'interrupted',
  signal: 'SIGINT',
  at: '2026-12-01T00:00:02.000Z',
  finished: 1,
  total: 3,
};
const marked = file([run, kase('a/b/1', 'pass'), marker]);

describe('reports that do not hold a whole run', () => {
  it('diff refuses an interrupted or a cut-short report with REPORT_INCOMPLETE instead of calling cases removed', async () => {
    expect((await cli(['diff', whole, whole])).status).toBe(0);
    const a = await cli(['diff', whole, interrupted]);
    expect(a.status).toBe(2);
    expect(a.stderr).toContain('REPORT_INCOMPLETE');
    expect(a.stderr).toContain('has no summary line');
    expect(a.stdout).toBe('');
    const b = await cli(['diff', cutShort, whole]);
    expect(b.status).toBe(2);
    expect(b.stderr).toContain('was cut short: its summary counts 3 cases, its case lines 1');
  });

  it('report renders one only with --allow-incomplete, labelled incomplete', async () => {
    const refused = await cli(['report', '--format', 'markdown', interrupted]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('REPORT_INCOMPLETE');
    expect(refused.stderr).toContain('--allow-incomplete');
    const shown = await cli(['report', '--format', 'markdown', '--allow-incomplete', interrupted]);
    expect(shown.status).toBe(0);
    expect(shown.stdout).toContain('**Incomplete');
    expect(shown.stdout).not.toMatch(/\*\*Conforms/);
  });
});

describe('the report of an interrupted run', () => {
  const says =
    'is the report of a run interrupted by SIGINT after 1 of 3 items: it holds what finished and no verdict';
  it('diff and report refuse it with REPORT_INTERRUPTED, saying when it stopped', async () => {
    const d = await cli(['diff', whole, marked]);
    expect(d.status).toBe(2);
    expect(d.stderr).toContain('REPORT_INTERRUPTED');
    expect(d.stderr).toContain(says);
    expect(d.stdout).toBe('');
    const r = await cli(['report', '--format', 'junit', marked]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('REPORT_INTERRUPTED');
    expect(r.stderr).toContain('--allow-incomplete');
  });

  it('--allow-incomplete renders it labelled interrupted, never conforming', async () => {
    const shown = await cli(['report', '--format', 'markdown', '--allow-incomplete', marked]);
    expect(shown.status).toBe(0);
    expect(shown.stdout).toContain('**Interrupted**: the run was stopped by a signal');
    expect(shown.stdout).not.toMatch(/\*\*Conforms|\*\*Incomplete/);
    const html = await cli(['report', '--format', 'html', '--allow-incomplete', marked]);
    expect(html.stdout).toContain('interrupted (the run was stopped by a signal: what finished, no verdict)');
  });

  it('a line after the marker, or a marker beside a summary, makes the report invalid', async () => {
    for (const lines of [
      [run, marker, kase('a/b/1', 'pass')],
      [run, kase('a/b/1', 'pass'), marker, counted(1)],
      [run, kase('a/b/1', 'pass'), counted(1), marker],
    ]) {
      const r = await cli(['report', '--format', 'markdown', '--allow-incomplete', file(lines)]);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain('REPORT_INVALID');
      expect(r.stderr).toMatch(/follows the (interrupted|summary) line/);
    }
  });
});

describe('a shard in which nothing applies', () => {
  const FAKE = join(repoRoot, 'packages/harness/test/fakes/fake-conform-impl.mjs');
  it('is no verdict: exit 0, never CONFORMS, conforms: false in its report; unsharded it does not conform', () => {
    const args = [
      'conform',
      '--impl',
      `node ${FAKE} nothing-declared`,
      '--no-faults',
      '--filter',
      'validate/IntentSeedV1/*',
    ];
    const report = join(dir, 'empty-shard.jsonl');
    // Nothing in any shard applies to this implementation: no shard gives NO VERDICT then, or a
    // shard matrix would go green having checked nothing (issue 20, finding 10).
    const sharded = runCli([...args, '--shard', '1/1', '--report', report]);
    expect(sharded.status, sharded.stdout + sharded.stderr).toBe(1);
    expect(sharded.stdout).toContain('judged nowhere');
    expect(sharded.stdout).not.toContain('NO VERDICT');
    expect(sharded.stdout).not.toMatch(/^CONFORMS/m);
    expect(readFileSync(report, 'utf8')).toContain('"conforms":false');
    expect(runCli(args).status).toBe(1);
  });
});
