// @module-tag unit
// A report's verdict comes from its case lines; the summary line can take it away, never give it.
import { describe, expect, it } from 'vitest';
import { judgeReport, parseReport } from '../src/index.ts';
import { caseLine, jsonl, reportText, runLine, summaryLine } from './report-lines.ts';

const judge = (text: string) => judgeReport(parseReport(text));
const pass = caseLine('validate/a', 'pass');
const fail = caseLine('validate/b', 'fail');

describe('judgeReport', () => {
  it('conforms when the case lines and an agreeing summary both say so', () => {
    expect(judge(reportText([pass, caseLine('n', 'not-applicable')]))).toEqual({
      verdict: 'conforms',
      counts: { pass: 1, fail: 0, error: 0, timeout: 0, crash: 0, 'not-applicable': 1, 'harness-error': 0 },
      unexpectedFailures: [],
      warnings: [],
      disagreements: [],
    });
  });

  it('a failed SHOULD case is a warning unless the summary says the run was strict', () => {
    const should = { ...fail, level: 'SHOULD' };
    const lenient = judge(
      jsonl([
        runLine(),
        pass,
        should,
        summaryLine([pass, should], { conforms: true, unexpectedFailures: [], warnings: [should.id] }),
      ]),
    );
    expect(lenient).toMatchObject({ verdict: 'conforms', unexpectedFailures: [], warnings: [should.id] });
    const strict = judge(
      jsonl([
        runLine(),
        pass,
        should,
        summaryLine([pass, should], { conforms: true, strict: true, unexpectedFailures: [should.id] }),
      ]),
    );
    expect(strict.verdict).toBe('does-not-conform');
    expect(strict.unexpectedFailures).toEqual([should.id]);
    expect(strict.disagreements).toEqual(['the summary claims the run conforms, but the case lines do not']);
  });

  it('reads a summary written before harness-error existed (no count for it) as 0 of them', () => {
    const cases = [pass];
    const { 'harness-error': _, ...older } = summaryLine(cases).counts;
    const j = judge(jsonl([runLine(), ...cases, summaryLine(cases, { counts: older })]));
    expect(j.verdict).toBe('conforms');
    expect(j.disagreements).toEqual([]);
  });

  it('does not conform when a summary claims conforms beside a failing case', () => {
    const j = judge(jsonl([runLine(), pass, fail, summaryLine([pass], { conforms: true })]));
    expect(j.verdict).toBe('does-not-conform');
    expect(j.unexpectedFailures).toEqual(['validate/b']);
    expect(j.disagreements).toEqual([
      'the summary counts 0 fail, the case lines 1 fail',
      'the summary lists 0 unexpected failure(s), the case lines show 1',
      'the summary claims the run conforms, but the case lines do not',
    ]);
  });

  it.each(['error', 'timeout', 'crash'] as const)('counts an unexpected %s against the claim', (outcome) => {
    const cases = [pass, caseLine('x', outcome)];
    const j = judge(
      jsonl([runLine(), ...cases, summaryLine(cases, { conforms: true, unexpectedFailures: ['x'] })]),
    );
    expect(j.verdict).toBe('does-not-conform');
    expect(j.disagreements).toEqual(['the summary claims the run conforms, but the case lines do not']);
  });

  it('does not conform when the summary claims conforms and no case applied', () => {
    const cases = [caseLine('n', 'not-applicable')];
    const j = judge(jsonl([runLine(), ...cases, summaryLine(cases, { conforms: true })]));
    expect(j.verdict).toBe('does-not-conform');
    expect(j.disagreements).toEqual(['the summary claims the run conforms, but no case applied']);
  });

  it('conforms with failures the baseline expects, and not with stale entries', () => {
    const expected = caseLine('validate/b', 'fail', { expectedFailure: 'known' });
    expect(judge(reportText([pass, expected])).verdict).toBe('conforms');
    const stale = jsonl([
      runLine(),
      pass,
      summaryLine([pass], { conforms: true, stalePassing: ['validate/*'] }),
    ]);
    expect(judge(stale).verdict).toBe('does-not-conform');
  });

  it('keeps a summary that says "does not conform" although every case passed', () => {
    // e.g. a protocol violation outside any case: the summary may know more than the cases.
    const j = judge(jsonl([runLine(), pass, summaryLine([pass], { conforms: false })]));
    expect(j).toMatchObject({ verdict: 'does-not-conform', disagreements: [] });
  });

  it('is incomplete without a summary line, however well the cases went', () => {
    expect(judge(jsonl([runLine(), pass])).verdict).toBe('incomplete');
  });
});
