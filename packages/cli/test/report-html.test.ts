/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The HTML report, opened in headless Chromium: gates x cases, one column per implementation.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseReport, printable, renderHtml } from '@agent-contracts/harness';
import fc from 'fast-check';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, skipWithoutChromium } from './chromium.ts';
import { PAYLOADS, reportLinesArb, toJsonl } from './report-arbitraries.ts';

const skip = skipWithoutChromium('report-html');

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'report-html-'));
const cli = (...args: string[]) =>
  spawnSync(
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

describe.skipIf(skip)('HTML report in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('shows every case of every report, per gate, with the outcomes in the right columns', async () => {
    const reference = join(tmp, 'reference.jsonl');
    const liar = join(tmp, 'liar.jsonl');
    const filter = 'validate/TaskRecoveryCommitFenceV1/*';
    const ref = `node --conditions=@agent-contracts/source --import tsx ${join(repo, 'examples/reference-node/src/main.ts')}`;
    expect(
      cli(
        'conform',
        '--impl',
        ref,
        '--filter',
        filter,
        '--filter',
        'digest/jcs/jcs-rfc-*',
        '--report',
        reference,
      ).status,
    ).toBe(0);
    const fake = join(repo, 'packages/harness/test/fakes/fake-conform-impl.mjs');
    expect(cli('conform', '--impl', `node ${fake} liar`, '--filter', filter, '--report', liar).status).toBe(
      1,
    );
    const html = cli('report', '--format', 'html', reference, liar);
    expect(html.status).toBe(0);
    const page = join(tmp, 'report.html');
    writeFileSync(page, html.stdout);

    {
      const tab = await browser.newPage();
      await tab.goto(pathToFileURL(page).href);
      const heads = await tab.$$eval('thead th[data-impl]', (ths) =>
        ths.map((t) => t.getAttribute('data-impl')),
      );
      expect(heads).toEqual(['agent-contracts reference (node)', 'fake-liar']);
      const gates = await tab.$$eval('tbody[data-gate]', (bs) => bs.map((b) => b.getAttribute('data-gate')));
      expect(gates).toEqual(expect.arrayContaining(['TaskContinuityWriteGate', 'Digests']));
      // One row per case, in both columns.
      const row = (id: string) =>
        tab.$$eval(
          `tbody tr`,
          (rows, id) => {
            const r = rows.find((x) => x.querySelector('code')?.textContent === id);
            return r ? [...r.querySelectorAll('td')].map((td) => td.className) : null;
          },
          id,
        );
      expect(await row('validate/TaskRecoveryCommitFenceV1/invalid/state-sequence-negative')).toEqual([
        'pass',
        'fail',
      ]);
      expect(await row('digest/jcs/jcs-rfc-3.2.2-primitives')).toEqual(['pass', 'missing']);
      // The cells are coloured by outcome.
      const colour = await tab.$eval('td.fail', (td) => getComputedStyle(td).backgroundColor);
      expect(colour).toBe('rgb(248, 208, 208)');
      await tab.screenshot({ path: join(tmp, 'report.png'), fullPage: true });
      await tab.close();
    }
  }, 120_000);

  it('runs no script and loads nothing from crafted and random reports, with or without its CSP', async () => {
    // A crafted report: every string field of every line carries one of the payloads.
    const at = (i: number) => PAYLOADS[i % PAYLOADS.length]!;
    const crafted = (k: number) => {
      const run = {
        type: 'run',
        reportVersion: 1,
        kit: { name: at(k), version: at(k + 1) },
        protocolVersion: 1,
        implementation: {
          name: at(k + 2),
          version: at(k + 3),
          language: at(k + 4),
          command: '',
          capabilities: null,
        },
        startedAt: at(k + 5),
        filter: [],
        shard: null,
        baseline: null,
      };
      const outcomes = ['pass', 'fail', 'error', 'crash', 'not-applicable'];
      const cases = PAYLOADS.map((p, i) => ({
        type: 'case',
        id: `${i} ${p}`,
        gate: at(k + i),
        subject: at(k + i + 1),
        level: at(k + i + 2),
        outcome: outcomes[i % outcomes.length],
        detail: at(k + i + 3),
        durationMs: i,
        ...(i % 3 === 0 ? { expectedFailure: at(k + i + 4) } : {}),
      }));
      const summary = {
        type: 'summary',
        finishedAt: '',
        durationMs: 0,
        counts: { pass: 99, fail: 0, error: 0, timeout: 0, crash: 0, 'not-applicable': 0 },
        conforms: true,
        unexpectedFailures: [],
        stalePassing: [at(k)],
      };
      return [run, ...cases, summary];
    };
    const reports = [...[0, 5, 11].map(crafted), ...fc.sample(reportLinesArb, { numRuns: 6, seed: 8 })].map(
      (lines) => parseReport(toJsonl(lines)),
    );
    const pages: Array<{ html: string; ids: string[] }> = [];
    for (const r of reports) {
      const html = renderHtml([r]);
      const ids = r.cases.map((c) => printable(c.id)).sort();
      pages.push({ html, ids });
      pages.push({ html: html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, ''), ids });
    }
    pages.push({ html: renderHtml(reports.slice(0, 3)), ids: [] });
    expect(pages[1]!.html).not.toContain('Content-Security-Policy');

    // One tab for every page: listeners and the violation recorder are set up once.
    const tab = await browser.newPage();
    const requests: string[] = [];
    const dialogs: string[] = [];
    tab.on('request', (req) => requests.push(req.url()));
    tab.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await tab.addInitScript(() => {
      const w = window as unknown as { violations: string[] };
      w.violations = [];
      document.addEventListener('securitypolicyviolation', (e) => w.violations.push(e.violatedDirective));
    });
    for (const [i, { html, ids }] of pages.entries()) {
      const path = join(tmp, `hostile-${i}.html`);
      writeFileSync(path, html);
      const url = pathToFileURL(path).href;
      requests.length = 0;
      await tab.goto(url, { waitUntil: 'load' });
      const seen = await tab.evaluate(() => ({
        title: document.title,
        pwned: (window as unknown as { pwned?: unknown }).pwned ?? null,
        violations: (window as unknown as { violations: string[] }).violations,
        scripts: document.scripts.length,
        foreign: document.querySelectorAll('img, svg, iframe, link, base, script, object, embed, form')
          .length,
        metas: document.querySelectorAll('meta').length,
        ids: [...document.querySelectorAll('tbody th[scope="row"] code')].map((c) => c.textContent),
      }));
      expect(seen, `page ${i}`).toMatchObject({
        title: 'agent-contracts conformance',
        pwned: null,
        violations: [],
        scripts: 0,
        foreign: 0,
      });
      expect(seen.metas).toBeLessThanOrEqual(2);
      if (ids.length) expect(seen.ids.sort()).toEqual(ids);
      expect(requests, `page ${i}`).toEqual([url]);
    }
    expect(dialogs).toEqual([]);
    await tab.close();
  }, 120_000);
});
