// The verdict of a report, derived from its case lines. The summary line is a claim of whoever
// wrote the file: it can only take a verdict away (a run can fail for reasons no case line shows),
// never grant one the case lines do not support. docs/spec/decisions.md D-GEN-08.
import { declaredCapabilities } from '@agent-contracts/protocol';
import { conformsOf, failsRun, isFailure } from './baseline.js';
import {
  type CaseLine,
  type Counts,
  countOutcomes,
  isExploreLine,
  type Report,
  type RunLine,
  type VerdictScope,
} from './report.js';
import { truncated } from './text.js';

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
  /** What the verdict covers, from the run line and the case lines (never from the summary line). */
  readonly scope: VerdictScope;
}

/**
 * The scope of a verdict, from the run line (the declared capabilities) and the case lines (how
 * many applied, of how many; exploration lines are not counted).
 *
 * @example
 * verdictScope(report.run, report.cases); // { capabilities: ['digest'], applicable: 52, total: 1599 }
 */
export function verdictScope(run: RunLine, cases: readonly CaseLine[]): VerdictScope {
  const items = cases.filter((c) => !isExploreLine(c));
  const caps = run.implementation.capabilities;
  return {
    capabilities: caps === null ? null : declaredCapabilities(caps),
    applicable: items.filter((c) => c.outcome !== 'not-applicable').length,
    total: items.length,
  };
}

/** How a list capability's names are counted once there are more than {@link NAMED}. */
const LIST_NOUN: Readonly<Record<string, string>> = {
  contract: 'contracts',
  bundle: 'bundles',
  crash: 'crash points',
};
/** How many names of one list capability the scope text names before it only counts them. */
const NAMED = 3;
/** How many tokens the scope text names at most (a report file can declare any number). */
const TOKENS_SHOWN = 24;
/** Characters of one token kept (a report file can name anything). */
const TOKEN_CHARS = 80;

/**
 * The scope as a verdict line ends: `digest, checkpoint; 70 of 1569 cases applicable`. Flags are
 * named; a list capability with more than three names is counted (`16 contracts`). The text holds
 * strings of the report (capability names): each renderer escapes it for its medium.
 *
 * @example
 * scopeText({ capabilities: ['digest'], applicable: 52, total: 1599 });
 * // 'digest; 52 of 1599 cases applicable'
 */
export function scopeText(scope: VerdictScope): string {
  // Per flag or list prefix, in the order declared: how many tokens, the first few (cut).
  const byPrefix = new Map<string, { list: boolean; count: number; first: string[] }>();
  for (const t of scope.capabilities ?? []) {
    const colon = t.indexOf(':');
    const prefix = colon < 0 ? t : t.slice(0, colon);
    const entry = byPrefix.get(prefix) ?? { list: false, count: 0, first: [] };
    entry.list ||= colon >= 0;
    entry.count++;
    if (entry.first.length <= NAMED) entry.first.push(truncated(t, TOKEN_CHARS));
    byPrefix.set(prefix, entry);
  }
  const parts: string[] = [];
  for (const [prefix, e] of byPrefix) {
    if (e.list && e.count > NAMED)
      parts.push(`${e.count} ${LIST_NOUN[prefix] ?? `${truncated(prefix, TOKEN_CHARS)} names`}`);
    else parts.push(...e.first);
  }
  const shown = parts.slice(0, TOKENS_SHOWN).join(', ');
  const more = parts.length > TOKENS_SHOWN ? ` and ${parts.length - TOKENS_SHOWN} more` : '';
  const declared = parts.length
    ? `${shown}${more}`
    : `no capability declared${scope.capabilities === null ? ' (it never answered hello)' : ''}`;
  return `${declared}; ${scope.applicable} of ${scope.total} ${scope.total === 1 ? 'case' : 'cases'} applicable`;
}

const sameScope = (a: VerdictScope, b: VerdictScope) =>
  a.applicable === b.applicable &&
  a.total === b.total &&
  (a.capabilities === null || b.capabilities === null
    ? a.capabilities === b.capabilities
    : a.capabilities.length === b.capabilities.length &&
      a.capabilities.every((t, i) => b.capabilities![i] === t));

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
  const scope = verdictScope(report.run, report.cases);
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
      scope,
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
  if (s.scope && !sameScope(s.scope, scope))
    disagreements.push(
      `the summary scopes the verdict to ${scopeText(s.scope)}, the run and case lines to ${scopeText(scope)}`,
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
  return { verdict, counts, unexpectedFailures, warnings, disagreements, scope };
}

/** The verdict as the renderers write it. */
export const VERDICT_TEXT: Readonly<Record<ReportVerdict, string>> = {
  conforms: 'conforms',
  'does-not-conform': 'does not conform',
  incomplete: 'incomplete (no summary line: the run did not finish or the report was cut)',
  interrupted: 'interrupted (the run was stopped by a signal: what finished, no verdict)',
};

/**
 * The verdict with its scope, as the HTML page and the compatibility matrix write it:
 * `conforms: digest; 52 of 1599 cases applicable`. An incomplete or interrupted report has no
 * verdict to scope.
 */
export function scopedVerdictText(j: Pick<ReportJudgement, 'verdict' | 'scope'>): string {
  const text = VERDICT_TEXT[j.verdict];
  return j.verdict === 'conforms' || j.verdict === 'does-not-conform'
    ? `${text}: ${scopeText(j.scope)}`
    : text;
}
