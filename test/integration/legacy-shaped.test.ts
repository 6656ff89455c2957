// @module-tag integration
// @module-tag slow
// A runtime built before the spec (examples/legacy-shaped: the reference, its documents in an
// older shape, and one behaviour bug) learns what it does wrong, not only which field it lacks
// (issue 21). Its control (`--shape=current`: the bug alone) says which cases differ in
// behaviour; against the older shape, every one of them must show a behaviour difference by
// pointer, and the shape must be one cause with its count in the summary and the HTML.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CaseLine, caseDifferences, parseReport, rootCauses } from '@agent-contracts/harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli, tempDir } from './helpers/cli.ts';

const IMPL = `node ${join(repoRoot, 'examples/legacy-shaped/impl.mjs')}`;
/** The acknowledgement cases (the bug), the recovery cards, and store cases whose commits cannot be sent. */
const FILTERS = ['liveness/TurnLivenessStateV1/edge/*', 'liveness/TurnRecoveryCardV1/*', 'store/fence/*'];
const BUG = { pointer: '/result/state/state', expected: '"running"', actual: '"awaiting-continuation"' };
/** The shape cause the test follows: the digest member missing from the state liveness.reset returns. */
const DIGEST =
  "/result/taskOperationSetDigest breaks LivenessStateResult (required: must have required property 'taskOperationSetDigest')";
const tmp = tempDir();

const conform = (impl: string, report: string) =>
  runCli([
    'conform',
    '--impl',
    impl,
    '--no-faults',
    ...FILTERS.flatMap((f) => ['--filter', f]),
    '--report',
    report,
  ]);
const behaviourOf = (c: CaseLine) => caseDifferences(c).filter((d) => d.kind === 'behaviour');

describe('a legacy-shaped implementation: behaviour seen through shape', () => {
  let legacy: { out: string; cases: readonly CaseLine[]; report: string };
  let control: readonly CaseLine[];
  beforeAll(() => {
    const report = join(tmp.dir, 'legacy.jsonl');
    const run = conform(IMPL, report);
    expect(run.status, run.stderr).toBe(1);
    legacy = { out: run.stdout, cases: parseReport(readFileSync(report, 'utf8')).cases, report };
    const controlReport = join(tmp.dir, 'control.jsonl');
    expect(conform(`${IMPL} --shape=current`, controlReport).status).toBe(1);
    control = parseReport(readFileSync(controlReport, 'utf8')).cases;
  }, 300_000);
  afterAll(() => tmp.cleanup());

  it('the control fails only on behaviour, the older shape fails every case', () => {
    const failing = control.filter((c) => c.outcome !== 'pass');
    expect(failing.map((c) => c.id)).toEqual(
      expect.arrayContaining([
        'liveness/TurnLivenessStateV1/edge/awaiting-pre-compact-acknowledges',
        'liveness/TurnLivenessStateV1/edge/awaiting-pre-tool-use-allowed-acknowledges',
        'liveness/TurnLivenessStateV1/edge/awaiting-unknown-host-event-acknowledges',
      ]),
    );
    for (const c of failing)
      expect(
        caseDifferences(c).every((d) => d.kind === 'behaviour'),
        c.id,
      ).toBe(true);
    expect(legacy.cases.length).toBe(control.length);
    // Every case but one whose replies carry no document (refusals with the code alone) fails on shape.
    const passing = legacy.cases.filter((c) => c.outcome === 'pass').map((c) => c.id);
    expect(passing).toEqual(['store/fence/read-identity-required']);
    const shaped = legacy.cases.filter((c) => c.outcome !== 'pass');
    expect(shaped.every((c) => c.outcome === 'fail' && c.differenceCounts!.shape > 0)).toBe(true);
  });

  it('every case whose behaviour differs shows a behaviour difference by pointer through the broken shape', () => {
    const byId = new Map(legacy.cases.map((c) => [c.id, c]));
    const differing = control.filter((c) => c.outcome !== 'pass');
    expect(differing.length).toBeGreaterThan(2);
    for (const c of differing) {
      const seen = behaviourOf(byId.get(c.id)!);
      expect(seen.length, c.id).toBeGreaterThan(0);
      // The bug's own pointer is among them wherever the control shows it.
      if (behaviourOf(c).some((d) => d.pointer === BUG.pointer))
        expect(seen, c.id).toContainEqual({ ...BUG, kind: 'behaviour' });
    }
  });

  it('a case whose behaviour is right shows no behaviour difference: once a step is not sent, the later replies are judged on shape alone', () => {
    const right = new Set(control.filter((c) => c.outcome === 'pass').map((c) => c.id));
    const store = legacy.cases.filter((c) => c.id.startsWith('store/'));
    expect(store.length).toBeGreaterThan(10);
    expect(store.every((c) => right.has(c.id))).toBe(true);
    const seen = legacy.cases
      .filter((c) => right.has(c.id))
      .flatMap((c) => behaviourOf(c).map((d) => ({ id: c.id, ...d })));
    // Only `""` for null where the result schema admits any string (liveness.classify's
    // referenceAt): a real difference of value that no shape check can name.
    expect(seen.filter((d) => !(d.expected === 'null' && d.actual === '""'))).toEqual([]);
    // The reads after a commit that could not be sent say why they are not compared.
    const unsaid = store
      .flatMap((c) => c.afterFailure ?? [])
      .filter((s) => s.detail.startsWith('behaviour not compared'));
    expect(unsaid.length).toBeGreaterThan(0);
    for (const s of unsaid)
      expect(s.detail).toMatch(
        /behaviour not compared: step \d+ (was not sent|carries "\w+", captured from the reply of step \d+ where it breaks its schema), so the state the case expects is not the implementation's; /,
      );
  });

  it('the summary names the bug by pointer and each shape difference once, with its count', () => {
    const causes = rootCauses(legacy.cases.filter((c) => c.outcome !== 'pass'));
    const digest = causes.find((c) => c.text === DIGEST)!;
    const bug = causes.find((c) => c.text === `${BUG.pointer}: expected ${BUG.expected}, got ${BUG.actual}`)!;
    expect(digest.cases.length).toBeGreaterThan(10);
    expect(bug.cases.length).toBeGreaterThan(2);
    const top = legacy.out.slice(legacy.out.indexOf('Top causes'), legacy.out.indexOf('Not passing:'));
    expect(top.split(DIGEST)).toHaveLength(2);
    const entry = top
      .slice(0, top.indexOf(DIGEST))
      .split(/\n {2}\s?\d+\. /)
      .at(-1)!;
    expect(entry).toMatch(new RegExp(`^${digest.cases.length} cases, \\d+ differences in common:`));
    expect(top).toContain(
      `${bug.cases.length} cases  behaviour: ${BUG.pointer}: expected ${BUG.expected}, got ${BUG.actual}`,
    );
    expect(legacy.out).toContain(`behaviour: ${BUG.pointer}: ${BUG.expected} -> ${BUG.actual}`);
  });

  it('the HTML report lists the shape difference once among its top causes, with its count', () => {
    const html = runCli(['report', '--format', 'html', legacy.report]);
    expect(html.status, html.stderr).toBe(0);
    const section = html.stdout.slice(
      html.stdout.indexOf('<section class="causes">'),
      html.stdout.indexOf('</section>', html.stdout.indexOf('<section class="causes">')),
    );
    const count = rootCauses(legacy.cases).find((c) => c.text === DIGEST)!.cases.length;
    // Read as text: the page escapes every string of the report.
    const text = section
      .replace(/&#x27;|&#39;|&apos;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&');
    expect(text.split(DIGEST)).toHaveLength(2);
    expect(text).toContain(
      `<span class="count">${count} cases</span> <span class="kind">shape</span>: <code>${DIGEST}</code>`,
    );
    // The behaviour bug is listed too, before every shape cause.
    const bug = `${BUG.pointer}: expected ${BUG.expected}, got ${BUG.actual}`;
    expect(text).toContain(`<span class="kind">behaviour</span>: <code>${bug}</code>`);
    expect(text.indexOf(bug)).toBeLessThan(text.indexOf('<span class="kind">shape</span>'));
  });
});
