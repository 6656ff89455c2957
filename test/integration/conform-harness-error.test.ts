// @module-tag integration
// A request of the kit's own that breaks its schema (docs/protocol.md#every-message-is-checked):
// `conform` ends the case as harness-error, says the kit is at fault, never conforms and exits 2,
// while the implementation is not blamed and the report is still written.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseReport } from '@agent-contracts/harness';
import { afterAll, describe, expect, it } from 'vitest';
import { REFERENCE, runCli, tempDir } from './helpers/cli.ts';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

/** A conformance directory with one correct case and one whose request breaks DigestParams. */
function corpus(): string {
  const dir = join(tmp.dir, 'conformance');
  mkdirSync(join(dir, 'cases', 'digest'), { recursive: true });
  const base = {
    gate: 'Digests',
    subject: 'jcs',
    spec: 'docs/spec/index.md#gates',
    requirements: ['GEN-005'],
    level: 'MUST',
    requires: ['digest'],
  };
  const cases = [
    {
      id: 'digest/jcs/kit-bug',
      title: 'a case whose request breaks the schema',
      ...base,
      steps: [{ method: 'digest', params: { json: '1', pretty: true }, expect: { match: {} } }],
    },
    {
      id: 'digest/jcs/sound',
      title: 'a case the reference passes',
      ...base,
      steps: [{ method: 'digest', params: { json: '1' }, expect: { match: { canonical: '1' } } }],
    },
  ];
  writeFileSync(join(dir, 'cases', 'digest', 'kit.json'), JSON.stringify({ cases }));
  return dir;
}

describe('conform with a harness-error', () => {
  it('exits 2, says the kit is at fault, and the report never conforms', () => {
    const report = join(tmp.dir, 'r.jsonl');
    const r = runCli([
      'conform',
      '--impl',
      REFERENCE,
      '--conformance',
      corpus(),
      '--no-faults',
      '--report',
      report,
    ]);
    expect(r.status, r.stdout + r.stderr).toBe(2);
    expect(r.stdout).toContain('harness-error digest/jcs/kit-bug');
    expect(r.stdout).toContain(
      '1 case ended as harness-error: a request of the conformance kit broke its own schema. That is a defect of agent-contracts, not of the implementation under test',
    );
    expect(r.stdout).toContain(
      '2 cases: 1 pass, 0 fail, 0 error, 0 timeout, 0 crash, 0 not applicable, 1 harness-error',
    );
    expect(r.stdout).toContain("DOES NOT CONFORM (a harness error: the kit's bug, not the implementation's)");
    const parsed = parseReport(readFileSync(report, 'utf8'));
    const bug = parsed.cases.find((c) => c.id === 'digest/jcs/kit-bug')!;
    expect(bug.outcome).toBe('harness-error');
    expect(bug.detail).toContain('DigestParams at /pretty: additionalProperties');
    expect(parsed.summary).toMatchObject({ conforms: false, unexpectedFailures: [] });
    expect(parsed.summary?.counts['harness-error']).toBe(1);
  });
});
