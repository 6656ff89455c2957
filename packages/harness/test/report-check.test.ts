// @module-tag unit
// A report held to the kit's catalogue (report-check.ts) and the renderers agreeing with the
// verdict (issue 20, findings 4 and 5).
import { describe, expect, it } from 'vitest';
import {
  catalogueDigest,
  checkReport,
  isOtelRunsReport,
  OTEL_GATE,
  parseReport,
  renderJunit,
  renderMarkdown,
} from '../src/index.ts';
import { caseLine, jsonl, runLine } from './report-lines.ts';

const kit = { version: '0.0.0', cases: ['a/x/1', 'a/x/2', 'b/y/1'], faults: ['faults/s/1'] };
/** A run line as conform writes it for this catalogue. */
const run = (over: Parameters<typeof runLine>[0] = {}) =>
  runLine({ catalogue: catalogueDigest(kit), ...over });
const summary = (pass: number, fail = 0, over: Record<string, unknown> = {}) => ({
  type: 'summary',
  finishedAt: '2026-12-01T00:00:01.000Z',
  durationMs: 1,
  counts: { pass, fail, error: 0, timeout: 0, crash: 0, 'not-applicable': 0, 'harness-error': 0 },
  conforms: true,
  unexpectedFailures: [],
  stalePassing: [],
  ...over,
});
const read = (lines: unknown[]) => parseReport(jsonl(lines as never));
const refusal = (lines: unknown[]) => {
  try {
    checkReport(read(lines), kit);
  } catch (e) {
    return (e as Error).message;
  }
  return null;
};

describe('checkReport', () => {
  const all = ['a/x/1', 'a/x/2', 'b/y/1', 'faults/s/1'].map((id) => caseLine(id, 'pass'));

  it('accepts a whole run of the catalogue, and a filtered one', () => {
    expect(refusal([run(), ...all, summary(4)])).toBeNull();
    expect(refusal([run({ filter: ['a/*'] }), all[0], all[1], summary(2)])).toBeNull();
    expect(refusal([run({ noFaults: true }), ...all.slice(0, 3), summary(3)])).toBeNull();
  });

  it('refuses an unknown id, an id outside the filter, and a whole run that leaves cases out', () => {
    expect(refusal([run(), ...all, caseLine('z/made/up', 'pass'), summary(5)])).toMatch(
      /"z\/made\/up" is not a case/,
    );
    expect(refusal([run({ filter: ['a/*'] }), all[0], all[2], summary(2)])).toMatch(
      /not selected by the run line/,
    );
    expect(refusal([run(), all[0], all[1], summary(2)])).toMatch(/holds 2 of the 4 cases/);
    // Without a summary line (interrupted, unfinished) a report may hold part of its selection.
    expect(refusal([run(), all[0]])).toBeNull();
  });

  it('expectedFailure only on a fail, and only with a recorded baseline', () => {
    const failing = caseLine('a/x/1', 'fail', { expectedFailure: 'known' });
    const rest = all.slice(1);
    expect(refusal([run(), failing, ...rest, summary(3, 1)])).toMatch(/records no baseline with its sha256/);
    const withBaseline = run({ baseline: 'b.json', baselineSha256: 'a'.repeat(64) });
    expect(refusal([withBaseline, failing, ...rest, summary(3, 1)])).toBeNull();
    const crashed = caseLine('a/x/1', 'crash', { expectedFailure: 'known' });
    expect(refusal([withBaseline, crashed, ...rest, summary(3)])).toMatch(/outcome other than fail/);
  });

  it('another kit version or other conformance data is not held to this catalogue', () => {
    const other = [
      run({ kit: { name: 'agent-contracts', version: '9.9.9' } }),
      caseLine('z/z/z', 'pass'),
      summary(1),
    ];
    expect(checkReport(read(other), kit).catalogueChecked).toBe(false);
    const custom = [run({ catalogue: 'f'.repeat(64) }), caseLine('z/z/z', 'pass'), summary(1)];
    expect(checkReport(read(custom), kit).catalogueChecked).toBe(false);
    const same = [run({ catalogue: catalogueDigest(kit) }), ...all, summary(4)];
    expect(checkReport(read(same), kit).catalogueChecked).toBe(true);
  });
});

describe('an otel check report', () => {
  const runIds = [`otel/${'a'.repeat(32)}/${'b'.repeat(16)}`, `otel/${'c'.repeat(32)}/${'d'.repeat(16)}`];
  const runs = runIds.map((id) => caseLine(id, 'pass', { gate: OTEL_GATE }));
  const own = runLine({ catalogue: catalogueDigest({ cases: runIds, faults: [] }) });

  it('is held to its own runs, not to the golden cases, whatever kit version wrote it', () => {
    expect(checkReport(read([own, ...runs, summary(2)]), kit)).toEqual({
      catalogueChecked: false,
      ownRuns: true,
    });
    const older = runLine({ ...own, kit: { name: 'agent-contracts', version: '9.9.9' } });
    expect(isOtelRunsReport(read([older, ...runs, summary(2)]))).toBe(true);
  });

  it('is not one when a line is not a run of its catalogue, of its gate, or of its id form', () => {
    expect(isOtelRunsReport(read([own, runs[0], summary(1)]))).toBe(false);
    const other = caseLine(runIds[1]!, 'pass', { gate: 'LocalTaskTraceGate' });
    expect(isOtelRunsReport(read([own, runs[0], other, summary(2)]))).toBe(false);
    const ids = ['a/x/1', 'a/x/2'];
    const golden = runLine({ catalogue: catalogueDigest({ cases: ids, faults: [] }) });
    const lines = ids.map((id) => caseLine(id, 'pass', { gate: OTEL_GATE }));
    expect(isOtelRunsReport(read([golden, ...lines, summary(2)]))).toBe(false);
    // A conform report of this kit is checked against its catalogue, and is no otel report.
    const all = ['a/x/1', 'a/x/2', 'b/y/1', 'faults/s/1'].map((id) => caseLine(id, 'pass'));
    expect(checkReport(read([run(), ...all, summary(4)]), kit)).toEqual({
      catalogueChecked: true,
      ownRuns: false,
    });
  });
});

describe('JUnit and Markdown agree with the verdict', () => {
  it('a run that does not conform for a reason no case line shows has an error in JUnit', () => {
    const violations = {
      runViolations: { count: 1, first: [{ code: 'IMPL_UNKNOWN_ID', message: 'golden session 1: id 9' }] },
      conforms: false,
    };
    const report = read([run(), ...['a/x/1'].map((id) => caseLine(id, 'pass')), summary(1, 0, violations)]);
    expect(renderJunit(report)).toMatch(/<testsuite name="run" tests="1" failures="0" errors="1"/);
    expect(renderJunit(report)).toContain('IMPL_UNKNOWN_ID');
    expect(renderMarkdown(report)).toContain('**Does not conform**');
    expect(renderMarkdown(report)).toContain('Protocol violations charged to the run');
  });

  it('a summary that claims conformance with run violations disagrees', () => {
    const report = read([
      run(),
      caseLine('a/x/1', 'pass'),
      summary(1, 0, { runViolations: { count: 1, first: [{ code: 'IMPL_HELLO_CHANGED', message: 'm' }] } }),
    ]);
    expect(renderMarkdown(report)).toContain('**Does not conform**');
  });

  it('expected failures: never an error in JUnit, counted in the Markdown verdict', () => {
    const report = read([
      run({ baseline: 'b.json', baselineSha256: 'a'.repeat(64) }),
      caseLine('a/x/1', 'pass'),
      caseLine('a/x/2', 'fail', { expectedFailure: 'known' }),
      summary(1, 1),
    ]);
    expect(renderMarkdown(report)).toContain(
      '**Conforms** to agent-contracts protocol 1, with 1 expected failure: no capability declared (it never answered hello); 2 of 2 cases applicable.',
    );
    const junit = renderJunit(report);
    expect(junit).toContain('<skipped message="expected failure (fail): known"/>');
    expect(junit).not.toContain('name="run"');
  });
});
