import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import {
  type Baseline,
  checkReport,
  FAULT_KIND_NAMES,
  judgeReport,
  type KitCatalogue,
  loadCases,
  loadFaultScenarios,
  parseBaseline,
  parseReport,
  printable,
  REPORT_LIMITS,
  type Report,
  ReportError,
} from '@agent-contracts/harness';
import { conformanceDirectory } from '@agent-contracts/kit';
import { CliError } from '../errors.js';
import type { Io } from '../io.js';
import { kitVersion } from '../kit-version.js';
import { readInput } from './validate/input.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Read and check a JSONL report (size cap before reading, strict UTF-8, then `parseReport`'s
 * schema and order checks), or throw REPORT_INVALID saying why and what to do.
 */
export async function readReport(path: string, io?: Io): Promise<Report> {
  const shown = printable(path);
  // `-` is a file name here, not standard input.
  const read = await readInput(path === '-' ? './-' : path, Readable.from([]), {
    maxBytes: REPORT_LIMITS.maxBytes,
    maxDepth: 0,
  });
  if (!('bytes' in read)) {
    const why = read.ok
      ? 'unexpected input result'
      : read.issue.code === 'INPUT_TOO_LARGE'
        ? `it is larger than the ${REPORT_LIMITS.maxBytes / 1024 / 1024} MiB a report may have; it was not read`
        : read.issue.message;
    throw new CliError('REPORT_INVALID', `cannot read report ${shown}: ${why}`);
  }
  let text: string;
  try {
    text = utf8.decode(read.bytes);
  } catch {
    throw new CliError(
      'REPORT_INVALID',
      `${shown}: the report is not valid UTF-8; reports are written as UTF-8.`,
    );
  }
  let report: Report;
  try {
    report = parseReport(text, path);
  } catch (e) {
    if (e instanceof ReportError) throw new CliError('REPORT_INVALID', e.message, { cause: e });
    throw e;
  }
  let check: ReturnType<typeof checkReport>;
  try {
    check = checkReport(report, kitCatalogue(), path);
  } catch (e) {
    if (e instanceof ReportError) throw new CliError('REPORT_INVALID', e.message, { cause: e });
    throw e;
  }
  // An `otel check` report has no golden case to be held to; its own catalogue was checked.
  if (!check.catalogueChecked && !check.ownRuns && io)
    await io.err(
      `agent-contracts: warning: ${shown} was written by agent-contracts ${printable(report.run.kit.version)}${report.run.kit.version === kitVersion() ? ' from other conformance data (--conformance)' : `, this is ${kitVersion()}`}: its case ids are not checked against this kit's catalogue.\n`,
    );
  return report;
}

let catalogue: KitCatalogue | null = null;

/** This kit's catalogue of case and scenario ids (read once). */
export function kitCatalogue(): KitCatalogue {
  if (catalogue) return catalogue;
  try {
    catalogue = {
      version: kitVersion(),
      cases: loadCases(conformanceDirectory).map((c) => c.id),
      faults: loadFaultScenarios(conformanceDirectory, FAULT_KIND_NAMES).map((f) => f.id),
    };
  } catch (e) {
    throw new CliError('CASES_INVALID', `cannot read the kit's catalogue of cases: ${(e as Error).message}`);
  }
  return catalogue;
}

/** Warn on stderr about each report whose summary line contradicts its case lines. */
export async function warnDisagreements(io: Io, paths: readonly string[], reports: readonly Report[]) {
  for (const [i, r] of reports.entries()) {
    const d = judgeReport(r).disagreements;
    if (d.length)
      await io.err(
        `agent-contracts: warning: ${printable(paths[i]!)}: the summary line disagrees with the case lines (${d.join('; ')}); verdicts are derived from the case lines.\n`,
      );
  }
}

/**
 * Refuse a report that does not hold a whole run: no summary line (interrupted, not finished), or
 * fewer case lines than its summary counts (cut short; more case lines than it counts is a summary
 * that disagrees, which the renderers flag). Compared or rendered as if
 * whole, it would show every missing case as removed, or a verdict on part of a run.
 */
export function requireComplete(path: string, report: Report, what: string): void {
  const stop = report.interrupted;
  if (stop)
    throw new CliError(
      'REPORT_INTERRUPTED',
      `${printable(path)} is the report of a run interrupted by ${stop.signal} after ${stop.finished} of ${stop.total} items: it holds what finished and no verdict; ${what}`,
    );
  const counted = report.summary ? Object.values(report.summary.counts).reduce((a, b) => a + b, 0) : 0;
  const why = !report.summary
    ? 'has no summary line: the run was interrupted or did not finish'
    : counted > report.cases.length
      ? `was cut short: its summary counts ${counted} cases, its case lines ${report.cases.length}`
      : null;
  if (why) throw new CliError('REPORT_INCOMPLETE', `${printable(path)} ${why}; ${what}`);
}

/** Read and parse a baseline file, or throw BASELINE_INVALID saying why. */
export function readBaseline(path: string): Baseline {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new CliError('BASELINE_INVALID', `cannot read baseline ${path}: ${(e as Error).message}`);
  }
  try {
    return parseBaseline(text);
  } catch (e) {
    throw new CliError('BASELINE_INVALID', `${path}: ${(e as Error).message}`);
  }
}
