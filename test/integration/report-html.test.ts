// @module-tag integration
// @module-tag slow
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The HTML report, opened in headless Chromium: gates x cases, one column per implementation, for
// a run of the reference implementation (examples/reference-node) and one of the harness's liar.
// The rest of the page is the CLI's own test (packages/cli/test/report-html.test.ts).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, REFERENCE, runCli, skipWithoutChromium } from './helpers/cli.ts';

const skip = skipWithoutChromium('report-html');

const repo = fileURLToPath(new URL('../../', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'report-html-'));
/** The CLI as a process (its bundle: tooling/test-helpers/run-cli.ts), without colour. */
const cli = (...args: string[]) => runCli(args, { env: { NO_COLOR: '1' } });

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
    const ref = REFERENCE;
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
          `#matrix tbody tr`,
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
      const colour = await tab.$eval('#matrix td.fail', (td) => getComputedStyle(td).backgroundColor);
      expect(colour).toBe('rgb(248, 208, 208)');
      await tab.screenshot({ path: join(tmp, 'report.png'), fullPage: true });
      await tab.close();
    }
  }, 120_000);
});
