// @module-tag integration
/// <reference lib="dom" />
// A different implementation, not a broken one: the reference implementation behind a proxy
// (test/fakes/hostile-proxy.mjs of the harness, mode `different`) whose first document of a case
// differs from ours in one field (`status` of `store.transitionOwner`) and whose later behaviour
// in the case differs too (`commitKind` of the first `store.history` entry). Both differences
// must be visible, by pointer, in the text output, the JSONL report and the HTML report.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseReport } from '@agent-contracts/harness';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, REFERENCE, repoRoot, runCli, skipWithoutChromium, tempDir } from './helpers/cli.ts';

const PROXY = join(repoRoot, 'packages/harness/test/fakes/hostile-proxy.mjs');
const CASE = 'store/operation/prepared/prepare';
const tmp = tempDir();
const skipBrowser = skipWithoutChromium('different (HTML part)');

const FIRST = '/result/status: "committed" -> "semantic-noop"';
const LATER = '/result/0/commitKind: "owner-acquire" -> "owner-renew"';

describe('a different implementation gets every difference, by pointer, in every report', () => {
  const report = join(tmp.dir, 'different.jsonl');
  let run: ReturnType<typeof runCli>;
  let browser: Browser | undefined;
  beforeAll(async () => {
    run = runCli([
      'conform',
      '--impl',
      `node ${PROXY} different -- ${REFERENCE}`,
      '--no-faults',
      '--filter',
      CASE,
      '--report',
      report,
    ]);
    if (!skipBrowser) browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    tmp.cleanup();
  });

  it('the text summary: the headline difference, the later steps, and the later difference', () => {
    expect(run.status, run.stderr).toBe(1);
    const out = run.stdout;
    expect(out).toContain(
      'step 2 (store.transitionOwner): the result differs at 1 pointer: /result/status: expected "committed", got "semantic-noop"',
    );
    expect(out).toContain(FIRST);
    expect(out).toContain('then step 3 (store.read), after the failure: pass');
    expect(out).toContain('then step 6 (store.history), after the failure: fail');
    expect(out).toContain(LATER);
    expect(out.indexOf(FIRST)).toBeLessThan(out.indexOf(LATER));
    expect(out).toContain('(docs/spec/task-continuity-write-gate.md#operation-edge-table)');
  });

  it('the JSONL report: one failed case, its differences and the later steps, structured', () => {
    const parsed = parseReport(readFileSync(report, 'utf8'));
    expect(parsed.cases).toHaveLength(1);
    const c = parsed.cases[0]!;
    expect(c).toMatchObject({
      id: CASE,
      outcome: 'fail',
      failedStep: 1,
      title: 'prepare on an operation that is prepared: an identical duplicate: replayed, nothing written',
      spec: 'docs/spec/task-continuity-write-gate.md#operation-edge-table',
      differences: [{ pointer: '/result/status', expected: '"committed"', actual: '"semantic-noop"' }],
    });
    expect(c.afterFailure!.map((s) => [s.index, s.method, s.outcome])).toEqual([
      [2, 'store.read', 'pass'],
      [3, 'store.commitOperation', 'pass'],
      [4, 'store.commitOperation', 'pass'],
      [5, 'store.history', 'fail'],
    ]);
    expect(c.afterFailure![3]!.differences).toEqual([
      {
        pointer: '/result/0/commitKind',
        expected: '"owner-acquire"',
        actual: '"owner-renew"',
        kind: 'behaviour',
      },
    ]);
    expect(parsed.summary).toMatchObject({ conforms: false, counts: { fail: 1 } });
  });

  it('baseline update writes the case title as the reason', () => {
    const out = join(tmp.dir, 'baseline.json');
    const r = runCli(['baseline', 'update', '--report', report, '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).expectedFailures).toEqual([
      {
        id: CASE,
        reason: 'prepare on an operation that is prepared: an identical duplicate: replayed, nothing written',
      },
    ]);
  });

  it.skipIf(skipBrowser)(
    'the HTML report: both differences in the failure, shown without a click',
    async () => {
      const html = runCli(['report', '--format', 'html', report]);
      expect(html.status, html.stderr).toBe(0);
      const page = join(tmp.dir, 'different.html');
      writeFileSync(page, html.stdout);
      const tab = await browser!.newPage();
      await tab.goto(pathToFileURL(page).href);
      const failure = tab.locator('details.case', { hasText: CASE });
      const rows = await failure
        .locator('table.diff tbody tr')
        .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
      expect(rows).toEqual([
        ['behaviour', '/result/status', '"committed"', '"semantic-noop"'],
        ['behaviour', '/result/0/commitKind', '"owner-acquire"', '"owner-renew"'],
      ]);
      expect(await failure.locator('table.diff').first().isVisible()).toBe(true);
      expect(await failure.locator('table.diff').nth(1).isVisible()).toBe(true);
      await tab.close();
    },
    60_000,
  );
});
