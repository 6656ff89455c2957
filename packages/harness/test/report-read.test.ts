// @module-tag unit
// parseReport refuses, with REPORT_INVALID, the line and the JSON Pointer, every report that
// breaks schemas/harness/ReportLine.schema.json or the order conform writes, within bounds.
import { describe, expect, it } from 'vitest';
import { parseReport, REPORT_LIMITS, ReportError } from '../src/index.ts';
import { caseLine, jsonl, reportText, runLine, summaryLine } from './report-lines.ts';

function refusal(text: string, limits = REPORT_LIMITS): ReportError {
  try {
    parseReport(text, 'run.jsonl', limits);
  } catch (e) {
    expect(e).toBeInstanceOf(ReportError);
    return e as ReportError;
  }
  throw new Error('the report was accepted');
}

const pass = caseLine('validate/a', 'pass');

describe('parseReport', () => {
  it('reads a report as conform writes it, blank lines and CRLF line ends included', () => {
    const cases = [pass, caseLine('validate/b', 'fail')];
    const text = reportText(cases).replace(/\n/g, '\r\n').replace('\r\n', '\r\n\r\n');
    const r = parseReport(text);
    expect(r.cases.map((c) => c.id)).toEqual(['validate/a', 'validate/b']);
    expect(r.summary?.counts.fail).toBe(1);
  });

  it('accepts a report without a summary line (judged incomplete, not invalid)', () => {
    expect(parseReport(jsonl([runLine(), pass])).summary).toBeNull();
  });

  it.each([
    [
      'an outcome carrying markup',
      { outcome: 'pass"><img src=x onerror="document.title=\'pwned\'">' },
      '/outcome',
      /must be one of "crash", "error", "fail", "harness-error", "not-applicable", "pass", "timeout"/,
    ],
    ['a non-string detail', { detail: 42 }, '/detail', /must be of type string/],
    ['a non-string id', { id: { toString: 1 } }, '/id', /must be of type string/],
    ['a negative-looking duration', { durationMs: '3' }, '/durationMs', /must be of type number/],
    ['an extra property', { script: '<script>' }, '/script', /does not define/],
  ])('refuses a case line with %s', (_what, over, pointer, message) => {
    const e = refusal(jsonl([runLine(), { ...pass, ...over }]));
    expect(e.code).toBe('REPORT_INVALID');
    expect(e.line).toBe(2);
    expect(e.pointer).toBe(pointer);
    expect(e.message).toMatch(message);
    expect(e.message).toMatch(/^run\.jsonl: line 2: .*ReportLine\.schema\.json.*rerun conform/);
  });

  it('refuses a 100,000-deep detail at its pointer, without exhausting the stack', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const e = refusal(
      `${JSON.stringify(runLine())}\n${JSON.stringify(pass).replace('"pass detail"', deep)}\n`,
    );
    expect([e.code, e.line, e.pointer]).toEqual(['REPORT_INVALID', 2, '/detail']);
  });

  it('refuses a case line without a gate, pointing where it belongs', () => {
    const { gate: _gate, ...noGate } = pass;
    const e = refusal(jsonl([runLine(), noGate]));
    expect([e.code, e.line, e.pointer]).toEqual(['REPORT_INVALID', 2, '/gate']);
    expect(e.message).toMatch(/\/gate is missing/);
  });

  it('refuses a non-string implementation name on the run line', () => {
    const run = runLine();
    const e = refusal(jsonl([{ ...run, implementation: { ...run.implementation, name: ['x'] } }, pass]));
    expect([e.line, e.pointer]).toEqual([1, '/implementation/name']);
  });

  it('refuses a summary whose conforms is not a boolean', () => {
    const e = refusal(jsonl([runLine(), pass, { ...summaryLine([pass]), conforms: 'yes' }]));
    expect([e.line, e.pointer]).toEqual([3, '/conforms']);
  });

  it('shows property names with control characters as escapes in the message', () => {
    const e = refusal(jsonl([runLine(), { ...pass, '\u001b[2J\u202e': 1 }]));
    expect(e.pointer).toBe('/\u001b[2J\u202e');
    expect(e.message).toContain('/\\u001b[2J\\u202e');
    expect(e.message).not.toMatch(/\p{Cc}|\u202e/u);
  });

  it('refuses __proto__ as an unknown property instead of reading it', () => {
    const e = refusal(
      `${JSON.stringify(runLine())}\n{"__proto__":{"outcome":"pass"},${JSON.stringify(pass).slice(1)}\n`,
    );
    expect(e.pointer).toBe('/__proto__');
  });

  it.each([
    ['not JSON', `${JSON.stringify(runLine())}\n{"type":"case",\n`, 2, null, /not JSON/],
    ['an array', `${JSON.stringify(runLine())}\n[1]\n`, 2, '', /an array, not a JSON object/],
    [
      'an unknown type',
      jsonl([runLine(), { ...pass, type: 'verdict' }]),
      2,
      '/type',
      /"run", "case", "summary" or "interrupted"/,
    ],
    ['a case before the run line', jsonl([pass, runLine()]), 1, '/type', /first line must be the run line/],
    ['a second run line', jsonl([runLine(), pass, runLine()]), 3, undefined, /second run line/],
    [
      'a line after the summary',
      jsonl([runLine(), summaryLine([]), pass]),
      3,
      undefined,
      /follows the summary/,
    ],
    [
      'a second summary',
      jsonl([runLine(), pass, summaryLine([pass]), summaryLine([pass])]),
      4,
      undefined,
      /follows the summary/,
    ],
    [
      'a case id twice',
      jsonl([runLine(), caseLine('x', 'fail'), caseLine('x', 'pass')]),
      3,
      '/id',
      /"x" is reported twice \(first on line 2\)/,
    ],
    [
      'another report version',
      jsonl([runLine({ reportVersion: 2 }), pass]),
      1,
      '/reportVersion',
      /version 2 is not the version 1/,
    ],
  ])('refuses %s', (_what, text, line, pointer, message) => {
    const e = refusal(text);
    expect(e.code).toBe('REPORT_INVALID');
    expect(e.line).toBe(line);
    if (pointer !== undefined) expect(e.pointer).toBe(pointer);
    expect(e.message).toMatch(message);
  });

  it('refuses an empty file and one without a run line', () => {
    expect(refusal('').message).toMatch(/no run line/);
    expect(refusal('\n \n').line).toBeNull();
  });

  it('bounds the file size, the line count and the line length', () => {
    const text = reportText([pass, caseLine('validate/b', 'pass')]);
    const limits = { maxBytes: 10_000, maxLineBytes: 1000, maxLines: 4 };
    expect(parseReport(text, 'r', limits).cases).toHaveLength(2);
    expect(refusal(text, { ...limits, maxBytes: text.length - 1 }).message).toMatch(/larger than/);
    expect(refusal(text, { ...limits, maxLines: 3 }).message).toMatch(/more than 3 lines/);
    const long = jsonl([runLine(), { ...pass, detail: 'é'.repeat(600) }]);
    const e = refusal(long, limits);
    expect([e.line, e.message.includes('longer than 1000 bytes')]).toEqual([2, true]);
  });
});
