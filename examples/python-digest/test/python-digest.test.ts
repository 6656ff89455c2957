// @module-tag integration
// The Python example through a real `agent-contracts conform` run: every digest vector passes,
// every other case and scenario is not applicable (never a pass), and the run conforms to what the
// implementation declares. The same program with one bug (property names sorted by code point
// instead of UTF-16 code unit) fails exactly the vectors that tell the two orders apart.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseReport } from '@agent-contracts/harness';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../tooling/test-helpers/run-cli.ts';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const IMPL = join(repo, 'examples/python-digest/impl.py');
const python = (code: string) => `python3 -c ${JSON.stringify(code)}`;

function conform(impl: string) {
  const report = join(mkdtempSync(join(tmpdir(), 'py-conform-')), 'report.jsonl');
  const r = runCli(['conform', '--impl', impl, '--report', report]);
  return {
    status: r.status,
    output: `${r.stdout}\n${r.stderr}`,
    report: parseReport(readFileSync(report, 'utf8')),
  };
}

/**
 * The run of `pnpm test`'s docs/compatibility.md check (scripts/test.mjs), when it left one:
 * the same implementation through the same kit, not run twice.
 */
function sharedRun() {
  const dir = process.env.AGENT_CONTRACTS_COMPAT_REPORTS;
  const report = dir ? join(dir, 'python-digest.jsonl') : null;
  if (!dir || !report || !existsSync(report)) return null;
  const output = readFileSync(join(dir, 'python-digest.out'), 'utf8');
  const parsed = parseReport(readFileSync(report, 'utf8'));
  return { status: parsed.summary?.conforms ? 0 : 1, output, report: parsed };
}

describe('examples/python-digest (Python, standard library only)', () => {
  it('passes every digest vector; everything else is not applicable; conforms', () => {
    const { status, output, report } = sharedRun() ?? conform(`python3 ${IMPL}`);
    expect(status, output).toBe(0);
    expect(report.run.implementation.language).toBe('python');
    const digest = report.cases.filter((c) => c.id.startsWith('digest/'));
    expect(digest.length).toBeGreaterThanOrEqual(41);
    expect(digest.filter((c) => c.outcome !== 'pass').map((c) => `${c.id}: ${c.detail}`)).toEqual([]);
    const others = report.cases.filter((c) => !c.id.startsWith('digest/'));
    expect(others.length).toBeGreaterThan(1000);
    expect(others.filter((c) => c.outcome !== 'not-applicable').map((c) => c.id)).toEqual([]);
    expect(report.summary?.conforms).toBe(true);
    expect(output).toMatch(/CONFORMS/);
  }, 120_000);

  it('with keys sorted by code point, fails the UTF-16 ordering vectors and does not conform', () => {
    const buggy = python(
      `import sys; sys.path.insert(0, ${JSON.stringify(join(repo, 'examples/python-digest'))}); import impl; impl.utf16_key = lambda s: s; impl.main()`,
    );
    const { status, output, report } = conform(buggy);
    expect(status, output).toBe(1);
    const failed = report.cases.filter((c) => c.outcome === 'fail').map((c) => c.id);
    expect(failed).toContain('digest/jcs/jcs-rfc-3.2.3-sorting');
    expect(failed.every((id) => id.startsWith('digest/jcs/'))).toBe(true);
    expect(report.summary?.conforms).toBe(false);
  }, 120_000);
});
