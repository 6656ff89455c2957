// @module-tag integration
// Levels in a run (D-GEN-41): a failed SHOULD case is a warning that does not fail the run,
// `--strict` makes it fail, and the summary prints requirement coverage per gate. Run against the
// reference implementation on a conformance directory of two digest cases, one of which expects a
// wrong digest, so it fails on every implementation.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { judgeReport, parseReport } from '@agent-contracts/harness';
import { describe, expect, it } from 'vitest';
import { REFERENCE, runCli } from './helpers/cli.ts';

const tmp = mkdtempSync(join(tmpdir(), 'conform-levels-'));
const conformance = join(tmp, 'conformance');
mkdirSync(join(conformance, 'cases'), { recursive: true });

const EMPTY_OBJECT_SHA256 = '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a';
const digestCase = (id: string, level: 'MUST' | 'SHOULD', requirement: string, sha256: string) => ({
  id,
  title: `${id} title`,
  gate: 'Digests',
  subject: 'jcs',
  spec: 'docs/spec/index.md#conventions-apply-to-every-page',
  requirements: [requirement],
  level,
  requires: ['digest'],
  steps: [{ method: 'digest', params: { json: '{}' }, expect: { result: { canonical: '{}', sha256 } } }],
});
writeFileSync(
  join(conformance, 'cases/levels.json'),
  JSON.stringify({
    cases: [
      digestCase('levels/must/passes', 'MUST', 'FIX-001', EMPTY_OBJECT_SHA256),
      digestCase('levels/should/fails', 'SHOULD', 'FIX-002', '0'.repeat(64)),
    ],
  }),
);
const requirement = (id: string, level: string) => ({
  id,
  level,
  gate: 'Conventions',
  page: 'docs/spec/index.md',
  anchor: 'conventions-apply-to-every-page',
  sentence: `${id} sentence`,
  withdrawn: false,
  codes: [],
});
writeFileSync(
  join(conformance, 'requirements.json'),
  JSON.stringify({ requirements: [requirement('FIX-001', 'MUST'), requirement('FIX-002', 'SHOULD')] }),
);

function conform(...args: string[]) {
  const r = runCli(['conform', '--impl', REFERENCE, '--conformance', conformance, '--no-faults', ...args], {
    env: { NO_COLOR: '1' },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('levels in a run', () => {
  it('a failed SHOULD case is a warning: listed apart, the run conforms, the case line stays fail', () => {
    const report = join(tmp, 'warn.jsonl');
    const r = conform('--report', report);
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).toContain('levels/should/fails (SHOULD: a warning unless --strict)');
    expect(r.out).toContain(
      '1 warning: SHOULD case failed; it does not fail the run (--strict makes it fail):',
    );
    expect(r.out).toContain('CONFORMS (with 1 warning)');
    const parsed = parseReport(readFileSync(report, 'utf8'));
    const line = parsed.cases.find((c) => c.id === 'levels/should/fails')!;
    expect(line).toMatchObject({ outcome: 'fail', level: 'SHOULD', requirements: ['FIX-002'] });
    expect(parsed.summary).toMatchObject({
      conforms: true,
      strict: false,
      unexpectedFailures: [],
      warnings: ['levels/should/fails'],
    });
    const judged = judgeReport(parsed);
    expect(judged).toMatchObject({
      verdict: 'conforms',
      warnings: ['levels/should/fails'],
      disagreements: [],
    });
    // A summary that hides the warning disagrees with the case lines.
    const hidden = judgeReport({ ...parsed, summary: { ...parsed.summary!, warnings: [] } });
    expect(hidden.verdict).toBe('does-not-conform');
    expect(hidden.disagreements).toEqual(['the summary lists 0 warning(s), the case lines show 1']);
  });

  it('--strict makes a failed SHOULD case fail the run, and the report says it was strict', () => {
    const report = join(tmp, 'strict.jsonl');
    const r = conform('--strict', '--report', report);
    expect(r.code, r.out + r.err).toBe(1);
    expect(r.out).toContain('Strict run (--strict): failed SHOULD cases fail the run.');
    expect(r.out).toContain('DOES NOT CONFORM');
    expect(r.out).not.toContain('warning');
    const parsed = parseReport(readFileSync(report, 'utf8'));
    expect(parsed.summary).toMatchObject({
      conforms: false,
      strict: true,
      unexpectedFailures: ['levels/should/fails'],
      warnings: [],
    });
    expect(judgeReport(parsed)).toMatchObject({ verdict: 'does-not-conform', disagreements: [] });
  });

  it('the summary prints requirement coverage per gate: requirements named by passing cases / all', () => {
    const r = conform();
    expect(r.out).toContain(
      'Requirement coverage (requirements named by a case or scenario that passed / all; docs/coverage.md): 1/2',
    );
    expect(r.out).toMatch(/\n {2}Conventions +1\/2\n/);
  });
});
