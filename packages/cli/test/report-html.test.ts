// @module-tag integration
// @module-tag slow
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The HTML report, opened in headless Chromium: gates x cases, one column per implementation.
// (Two implementations' runs, one the reference's, in one page: test/integration/report-html.test.ts.)
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseReport, printable, renderHtml } from '@agent-contracts/harness';
import fc from 'fast-check';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, skipWithoutChromium } from './chromium.ts';
import { PAYLOADS, reportLinesArb, toJsonl } from './report-arbitraries.ts';

const skip = skipWithoutChromium('report-html');

const tmp = mkdtempSync(join(tmpdir(), 'report-html-'));

describe.skipIf(skip)('HTML report in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('runs only its own filter script and loads nothing from crafted and random reports, with or without its CSP', async () => {
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

    const filterScript = /<script>([\s\S]*?)<\/script>/.exec(renderHtml([]))![1];
    expect(filterScript).toContain("getElementById('filter')");
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
        scripts: [...document.scripts].map((s) => s.textContent),
        foreign: document.querySelectorAll('img, svg, iframe, link, base, object, embed, form').length,
        metas: document.querySelectorAll('meta').length,
        ids: [...document.querySelectorAll('tbody th[scope="row"] code')].map((c) => c.textContent),
      }));
      expect(seen, `page ${i}`).toMatchObject({
        title: 'agent-contracts conformance',
        pwned: null,
        violations: [],
        // The page's own filter script, the same on every page: nothing from a report in it.
        scripts: [filterScript],
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

/**
 * A report of a small implementation: `na` cases not applicable, 40 passing, 2 failing; with
 * `requirements`, the passing cases name GEN-005 and the first failure TCW-017.
 */
function smallImplementation(name: string, message: string, na = 700, requirements = false) {
  const run = {
    type: 'run',
    reportVersion: 1,
    kit: { name: 'agent-contracts', version: '0.0.0' },
    protocolVersion: 1,
    implementation: { name, version: '1.0', language: 'rust', command: 'x', capabilities: null },
    startedAt: '2026-12-01T00:00:00.000Z',
    filter: [],
    shard: null,
    baseline: null,
  };
  const line = (id: string, gate: string, outcome: string, more = {}) => ({
    type: 'case',
    id,
    gate,
    subject: 'TaskOperationRecordV1',
    level: 'MUST',
    outcome,
    detail: outcome === 'not-applicable' ? 'the implementation does not declare store' : message,
    durationMs: 1,
    title: `title of ${id}`,
    spec: 'docs/spec/task-continuity-write-gate.md#operation-edge-table',
    ...more,
  });
  const cases = [
    ...Array.from({ length: na }, (_, i) =>
      line(`store/na/${i}`, 'TaskContinuityWriteGate', 'not-applicable'),
    ),
    ...Array.from({ length: 40 }, (_, i) =>
      line(`digest/jcs/${i}`, 'Digests', 'pass', requirements ? { requirements: ['GEN-005'] } : {}),
    ),
    line('store/operation/prepared/prepare', 'TaskContinuityWriteGate', 'fail', {
      ...(requirements ? { requirements: ['TCW-017'] } : {}),
      failedStep: 1,
      differences: [{ pointer: '/result/status', expected: '"committed"', actual: JSON.stringify(message) }],
      afterFailure: [
        { index: 2, method: 'store.read', outcome: 'pass', detail: 'as expected' },
        {
          index: 5,
          method: 'store.history',
          outcome: 'fail',
          detail: message,
          differences: [{ pointer: '/result/0/commitKind', expected: '"owner-acquire"', actual: '"x"' }],
        },
      ],
      stderrTail: `panic: ${message}\n`,
    }),
    line('validate/X/invalid/y', 'TaskContinuityWriteGate', 'error', { stderrTail: message }),
  ];
  const counts = { pass: 40, fail: 1, error: 1, timeout: 0, crash: 0, 'not-applicable': na };
  const summary = {
    type: 'summary',
    finishedAt: '2026-12-01T00:01:00.000Z',
    durationMs: 60_000,
    counts,
    conforms: false,
    unexpectedFailures: ['store/operation/prepared/prepare', 'validate/X/invalid/y'],
    stalePassing: [],
  };
  return parseReport(toJsonl([run, ...cases, summary]));
}

describe.skipIf(skip)('HTML report: what a person reads first', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  const open = async (html: string, name: string) => {
    const path = join(tmp, `${name}.html`);
    writeFileSync(path, html);
    const tab = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await tab.goto(pathToFileURL(path).href);
    return tab;
  };

  it('shows the verdict and counts on the first screen; a failure shows its headline and differences without a click; the filter hides rows', async () => {
    const tab = await open(renderHtml([smallImplementation('small-impl', 'status differs')]), 'small');
    const inView = (selector: string) =>
      tab.$eval(selector, (e) => {
        const r = e.getBoundingClientRect();
        return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;
      });
    expect(await tab.$eval('#summary .verdict', (e) => e.textContent)).toMatch(
      /^does not conform: .+; \d+ of \d+ cases applicable$/,
    );
    expect(await inView('#summary .verdict')).toBe(true);
    expect(await inView('#summary .counts')).toBe(true);
    expect(await tab.$eval('#summary .counts', (e) => e.textContent)).toBe(
      '40 pass · 1 fail · 1 error · 0 timeout · 0 crash · 700 not applicable',
    );
    expect(await tab.$$eval('#summary meter', (ms) => ms.map((m) => (m as HTMLMeterElement).value))).toEqual([
      0, 40,
    ]);
    // Failures first: the first failure's line is on the first screen too, open.
    expect(await inView('details.case > summary')).toBe(true);
    const failure = tab.locator('details.case', { hasText: 'store/operation/prepared/prepare' });
    expect(await failure.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    expect(await failure.locator('p.detail').isVisible()).toBe(true);
    expect(await failure.locator('table.diff').first().isVisible()).toBe(true);
    const cells = await failure
      .locator('table.diff tbody tr')
      .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)));
    expect(cells).toEqual([
      ['', '/result/status', '"committed"', '"status differs"'],
      ['', '/result/0/commitKind', '"owner-acquire"', '"x"'],
    ]);
    // A click folds it.
    await failure.locator('summary').click();
    expect(await failure.locator('table.diff').first().isVisible()).toBe(false);
    await failure.locator('summary').click();
    expect(await failure.locator('pre.stderr').textContent()).toBe('panic: status differs\n');
    expect(await failure.textContent()).toContain(
      'docs/spec/task-continuity-write-gate.md#operation-edge-table',
    );
    // Passing and not applicable cases are collapsed.
    expect(
      await tab.$$eval('details.collapsed', (ds) => ds.map((d) => (d as HTMLDetailsElement).open)),
    ).toEqual([false, false]);
    // The filter hides what does not match: here every case but the failures of one gate.
    const shown = () =>
      tab.$$eval(
        '#matrix tbody tr[data-case], details.case',
        (es) => es.filter((e) => !(e as HTMLElement).hidden).length,
      );
    expect(await shown()).toBe(742 + 2);
    await tab.fill('#filter', 'fail taskcontinuitywritegate');
    expect(await shown()).toBe(2);
    expect(await tab.locator('details.case', { hasText: 'validate/X/invalid/y' }).isHidden()).toBe(true);
    expect(await tab.textContent('#shown')).toMatch(/^2 of 1484 shown$/);
    await tab.fill('#filter', '');
    expect(await shown()).toBe(744);
    await tab.close();
  }, 120_000);

  it('shows requirement coverage on the first screen and the requirement ids of each failure', async () => {
    const requirement = (id: string, gate: string) => ({
      id,
      level: 'MUST' as const,
      gate,
      page: 'docs/spec/index.md',
      anchor: 'a',
      sentence: 's',
      withdrawn: false,
      codes: [],
    });
    const catalogue = [
      requirement('GEN-005', 'Conventions'),
      requirement('TCW-017', 'TaskContinuityWriteGate'),
      requirement('TCW-003', 'TaskContinuityWriteGate'),
    ];
    const report = smallImplementation('small-impl', 'status differs', 700, true);
    const tab = await open(renderHtml([report], { catalogue }), 'coverage');
    expect(await tab.$eval('#summary p.coverage', (e) => e.textContent)).toBe(
      'Requirement coverage: 1/3 requirements tested by a passing case',
    );
    const r = await tab.$eval('#summary p.coverage', (e) => e.getBoundingClientRect().bottom);
    expect(r).toBeLessThanOrEqual(720);
    const failure = tab.locator('details.case', { hasText: 'store/operation/prepared/prepare' });
    expect(await failure.locator('p.requirements').isVisible()).toBe(true);
    expect(await failure.locator('p.requirements').textContent()).toBe('Requirements: TCW-017');
    // Without a catalogue the page says nothing about coverage rather than inventing a total.
    expect(renderHtml([report])).not.toContain('Requirement coverage');
    await tab.close();
  }, 120_000);

  it('an implementation whose name and messages carry markup changes nothing in the page but the text', async () => {
    const tab = await browser.newPage();
    const shape = async (name: string, message: string, file: string) => {
      const path = join(tmp, `${file}.html`);
      writeFileSync(path, renderHtml([smallImplementation(name, message, 5)]));
      await tab.goto(pathToFileURL(path).href);
      return tab.evaluate(() => ({
        tags: [...document.querySelectorAll('*')].map((e) => e.tagName).join(' '),
        heading: document.querySelector('#summary h2')?.textContent,
        pwned: (window as unknown as { pwned?: unknown }).pwned ?? null,
        title: document.title,
      }));
    };
    const plain = await shape('plain', 'plain', 'plain');
    for (const [i, payload] of PAYLOADS.entries()) {
      const evil = await shape(payload, payload, `evil-${i}`);
      expect(evil.tags, payload).toBe(plain.tags);
      expect(evil.heading).toBe(`${printable(payload)} 1.0 (rust)`);
      expect(evil).toMatchObject({ pwned: null, title: 'agent-contracts conformance' });
    }
    await tab.close();
  }, 120_000);
});

describe.skipIf(skip)('HTML report: root causes', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  /** Five cases failing on one shape cause; two of them also on one behaviour cause. */
  function legacyLike() {
    const run = {
      type: 'run',
      reportVersion: 1,
      kit: { name: 'agent-contracts', version: '0.0.0' },
      protocolVersion: 1,
      implementation: { name: 'legacy', version: '1', language: 'node', command: 'x', capabilities: null },
      startedAt: '2026-12-01T00:00:00.000Z',
      filter: [],
      shard: null,
      baseline: null,
    };
    const shape = {
      pointer: '/result/envelope/taskOperationSetDigest',
      keyword: 'required',
      schema: 'StoreReadResult',
      message: "must have required property 'taskOperationSetDigest'",
      kind: 'shape',
    };
    const behaviour = {
      pointer: '/result/state/state',
      expected: '"running"',
      actual: '"awaiting-continuation"',
      kind: 'behaviour',
    };
    const cases = Array.from({ length: 5 }, (_, i) => ({
      type: 'case',
      id: `store/case-${i}`,
      gate: 'TaskContinuityWriteGate',
      subject: 'TaskRecoveryStateV5',
      level: 'MUST',
      outcome: 'fail',
      detail: `step 1 (store.read): the reply breaks its schema: headline-${i}`,
      durationMs: 1,
      failedStep: 0,
      differences: i < 2 ? [shape, behaviour] : [shape],
      differenceCounts: { shape: 1, behaviour: i < 2 ? 1 : 0 },
      reply: { expected: 'the result {"ok":true}', received: `{"result":{"n":${i}}}` },
    }));
    const summary = {
      type: 'summary',
      finishedAt: '2026-12-01T00:01:00.000Z',
      durationMs: 1,
      counts: { pass: 0, fail: 5, error: 0, timeout: 0, crash: 0, 'not-applicable': 0 },
      conforms: false,
      unexpectedFailures: cases.map((c) => c.id),
      stalePassing: [],
    };
    return parseReport(toJsonl([run, ...cases, summary]));
  }

  it('lists each cause once with its count and links to its cases, before the failures; the filter finds pointers and headlines', async () => {
    const path = join(tmp, 'causes.html');
    writeFileSync(path, renderHtml([legacyLike()]));
    const tab = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await tab.goto(pathToFileURL(path).href);
    const causes = await tab.$$eval('section.causes li', (lis) => lis.map((li) => li.textContent));
    expect(causes).toEqual([
      // What the implementation did comes before its shape, however many cases the shape fails.
      '2 cases behaviour: /result/state/state: expected "running", got "awaiting-continuation"store/case-0, store/case-1',
      "5 cases shape: /result/envelope/taskOperationSetDigest breaks StoreReadResult (required: must have required property 'taskOperationSetDigest')store/case-0, store/case-1, store/case-2, store/case-3, store/case-4",
    ]);
    // The causes come before the failures, and link to them.
    const order = await tab.$$eval('section.causes, section.details', (ss) => ss.map((s) => s.className));
    expect(order).toEqual(['causes', 'details']);
    await tab.click('section.causes li:nth-child(2) a:nth-child(2)');
    expect(await tab.evaluate(() => location.hash)).toBe('#case-0-1');
    // Under each case its own differences, each with its layer and its cause, and its reply.
    const second = tab.locator('#case-0-1');
    expect(
      await second
        .locator('table.diff tbody tr')
        .evaluateAll((rows) => rows.map((r) => r.querySelector('td')!.textContent)),
    ).toEqual(['shape', 'behaviour']);
    expect(await second.textContent()).toContain('cause 2 (5 cases)');
    expect(await second.textContent()).toContain('cause 1 (2 cases)');
    expect(await second.locator('p.reply').textContent()).toBe(
      'expected: the result {"ok":true}received: {"result":{"n":1}}',
    );
    expect(await tab.locator('#case-0-3 table.diff tbody tr').count()).toBe(1);
    const shown = () =>
      tab.$$eval('details.case', (es) => es.filter((e) => !(e as HTMLElement).hidden).map((e) => e.id));
    await tab.fill('#filter', '/result/state/state');
    expect(await shown()).toEqual(['case-0-0', 'case-0-1']);
    await tab.fill('#filter', 'headline-3');
    expect(await shown()).toEqual(['case-0-3']);
    await tab.close();
  }, 120_000);
});
