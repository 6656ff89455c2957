// A report checked against the kit that reads it, beyond its schema (report-read.ts): the case
// lines are claims of whoever wrote the file, so they are held to the kit's catalogue of cases
// and scenarios and to the run line. A report that a run of this kit cannot have written is
// refused with REPORT_INVALID before any verdict is derived from it (issue 20, finding 5).
import { sha256Hex } from '@agent-contracts/digest';
import { ReportError } from './errors.js';
import type { Report } from './report.js';
import { globMatch, inShard, parseShard } from './shard.js';
import { printable, truncated } from './text.js';

/** What the reading kit knows: its version and the ids of every case and fault scenario. */
export interface KitCatalogue {
  /** The kit's version (`@agent-contracts/cli`'s), as `conform` writes it in the run line. */
  readonly version: string;
  /** Every golden case id. */
  readonly cases: readonly string[];
  /** Every fault scenario id. */
  readonly faults: readonly string[];
}

/** The outcome of a check that did not refuse the report. */
export interface ReportCheck {
  /**
   * Whether the case lines were held to the catalogue: false when the report was written by
   * another kit version (its catalogue may differ; only the run-line rules were checked).
   */
  readonly catalogueChecked: boolean;
  /**
   * Whether the report is one of `otel check` (its case lines are the agent runs of a trace, and
   * its catalogue is exactly theirs, {@link isOtelRunsReport}): it has no golden case to be held
   * to, and its own catalogue was checked instead.
   */
  readonly ownRuns: boolean;
}

/** The gate of every case line of an `otel check` report (docs/spec/opentelemetry-mapping.md). */
export const OTEL_GATE = 'OpenTelemetryMapping';

/**
 * The id of a run of `otel check`: `otel/<traceId>/<spanId>` of its agent span (or of a tool span
 * outside any run), the ids in lowercase hex as the OTLP JSON mapping writes them.
 */
const OTEL_RUN_ID = /^otel\/[0-9a-f]{32}\/[0-9a-f]{16}$/;

/**
 * Whether a report is one `otel check` wrote: every case line is a run of a trace (an
 * id `otel/<traceId>/<spanId>` of the gate {@link OTEL_GATE}) and the run line's catalogue is the digest of
 * exactly those ids, as `otel check` records it. No golden case has such an id, so a report of
 * `conform` cannot pass for one.
 */
export function isOtelRunsReport(report: Report): boolean {
  const ids = report.cases.map((c) => c.id);
  return (
    report.cases.every((c) => c.gate === OTEL_GATE && OTEL_RUN_ID.test(c.id)) &&
    report.run.catalogue === catalogueDigest({ cases: ids, faults: [] })
  );
}

const WHAT_TO_DO =
  'a report is written by `agent-contracts conform --report` and never edited; rerun conform';

const shown = (id: string) => `"${truncated(printable(id), 120)}"`;
const listed = (ids: readonly string[]) =>
  `${ids.slice(0, 3).map(shown).join(', ')}${ids.length > 3 ? ` and ${ids.length - 3} more` : ''}`;

/** SHA-256 of a catalogue's ids (sorted, one a line): what the run line's `catalogue` records. */
export function catalogueDigest(kit: Pick<KitCatalogue, 'cases' | 'faults'>): string {
  return sha256Hex([...kit.cases, ...kit.faults].sort().join('\n'));
}

/** The ids a run of the catalogue selects with this run line's filter, shard and --no-faults. */
export function selectedIds(report: Report, kit: KitCatalogue): string[] {
  const { filter, shard: shardText, noFaults } = report.run;
  const shard = shardText === null ? null : parseShard(shardText);
  const pick = (id: string) =>
    (!filter.length || filter.some((g) => globMatch(g, id))) && (!shard || inShard(id, shard));
  return [...kit.cases.filter(pick), ...(noFaults ? [] : kit.faults.filter(pick))];
}

/**
 * Check a parsed report against the kit:
 *
 * - an `expectedFailure` only on a `fail` line (no baseline can expect anything else), and only
 *   when the run line names the baseline and its `baselineSha256`;
 * - when the report was written by this kit version: every case id is one of the catalogue's
 *   (unknown ids are refused), every id is one the run line's filter and shard select, and a
 *   report with a summary line (a whole run) holds a line for every case and scenario the run
 *   line selects.
 *
 * @throws {ReportError} REPORT_INVALID naming the first problem.
 */
export function checkReport(report: Report, kit: KitCatalogue, name = 'report'): ReportCheck {
  const file = truncated(printable(name), 300);
  const refuse = (message: string) => new ReportError(`${file}: ${message}; ${WHAT_TO_DO}.`);
  const expected = report.cases.filter((c) => c.expectedFailure !== undefined);
  const notFail = expected.filter((c) => c.outcome !== 'fail').map((c) => c.id);
  if (notFail.length)
    throw refuse(
      `case ${listed(notFail)} carries expectedFailure with an outcome other than fail; a baseline can expect only fail, never error, timeout, crash or harness-error`,
    );
  if (expected.length && (report.run.baseline === null || report.run.baselineSha256 === undefined))
    throw refuse(
      `${expected.length} case line(s) carry expectedFailure (${listed(expected.map((c) => c.id))}), but the run line records no baseline with its sha256 (baseline, baselineSha256)`,
    );
  // An `otel check` report holds the runs of a trace, not golden cases: its catalogue is its runs.
  if (isOtelRunsReport(report)) return { catalogueChecked: false, ownRuns: true };
  // Another kit version, or other conformance data (`conform --conformance`): their catalogue is
  // not this one, so only the rules above hold; the caller says so.
  if (report.run.kit.version !== kit.version) return { catalogueChecked: false, ownRuns: false };
  if (report.run.catalogue !== catalogueDigest(kit)) return { catalogueChecked: false, ownRuns: false };
  const known = new Set([...kit.cases, ...kit.faults]);
  const unknown = report.cases.filter((c) => !known.has(c.id)).map((c) => c.id);
  if (unknown.length)
    throw refuse(
      `case ${listed(unknown)} is not a case or fault scenario of agent-contracts ${printable(kit.version)}, which wrote this report`,
    );
  const selected = selectedIds(report, kit);
  const chosen = new Set(selected);
  const outside = report.cases.filter((c) => !chosen.has(c.id)).map((c) => c.id);
  if (outside.length)
    throw refuse(`case ${listed(outside)} is not selected by the run line's filter, shard and --no-faults`);
  if (report.summary) {
    const present = new Set(report.cases.map((c) => c.id));
    const missing = selected.filter((id) => !present.has(id));
    if (missing.length)
      throw refuse(
        `the report has a summary line (a whole run) but holds ${report.cases.length} of the ${selected.length} cases and scenarios its run line selects; missing ${listed(missing)}`,
      );
  }
  return { catalogueChecked: true, ownRuns: false };
}
