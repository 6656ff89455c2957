// The compatibility matrix of several checked reports: implementations x gates, each cell the
// pass / not passing / not applicable counts of the gate's golden cases and the requirement
// coverage of the gate (requirements named by a case or scenario that passed, of the gate's
// catalogue), plus the fault matrix: each fault scenario's outcome per implementation. A model
// only; compat-matrix-html.ts and compat-matrix-markdown.ts render it. Everything here still comes
// from report files: the renderers escape it, and this module bounds how much of it is kept.
import { isFailure } from './baseline.js';
import type { CaseLine, Report, VerdictScope } from './report.js';
import { judgeReport, type ReportVerdict } from './report-verdict.js';
import type { Requirement } from './requirements/catalogue.js';
import { runCoverage } from './requirements/coverage.js';
import type { Outcome } from './runner.js';
import { truncated } from './text.js';

/** The subject of a fault scenario's case line (conformance/faults/). */
export const FAULT_SUBJECT = 'fault-matrix';

/** Bounds of what a matrix keeps from its reports; what is cut is counted, never silently dropped. */
export const MATRIX_LIMITS = {
  /** Reports (columns) one matrix compares. */
  maxReports: 16,
  /** Failures listed per cell; the rest are counted. */
  maxFailuresPerCell: 50,
  /** Characters of a failure's detail kept. */
  maxDetail: 300,
  /** Characters of an implementation's name, version or language kept. */
  maxName: 80,
} as const;

/** One implementation (a column): who it is and the verdict its case lines give. */
export interface MatrixImplementation {
  readonly name: string;
  readonly version: string;
  readonly language: string;
  /** The shard the report ran (`1/2`), or null for a whole run. */
  readonly shard: string | null;
  readonly verdict: ReportVerdict;
  /** What the verdict covers (report-verdict.ts). */
  readonly scope: VerdictScope;
}

/** A case or scenario that did not pass (fail, error, timeout, crash, harness-error). */
export interface MatrixFailure {
  readonly id: string;
  readonly outcome: Outcome;
  /** Set when the report's baseline expected the failure. */
  readonly expected: boolean;
  readonly detail: string;
}

/** One gate of one implementation. */
export interface MatrixCell {
  readonly pass: number;
  /** Cases that ran and did not pass. */
  readonly notPassing: number;
  readonly notApplicable: number;
  /** Requirements of the gate a passing case or scenario names, of all; null when the catalogue has none. */
  readonly coverage: { readonly tested: number; readonly total: number } | null;
  /** The first {@link MATRIX_LIMITS.maxFailuresPerCell} not passing, in report order. */
  readonly failures: readonly MatrixFailure[];
  /** How many not passing are beyond `failures`. */
  readonly moreFailures: number;
}

/** One row: a gate (its golden cases), or the fault matrix (every fault scenario). */
export interface MatrixRow {
  readonly gate: string;
  readonly faults: boolean;
  /** One cell per implementation, in column order. */
  readonly cells: readonly MatrixCell[];
}

/** One fault scenario: its outcome per implementation (null: not in that report). */
export interface MatrixScenario {
  readonly id: string;
  readonly gate: string;
  readonly outcomes: ReadonlyArray<Outcome | null>;
}

export interface CompatibilityMatrix {
  readonly implementations: readonly MatrixImplementation[];
  /** The gates in catalogue order (gates without requirements after them), then the fault matrix. */
  readonly rows: readonly MatrixRow[];
  readonly scenarios: readonly MatrixScenario[];
}

const notPassing = (o: Outcome) => isFailure(o) || o === 'harness-error';

function cellOf(cases: readonly CaseLine[], coverage: MatrixCell['coverage']): MatrixCell {
  const bad = cases.filter((c) => notPassing(c.outcome));
  return {
    pass: cases.filter((c) => c.outcome === 'pass').length,
    notPassing: bad.length,
    notApplicable: cases.filter((c) => c.outcome === 'not-applicable').length,
    coverage,
    failures: bad.slice(0, MATRIX_LIMITS.maxFailuresPerCell).map((c) => ({
      id: c.id,
      outcome: c.outcome,
      expected: c.expectedFailure !== undefined,
      detail: truncated(c.detail, MATRIX_LIMITS.maxDetail),
    })),
    moreFailures: Math.max(0, bad.length - MATRIX_LIMITS.maxFailuresPerCell),
  };
}

/**
 * The matrix of `reports` (already checked by `parseReport`), with requirement coverage against
 * `catalogue` (conformance/requirements.json; empty: no coverage shown).
 *
 * @example
 * const m = compatibilityMatrix([reference, python], loadRequirements(conformanceDir));
 * m.rows.find((r) => r.gate === 'RunControlGate')?.cells[1]?.pass; // 41
 */
export function compatibilityMatrix(
  reports: readonly Report[],
  catalogue: readonly Requirement[] = [],
): CompatibilityMatrix {
  if (reports.length > MATRIX_LIMITS.maxReports)
    throw new RangeError(`a matrix compares at most ${MATRIX_LIMITS.maxReports} reports`);
  const golden = reports.map((r) => r.cases.filter((c) => c.subject !== FAULT_SUBJECT));
  const faults = reports.map((r) => r.cases.filter((c) => c.subject === FAULT_SUBJECT));
  const coverage = reports.map((r) => new Map(runCoverage(catalogue, r.cases).map((g) => [g.gate, g])));
  const gates = [
    ...new Set([
      ...catalogue.filter((q) => !q.withdrawn).map((q) => q.gate),
      ...golden.flat().map((c) => c.gate),
    ]),
  ];
  const rows: MatrixRow[] = gates.map((gate) => ({
    gate,
    faults: false,
    cells: golden.map((cases, i) => {
      const g = coverage[i]!.get(gate);
      return cellOf(
        cases.filter((c) => c.gate === gate),
        g ? { tested: g.tested, total: g.total } : null,
      );
    }),
  }));
  if (faults.some((f) => f.length))
    rows.push({ gate: 'Fault matrix', faults: true, cells: faults.map((f) => cellOf(f, null)) });
  const ids = [...new Set(faults.flat().map((c) => c.id))].sort();
  const byId = faults.map((f) => new Map(f.map((c) => [c.id, c])));
  const scenarios = ids.map((id) => ({
    id,
    gate: byId.map((m) => m.get(id)).find((c) => c !== undefined)!.gate,
    outcomes: byId.map((m) => m.get(id)?.outcome ?? null),
  }));
  return {
    implementations: reports.map((r) => {
      const impl = r.run.implementation;
      return {
        name: truncated(impl.name, MATRIX_LIMITS.maxName),
        version: truncated(impl.version, MATRIX_LIMITS.maxName),
        language: truncated(impl.language, MATRIX_LIMITS.maxName),
        shard: r.run.shard === null ? null : truncated(r.run.shard, MATRIX_LIMITS.maxName),
        ...(({ verdict, scope }) => ({ verdict, scope }))(judgeReport(r)),
      };
    }),
    rows,
    scenarios,
  };
}

/** The id of the failure list of implementation `impl` in row `row`: built from indexes only. */
export const failureAnchor = (impl: number, row: number) => `failures-${impl}-${row}`;
