// JUnit XML from a checked report. Every string is escaped for XML 1.0 (escape.ts), so the
// output is well-formed whatever the implementation wrote into details and stderr.
import { isFailure } from './baseline.js';
import { escapeMarkupLines, escapeMarkup as x } from './escape.js';
import type { CaseLine, Report } from './report.js';
import { judgeReport, VERDICT_TEXT } from './report-verdict.js';

/**
 * Whether the baseline expects this case's failure: only a `fail` can be expected, so an error, a
 * timeout or a crash is never hidden as skipped (nor is a pass).
 */
const expected = (c: CaseLine) => Boolean(c.expectedFailure) && c.outcome === 'fail';

function testcase(gate: string, c: CaseLine): string {
  const open = `    <testcase classname="${x(`${gate}.${c.subject}`)}" name="${x(c.id)}" time="${(c.durationMs / 1000).toFixed(3)}">`;
  let inner = '';
  if (expected(c))
    inner = `<skipped message="${x(`expected failure (${c.outcome}): ${c.expectedFailure}`)}"/>`;
  else if (c.outcome === 'not-applicable') inner = `<skipped message="${x(c.detail)}"/>`;
  else if (c.outcome === 'fail') inner = `<failure message="${x(c.detail)}"/>`;
  else if (c.outcome !== 'pass')
    inner = `<error type="${x(c.outcome)}" message="${x(c.detail)}">${escapeMarkupLines(c.stderrTail ?? '')}</error>`;
  return `${open}${inner}</testcase>`;
}

/** Options of {@link renderJunit}. */
export interface JunitOptions {
  /**
   * Also write the not-applicable cases, each a skipped testcase (`report --junit-include-na`).
   * Without it they are left out, and a comment says how many: a CI's test view then shows what
   * was judged, not hundreds of skipped cases an implementation never claimed.
   */
  readonly includeNotApplicable?: boolean;
}

/** JUnit XML: one testsuite per gate, one testcase per case (not-applicable ones only if asked). */
export function renderJunit(report: Report, options: JunitOptions = {}): string {
  const byGate = new Map<string, CaseLine[]>();
  const shown = options.includeNotApplicable
    ? report.cases
    : report.cases.filter((c) => c.outcome !== 'not-applicable');
  const left = report.cases.length - shown.length;
  for (const c of shown) {
    const list = byGate.get(c.gate);
    if (list) list.push(c);
    else byGate.set(c.gate, [c]);
  }
  const suites = [...byGate].map(([gate, cases]) => {
    const failures = cases.filter((c) => c.outcome === 'fail' && !expected(c)).length;
    const errors = cases.filter(
      (c) => (isFailure(c.outcome) || c.outcome === 'harness-error') && c.outcome !== 'fail' && !expected(c),
    ).length;
    const skipped = cases.filter((c) => c.outcome === 'not-applicable' || expected(c)).length;
    const body = cases.map((c) => testcase(gate, c));
    return `  <testsuite name="${x(gate)}" tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="${skipped}">\n${body.join('\n')}\n  </testsuite>`;
  });
  // JUnit and the verdict agree: a report that does not conform shows at least one error, also
  // when no case line does (violations charged to the run, nothing passed, a summary that says
  // so for reasons no case line shows).
  const judgement = judgeReport(report);
  const red = report.cases.some(
    (c) => !expected(c) && c.outcome !== 'pass' && c.outcome !== 'not-applicable',
  );
  if (judgement.verdict !== 'conforms' && !red) {
    const why = report.summary?.runViolations
      ? `${report.summary.runViolations.count} protocol violation(s) charged to the run: ${report.summary.runViolations.first.map((v) => `${v.code}: ${v.message}`).join('; ')}`
      : judgement.disagreements.length
        ? judgement.disagreements.join('; ')
        : `the run ${VERDICT_TEXT[judgement.verdict]}${judgement.counts.pass === 0 ? ': no applicable case passed' : ''}`;
    suites.push(
      `  <testsuite name="run" tests="1" failures="0" errors="1" skipped="0">\n    <testcase classname="run" name="verdict" time="0.000"><error type="does-not-conform" message="${x(why)}"/></testcase>\n  </testsuite>`,
    );
  }
  const note = left
    ? // No "--" inside a comment (XML 1.0), so the option is named without its dashes.
      `  <!-- ${left} not-applicable case${left === 1 ? '' : 's'} left out: the report option junit-include-na lists them -->\n`
    : '';
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${x(`agent-contracts conformance: ${report.run.implementation.name}`)}">\n${note}${suites.join('\n')}${suites.length ? '\n' : ''}</testsuites>\n`;
}
