// Markdown from a checked report (e.g. for a CI step summary). Every string from the report is
// escaped (escape.ts) and the verdict is derived from the case lines (report-verdict.ts).
import { escapeMarkdown as md } from './escape.js';
import { type CaseLine, type Counts, emptyCounts, type Report } from './report.js';
import { judgeReport, type ReportVerdict, scopeText } from './report-verdict.js';

function tally(cases: readonly CaseLine[], key: 'gate' | 'subject'): Array<[string, Counts]> {
  const m = new Map<string, Counts>();
  for (const c of cases) {
    const counts = m.get(c[key]) ?? emptyCounts();
    counts[c.outcome]++;
    m.set(c[key], counts);
  }
  return [...m];
}

const HEADLINE: Readonly<Record<ReportVerdict, string>> = {
  conforms: '**Conforms**',
  'does-not-conform': '**Does not conform**',
  incomplete:
    '**Incomplete**: the report has no summary line (the run did not finish or the file was cut), so it does not show conformance',
  interrupted:
    '**Interrupted**: the run was stopped by a signal; the report holds what finished and no verdict, so it does not show conformance',
};

/** `, with N expected failures` of a conforming report whose baseline expected some. */
function expectedNote(report: Report, verdict: ReportVerdict): string {
  const n = report.cases.filter((c) => c.expectedFailure && c.outcome === 'fail').length;
  return verdict === 'conforms' && n ? `, with ${n} expected failure${n === 1 ? '' : 's'}` : '';
}

/** `: digest; 52 of 1599 cases applicable` of a report with a verdict (escaped). */
function scoped(j: ReturnType<typeof judgeReport>): string {
  return j.verdict === 'conforms' || j.verdict === 'does-not-conform' ? `: ${md(scopeText(j.scope))}` : '';
}

/** Markdown summary (e.g. for a CI step summary): by gate, then the cases that did not pass. */
export function renderMarkdown(report: Report): string {
  const impl = report.run.implementation;
  const judgement = judgeReport(report);
  const lines = [
    `# Conformance: ${md(impl.name)} ${md(impl.version)} (${md(impl.language)})`,
    '',
    `${HEADLINE[judgement.verdict]} to agent-contracts protocol ${report.run.protocolVersion}${expectedNote(report, judgement.verdict)}${scoped(judgement)}.`,
  ];
  if (report.summary?.runViolations)
    lines.push(
      '',
      `> **Protocol violations charged to the run**: ${report.summary.runViolations.count} (${report.summary.runViolations.first
        .slice(0, 3)
        .map((v) => md(`${v.code}: ${v.message}`))
        .join('; ')}); a run with a protocol violation never conforms.`,
    );
  if (judgement.disagreements.length)
    lines.push(
      '',
      `> **Warning**: the summary line disagrees with the case lines (${judgement.disagreements.map(md).join('; ')}); the verdict above is derived from the case lines.`,
    );
  lines.push(
    '',
    '| Gate | pass | fail | error | timeout | crash | n/a |',
    '|---|---|---|---|---|---|---|',
    ...tally(report.cases, 'gate').map(
      ([g, c]) =>
        `| ${md(g)} | ${c.pass} | ${c.fail} | ${c.error} | ${c.timeout} | ${c.crash} | ${c['not-applicable']} |`,
    ),
  );
  const kitBugs = judgement.counts['harness-error'];
  if (kitBugs)
    lines.push(
      '',
      `> **Kit defect**: ${kitBugs} ${kitBugs === 1 ? 'case' : 'cases'} ended as \`harness-error\`: a defect of the conformance kit (agent-contracts), not of this implementation; the run cannot conform until the kit is fixed.`,
    );
  const bad = report.cases.filter((c) => c.outcome !== 'pass' && c.outcome !== 'not-applicable');
  if (bad.length) {
    lines.push('', '## Not passing', '', '| Case | Outcome | Detail |', '|---|---|---|');
    for (const c of bad)
      lines.push(
        `| ${md(c.id)} | ${md(c.outcome)}${c.expectedFailure ? ' (expected)' : ''} | ${md(c.detail)} |`,
      );
  }
  return `${lines.join('\n')}\n`;
}
