// @module-tag unit
// The renderers escape even what parseReport would have refused: a Report built in code (a
// library caller's) reaches them without the schema check.
import { describe, expect, it } from 'vitest';
import {
  type CaseLine,
  parseReport,
  type Report,
  renderHtml,
  renderJunit,
  renderMarkdown,
} from '../src/index.ts';
import { caseLine, jsonl, runLine, summaryLine } from './report-lines.ts';

const PAYLOAD = `pass"><img src=x onerror="document.title='pwned'">`;

function forged(): Report {
  const report = parseReport(jsonl([runLine(), caseLine('a', 'error'), summaryLine([])]));
  const forgedCase = { ...report.cases[0]!, outcome: PAYLOAD } as unknown as CaseLine;
  return { ...report, cases: [forgedCase] };
}

describe('renderers on a Report that skipped parseReport', () => {
  it('HTML takes class names from its own table, never from the report', () => {
    const html = renderHtml([forged()]);
    expect(html).not.toContain('<img');
    expect(html).not.toContain(PAYLOAD);
  });

  it('JUnit and Markdown escape the outcome', () => {
    expect(renderJunit(forged())).toContain(
      'type="pass&quot;&gt;&lt;img src=x onerror=&quot;document.title=&apos;pwned&apos;&quot;&gt;"',
    );
    // Backslash-escaped, `<` starts no HTML in CommonMark (the CLI tests render it with micromark).
    expect(renderMarkdown(forged())).toContain(
      '| pass"\\>\\<img src=x onerror="document.title=\'pwned\'"\\> |',
    );
  });

  it('a passing case the baseline expected to fail is a pass in JUnit, not hidden as skipped', () => {
    const cases = [
      caseLine('a', 'pass', { expectedFailure: 'flaky' }),
      caseLine('b', 'fail', { expectedFailure: 'known' }),
    ];
    const junit = renderJunit(parseReport(jsonl([runLine(), ...cases, summaryLine(cases)])));
    expect(junit).toContain('name="a" time="0.003"></testcase>');
    expect(junit).toContain('<skipped message="expected failure (fail): known"/>');
    expect(junit).toContain('failures="0" errors="0" skipped="1"');
  });
});
