// @module-tag unit
// The renderers escape even what parseReport would have refused: a Report built in code (a
// library caller's) reaches them without the schema check.
import { describe, expect, it } from 'vitest';
import {
  type CaseLine,
  compatibilityMatrix,
  parseReport,
  type Report,
  renderHtml,
  renderJunit,
  renderMarkdown,
  renderMatrixHtml,
  renderMatrixMarkdown,
  reportTitle,
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

describe('the shards of one run, rendered side by side (issue 24, item 7)', () => {
  const shard = (s: string | null) =>
    parseReport(
      jsonl([runLine({ shard: s }), caseLine(`a-${s}`, 'pass'), summaryLine([caseLine(`a-${s}`, 'pass')])]),
    );
  const reports = [shard('1/2'), shard('2/2')];
  const name = `${runLine().implementation.name} ${runLine().implementation.version}`;

  it('each column of the HTML page and the matrix names its shard', () => {
    const html = renderHtml(reports);
    for (const s of ['1/2', '2/2']) {
      expect(html).toContain(`<h2>${name} (shard ${s}) <small>`);
      expect(html).toContain(`>${name} (shard ${s})<br>`);
    }
    const matrix = compatibilityMatrix(reports, []);
    expect(matrix.implementations.map((i) => i.shard)).toEqual(['1/2', '2/2']);
    expect(renderMatrixHtml(matrix)).toContain(`<th scope="col">${name} (shard 2/2)<br>`);
    expect(renderMatrixMarkdown(matrix)).toContain(`${name} (shard 1/2) (`);
  });

  it('a whole run keeps its plain title', () => {
    expect(reportTitle({ name: 'x', version: '1', shard: null })).toBe('x 1');
    expect(renderHtml([shard(null)])).toContain(`<h2>${name} <small>`);
  });
});
