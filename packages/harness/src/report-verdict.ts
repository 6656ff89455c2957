// The verdict of a report, derived from its case lines. The summary line is a claim of whoever
// wrote the file: it can only take a verdict away (a run can fail for reasons no case line shows),
// never grant one the case lines do not support. docs/spec/decisions.md D-GEN-08.
import { conformsOf, failsRun, isFailure } from './baseline.js';
import { type Counts, countOutcomes, isExploreLine, type Report } from './report.js';

/**
 * `conforms` only when the case lines and the summary line both say so and agree; `interrupted`
 * when the report ends with the marker of a run stopped by a signal; `incomplete` when there is
 * no summary line otherwise (the run did not finish, or the file was cut).
 */
export type ReportVerdict = 'conforms' | 'does-not-conform' | 'incomplete' | 'interrupted';

/** What a report shows, recomputed from its case lines. */
export interface ReportJudgement {
  readonly verdict: ReportVerdict;
  /** Outcomes counted over the case lines. */
  readonly counts: Counts;
  /**
   * Ids of the case lines that failed without an expected failure from the baseline, and whose
   * failure fails the run (MUST items; SHOULD items too in a strict run).
   */
  readonly unexpectedFailures: readonly string[];
  /** Ids of the SHOULD case lines that failed unexpectedly in a run that was not strict. */
  readonly warnings: readonly string[];
  /** Each way the summary line contradicts the case lines; empty when it agrees or is absent. */
  readonly disagreements: readonly string[];
}

const sameSet = (a: readonly string[], b: readonly string[]) => {
  const s = new Set(a);
  return s.size === new Set(b).size && b.every((x) => s.has(x));
};

/**
 * Judge a parsed report from its case lines, as `judgeRun` judged the run: at least one case
 * applied, every failure is expected by the baseline (`expectedFailure`) or is of a SHOULD case
 * in a run that was not strict (`strict` of the summary line; a warning), and the summary lists
 * no stale baseline entry. A summary that claims more than the case lines show is reported in
 * `disagreements` and the report does not conform.
 *
 * @example
 * const { verdict, disagreements } = judgeReport(parseReport(text));
 */
export function judgeReport(report: Report): ReportJudgement {
  // Exploration lines are judged as cases are, but counted apart (`summary.explore`).
  const counts = countOutcomes(report.cases.filter((c) => !isExploreLine(c)));
  const explored = report.cases.filter(isExploreLine);
  const s = report.summary;
  const strict = s?.strict ?? false;
  // Only a `fail` can be expected (an `expectedFailure` on any other line is refused by the report
  // check, report-check.ts; here it is simply not honoured).
  const unexpected = report.cases.filter(
    (c) => isFailure(c.outcome) && !(c.expectedFailure && c.outcome === 'fail'),
  );
  const unexpectedFailures = unexpected.filter((c) => failsRun(c.level, strict)).map((c) => c.id);
  const warnings = unexpected.filter((c) => !failsRun(c.level, strict)).map((c) => c.id);
  if (!s)
    return {
      verdict: report.interrupted ? 'interrupted' : 'incomplete',
      counts,
      unexpectedFailures,
      warnings,
      disagreements: [],
    };
  const exploreCounts = countOutcomes(explored);
  const applicable = report.cases.length - counts['not-applicable'] - exploreCounts['not-applicable'];
  const harnessErrors = counts['harness-error'] + exploreCounts['harness-error'];
  const fromCases = conformsOf(counts.pass + exploreCounts.pass, unexpectedFailures.length, 0, harnessErrors);
  const disagreements: string[] = [];
  const outcomes = Object.keys(counts) as Array<keyof Counts>;
  const claimed = (o: keyof Counts) => s.counts[o] ?? 0;
  const countsDiffer = outcomes.filter((o) => claimed(o) !== counts[o]);
  if (countsDiffer.length)
    disagreements.push(
      `the summary counts ${countsDiffer.map((o) => `${claimed(o)} ${o}`).join(', ')}, the case lines ${countsDiffer.map((o) => `${counts[o]} ${o}`).join(', ')}`,
    );
  if (explored.length || s.explore) {
    const claimedExplore = (o: keyof Counts) => s.explore?.[o] ?? 0;
    const differ = outcomes.filter((o) => claimedExplore(o) !== exploreCounts[o]);
    if (differ.length)
      disagreements.push(
        `the summary counts ${differ.map((o) => `${claimedExplore(o)} ${o}`).join(', ')} explorations, the exploration lines ${differ.map((o) => `${exploreCounts[o]} ${o}`).join(', ')}`,
      );
  }
  if (!sameSet(s.unexpectedFailures, unexpectedFailures))
    disagreements.push(
      `the summary lists ${s.unexpectedFailures.length} unexpected failure(s), the case lines show ${unexpectedFailures.length}`,
    );
  if (s.warnings !== undefined && !sameSet(s.warnings, warnings))
    disagreements.push(
      `the summary lists ${s.warnings.length} warning(s), the case lines show ${warnings.length}`,
    );
  if (s.conforms && !fromCases)
    disagreements.push(
      applicable === 0
        ? 'the summary claims the run conforms, but no case applied'
        : harnessErrors
          ? 'the summary claims the run conforms, but case lines end as harness-error'
          : 'the summary claims the run conforms, but the case lines do not',
    );
  if (s.conforms && s.stalePassing.length)
    disagreements.push('the summary claims the run conforms, but lists stale baseline entries');
  if (s.conforms && s.runViolations)
    disagreements.push(
      'the summary claims the run conforms, but records protocol violations charged to the run',
    );
  // Every way a conforming claim can be unsupported adds a disagreement.
  const verdict = s.conforms && disagreements.length === 0 ? 'conforms' : 'does-not-conform';
  return { verdict, counts, unexpectedFailures, warnings, disagreements };
}

/** The verdict as the renderers write it. */
export const VERDICT_TEXT: Readonly<Record<ReportVerdict, string>> = {
  conforms: 'conforms',
  'does-not-conform': 'does not conform',
  incomplete: 'incomplete (no summary line: the run did not finish or the report was cut)',
  interrupted: 'interrupted (the run was stopped by a signal: what finished, no verdict)',
};
