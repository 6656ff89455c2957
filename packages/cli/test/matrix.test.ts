// @module-tag integration
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// `agent-contracts matrix`: implementations x gates from JSONL reports, as Markdown and as HTML
// (opened in headless Chromium), the fault matrix included; hostile reports change nothing but text.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  compatibilityMatrix,
  MATRIX_LIMITS,
  parseReport,
  printable,
  renderMatrixHtml,
  renderMatrixMarkdown,
  truncated,
} from '@agent-contracts/harness';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { launchChromium, skipWithoutChromium } from './chromium.ts';
import { memoryIo, runCli } from './helpers.ts';
import { PAYLOADS, toJsonl } from './report-arbitraries.ts';
import { kase, run, summary } from './report-lines.ts';

const tmp = mkdtempSync(join(tmpdir(), 'matrix-'));
/** The CLI as a process (its bundle: tooling/test-helpers/run-cli.ts), without colour. */
const cli = (...args: string[]) => runCli(args, { env: { NO_COLOR: '1' } });

/** The CLI in this process (the subprocess `cli` is kept for the page the browser opens). */
async function matrix(...args: string[]) {
  const io = memoryIo();
  const status = await main(['matrix', ...args], io);
  return { status, stdout: io.stdout, stderr: io.stderr };
}

/** A report: `name` passes the run cases, fails `failing` of them, and runs two fault scenarios. */
function implementation(name: string, failing: number, message = 'status differs', language = 'rust') {
  const cases = [
    ...Array.from({ length: 5 }, (_, i) =>
      kase(`run/RunStateV1/case-${i}`, i < failing ? 'fail' : 'pass', {
        gate: 'RunControlGate',
        subject: 'RunStateV1',
        detail: i < failing ? message : 'as expected',
        requirements: ['RUN-017'],
      }),
    ),
    kase('policy/PermissionDecisionV1/allow', 'not-applicable', {
      gate: 'PermissionPolicyGate',
      subject: 'PermissionDecisionV1',
      detail: 'the implementation does not declare policy',
    }),
    kase('faults/store/concurrent-writers', failing ? 'crash' : 'pass', {
      subject: 'fault-matrix',
      detail: failing ? message : 'passed',
    }),
    kase('faults/liveness/stall', 'pass', { gate: 'TurnLivenessRecoveryGate', subject: 'fault-matrix' }),
  ];
  const bad = cases.filter((c) => c.outcome === 'fail' || c.outcome === 'crash').map((c) => c.id);
  return [
    { ...run, implementation: { ...run.implementation, name, language } },
    ...cases,
    summary({
      counts: {
        pass: cases.filter((c) => c.outcome === 'pass').length,
        fail: cases.filter((c) => c.outcome === 'fail').length,
        error: 0,
        timeout: 0,
        crash: cases.filter((c) => c.outcome === 'crash').length,
        'not-applicable': 1,
      },
      conforms: bad.length === 0,
      unexpectedFailures: bad,
    }),
  ];
}

const write = (file: string, lines: readonly unknown[]) => {
  const path = join(tmp, file);
  writeFileSync(path, toJsonl(lines));
  return path;
};

describe('agent-contracts matrix', () => {
  const good = write('good.jsonl', implementation('good-impl', 0));
  const bad = write('bad.jsonl', implementation('bad-impl', 2));

  it('renders Markdown: one column per report, a row per gate and the fault matrix, failures linked', async () => {
    const r = await matrix('--format', 'markdown', good, bad);
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines).toContain('| Gate | good-impl 1 (rust) | bad-impl 1 (rust) |');
    // Each verdict with its scope: what was declared, how many cases applied of all (the
    // punctuation escaped for Markdown).
    const scope = 'no capability declared (it never answered hello); 7 of 8 cases applicable';
    const verdicts = lines.find((l) => l.startsWith('| Verdict |'))?.replace(/\\(.)/g, '$1');
    expect(verdicts).toBe(`| Verdict | conforms: ${scope} | does not conform: ${scope} |`);
    const runRow = lines.find((l) => l.startsWith('| RunControlGate |'));
    // The catalogue is the kit's own: RUN-017 is one of the gate's requirements.
    expect(runRow).toMatch(
      /^\| RunControlGate \| 5\/5 pass · requirements 1\/\d+ \| 3\/5 pass · \[2 not passing\]\(#failures-1-\d+\) · requirements 1\/\d+ \|$/,
    );
    const anchor = /\(#(failures-1-\d+)\)/.exec(runRow!)![1]!;
    const at = lines.indexOf(`<a id="${anchor}"></a>`);
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(at + 2, at + 6)).toEqual([
      '### bad-impl 1: RunControlGate, 2 not passing',
      '',
      '- **fail** run/RunStateV1/case-0: status differs',
      '- **fail** run/RunStateV1/case-1: status differs',
    ]);
    expect(lines.find((l) => l.startsWith('| PermissionPolicyGate |'))).toMatch(
      /^\| PermissionPolicyGate \| n\/a \(1\)/,
    );
    expect(lines.find((l) => l.startsWith('| **Fault matrix** |'))).toMatch(
      /^\| \*\*Fault matrix\*\* \| 2\/2 pass \| 1\/2 pass · \[1 not passing\]\(#failures-1-\d+\) \|$/,
    );
    expect(lines).toContain(
      '| faults/store/concurrent-writers | TaskContinuityWriteGate | pass | **crash** |',
    );
    // --no-details: ids and outcomes only, no free text from the report.
    const bare = await matrix('--format', 'markdown', '--no-details', good, bad);
    expect(bare.stdout).toContain('- **fail** run/RunStateV1/case-0\n');
    expect(bare.stdout).not.toContain('status differs');
  });

  it('without details, depends on outcomes only: times, dates, commands and detail texts change nothing', () => {
    const lines = implementation('bad-impl', 2);
    const other = lines.map((l) => {
      const line = l as Record<string, unknown>;
      if (line.type === 'run')
        return {
          ...line,
          startedAt: '2030-01-01T00:00:00.000Z',
          implementation: { ...(line.implementation as object), command: '/somewhere/else impl' },
        };
      if (line.type === 'case')
        return { ...line, durationMs: 99_999, detail: 'timed out after 10000 ms at 22:31' };
      return { ...line, finishedAt: '2030-01-01T00:10:00.000Z', durationMs: 600_000 };
    });
    const render = (l: readonly unknown[]) =>
      renderMatrixMarkdown(compatibilityMatrix([parseReport(toJsonl(l))]), { details: false });
    expect(render(other)).toBe(render(lines));
    expect(render(lines)).not.toMatch(/\d{4}-\d{2}-\d{2}|\d+ ms/);
  });

  it('refuses what it cannot render, with a code and what to do', async () => {
    const none = await matrix();
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('USAGE_MISSING_ARGUMENT');
    expect((await matrix('--format', 'pdf', good)).stderr).toContain('USAGE_BAD_VALUE');
    expect((await matrix('--format', 'html', '--no-details', good)).stderr).toContain('USAGE_BAD_VALUE');
    const many = await matrix(...Array.from({ length: MATRIX_LIMITS.maxReports + 1 }, () => good));
    expect(many.status).toBe(2);
    expect(many.stderr).toContain(`at most ${MATRIX_LIMITS.maxReports} reports`);
    const notReport = join(tmp, 'not-a-report.jsonl');
    writeFileSync(notReport, '{"type":"run"}\n');
    const invalid = await matrix(good, notReport);
    expect(invalid.status).toBe(2);
    expect(invalid.stderr).toContain('REPORT_INVALID');
    const cut = write('cut.jsonl', implementation('cut', 0).slice(0, -1));
    expect((await matrix(cut)).stderr).toContain('REPORT_INCOMPLETE');
    expect((await matrix('--allow-incomplete', '--format', 'markdown', cut)).stdout).toContain(
      '| Verdict | incomplete (no summary line',
    );
    const help = await matrix('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: agent-contracts matrix');
  });

  it('escapes hostile Markdown: every table row keeps its cells, no tag or link from a report survives', () => {
    for (const payload of PAYLOADS) {
      const report = parseReport(toJsonl(implementation(payload, 2, payload, payload)));
      const text = renderMatrixMarkdown(compatibilityMatrix([report, report]));
      // Each table (consecutive rows) keeps one cell count: no `|` from a report splits a cell.
      const tables = text
        .split(/\n(?!\|)/)
        .map((block) => block.split('\n').filter((l) => l.startsWith('|')));
      for (const rows of tables.filter((t) => t.length)) {
        const cells = rows.map((l) => l.replace(/\\\\/g, '').split(/(?<!\\)\|/).length);
        expect(new Set(cells).size, `${payload}: ${rows.join('\n')}`).toBe(1);
      }
      expect(text.replace(/<a id="failures-\d+-\d+"><\/a>/g, '')).not.toMatch(/(?<!\\)</);
      expect(text).not.toMatch(/(?<!\\)\]\((?!#failures-)/);
    }
  });
});

const skip = skipWithoutChromium('matrix-html');

describe.skipIf(skip)('the matrix page in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('shows implementations x gates, each failing cell a link to its failures, and the fault matrix', async () => {
    const good = write('page-good.jsonl', implementation('good-impl', 0));
    const bad = write('page-bad.jsonl', implementation('bad-impl', 2));
    const html = cli('matrix', good, bad);
    expect(html.status, html.stderr).toBe(0);
    const page = join(tmp, 'matrix.html');
    writeFileSync(page, html.stdout);
    const tab = await browser.newPage();
    await tab.goto(pathToFileURL(page).href);
    const heads = await tab.$$eval('#matrix thead th', (ths) => ths.map((t) => t.textContent));
    const scope = 'no capability declared (it never answered hello); 7 of 8 cases applicable';
    expect(heads).toEqual([
      'gate',
      `good-impl 1rust · conforms: ${scope}`,
      `bad-impl 1rust · does not conform: ${scope}`,
    ]);
    const row = (gate: string) =>
      tab.$$eval(
        '#matrix tbody tr',
        (rows, gate) => {
          const r = rows.find((x) => x.querySelector('th')?.textContent === gate);
          return r ? [...r.querySelectorAll('td')].map((td) => [td.className, td.textContent]) : null;
        },
        gate,
      );
    const runRow = await row('RunControlGate');
    expect(runRow?.map(([c]) => c)).toEqual(['all-pass', 'some-fail']);
    expect(runRow?.[1]?.[1]).toMatch(/^3\/5 pass · 2 not passingrequirements 1\/\d+$/);
    expect((await row('PermissionPolicyGate'))?.map(([c]) => c)).toEqual(['none', 'none']);
    expect((await row('Fault matrix'))?.map(([c, t]) => [c, t])).toEqual([
      ['all-pass', '2/2 pass'],
      ['some-fail', '1/2 pass · 1 not passing'],
    ]);
    const colour = await tab.$eval('#matrix td.some-fail', (td) => getComputedStyle(td).backgroundColor);
    expect(colour).toBe('rgb(248, 208, 208)');
    // The failing cell's link leads to its failures.
    await tab.click('#matrix td.some-fail a');
    const target = await tab.evaluate(() => {
      const s = document.querySelector(':target');
      return s ? [...s.querySelectorAll('li code')].map((c) => c.textContent) : null;
    });
    expect(target).toEqual(['run/RunStateV1/case-0', 'run/RunStateV1/case-1']);
    const scenarios = await tab.$$eval('#scenarios tbody tr', (rows) =>
      rows.map((r) => [...r.children].map((c) => c.textContent)),
    );
    expect(scenarios).toEqual([
      ['faults/liveness/stall', 'TurnLivenessRecoveryGate', 'pass', 'pass'],
      ['faults/store/concurrent-writers', 'TaskContinuityWriteGate', 'pass', 'crash'],
    ]);
    await tab.close();
  }, 120_000);

  it('runs no script and loads nothing from hostile reports; their strings change only text', async () => {
    const tab = await browser.newPage();
    const requests: string[] = [];
    const dialogs: string[] = [];
    tab.on('request', (req) => requests.push(req.url()));
    tab.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const shape = async (payload: string, i: number) => {
      const reports = [implementation(payload, 2, payload, payload), implementation('plain', 1)].map((l) =>
        parseReport(toJsonl(l)),
      );
      const path = join(tmp, `hostile-${i}.html`);
      writeFileSync(path, renderMatrixHtml(compatibilityMatrix(reports)));
      requests.length = 0;
      await tab.goto(pathToFileURL(path).href, { waitUntil: 'load' });
      expect(requests, payload).toEqual([pathToFileURL(path).href]);
      return tab.evaluate(() => ({
        tags: [...document.querySelectorAll('*')].map((e) => e.tagName).join(' '),
        heading: document.querySelector('#matrix thead th:nth-child(2)')?.firstChild?.textContent,
        scripts: document.scripts.length,
        pwned: (window as unknown as { pwned?: unknown }).pwned ?? null,
        title: document.title,
      }));
    };
    const plain = await shape('plain-name', -1);
    for (const [i, payload] of PAYLOADS.entries()) {
      const seen = await shape(payload, i);
      expect(seen.tags, payload).toBe(plain.tags);
      expect(seen.heading).toBe(`${printable(truncated(payload, MATRIX_LIMITS.maxName))} 1`);
      expect(seen).toMatchObject({ scripts: 0, pwned: null, title: 'agent-contracts compatibility matrix' });
    }
    expect(dialogs).toEqual([]);
    await tab.close();
  }, 120_000);
});
