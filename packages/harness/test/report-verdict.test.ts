// @module-tag unit
// A report's verdict comes from its case lines; the summary line can take it away, never give it.
import { describe, expect, it } from 'vitest';
import { judgeReport, parseReport, scopedVerdictText, scopeText, verdictScope } from '../src/index.ts';
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
      scope: { capabilities: null, applicable: 1, total: 2 },
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

describe('the scope of a verdict', () => {
  const caps = {
    contracts: ['TaskContractV1', 'ToolContractV1', 'EvaluationReportV1', 'TaskRecoveryStateV5'],
    bundles: ['context-acquisition'],
    digest: true,
    store: false,
    liveness: false,
    checkpoint: true,
    trace: false,
    clock: false,
    crashPoints: [],
  };
  const declared = runLine({ implementation: { ...runLine().implementation, capabilities: caps } });
  const explored = caseLine('explore/digest', 'pass', { explore: { seed: 1, runs: 1, steps: 1 } });

  it('names what hello declared and counts the applicable cases and scenarios, explorations aside', () => {
    const cases = [pass, caseLine('n', 'not-applicable'), caseLine('faults/x', 'not-applicable'), explored];
    const scope = verdictScope(declared, cases);
    expect(scope).toEqual({
      capabilities: [
        'contract:TaskContractV1',
        'contract:ToolContractV1',
        'contract:EvaluationReportV1',
        'contract:TaskRecoveryStateV5',
        'bundle:context-acquisition',
        'digest',
        'checkpoint',
      ],
      applicable: 1,
      total: 3,
    });
    // A list of more than three names is counted; up to three are named.
    expect(scopeText(scope)).toBe(
      '4 contracts, bundle:context-acquisition, digest, checkpoint; 1 of 3 cases applicable',
    );
    expect(scopedVerdictText({ verdict: 'conforms', scope })).toBe(
      'conforms: 4 contracts, bundle:context-acquisition, digest, checkpoint; 1 of 3 cases applicable',
    );
    expect(scopedVerdictText({ verdict: 'incomplete', scope })).toMatch(/^incomplete \(/);
  });

  it('says when nothing was declared, and when hello was never answered', () => {
    expect(scopeText({ capabilities: [], applicable: 0, total: 1 })).toBe(
      'no capability declared; 0 of 1 case applicable',
    );
    expect(scopeText({ capabilities: null, applicable: 5, total: 5 })).toBe(
      'no capability declared (it never answered hello); 5 of 5 cases applicable',
    );
  });

  it('bounds what a report file declares: long names cut, at most 24 named', () => {
    const flags = Array.from({ length: 30 }, (_, i) => `x${i}${'y'.repeat(200)}`);
    const text = scopeText({ capabilities: flags, applicable: 1, total: 1 });
    expect(text).toContain(' and 6 more; 1 of 1 case applicable');
    expect(text.length).toBeLessThan(24 * 82 + 60);
  });

  it('a summary whose scope disagrees with the run and case lines does not conform', () => {
    const cases = [pass, caseLine('n', 'not-applicable')];
    const scope = verdictScope(declared, cases);
    const agreeing = judge(jsonl([declared, ...cases, summaryLine(cases, { scope })]));
    expect(agreeing).toMatchObject({ verdict: 'conforms', disagreements: [] });
    const inflated = judge(
      jsonl([declared, ...cases, summaryLine(cases, { scope: { ...scope, applicable: 2 } })]),
    );
    expect(inflated.verdict).toBe('does-not-conform');
    expect(inflated.disagreements).toEqual([
      'the summary scopes the verdict to 4 contracts, bundle:context-acquisition, digest, checkpoint; 2 of 2 cases applicable, the run and case lines to 4 contracts, bundle:context-acquisition, digest, checkpoint; 1 of 2 cases applicable',
    ]);
    const other = judge(
      jsonl([declared, ...cases, summaryLine(cases, { scope: { ...scope, capabilities: ['digest'] } })]),
    );
    expect(other.verdict).toBe('does-not-conform');
  });
});
