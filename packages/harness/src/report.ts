// The canonical report is JSONL: a `run` line, one `case` line per result, a `summary` line.
// Every other format is rendered from it (report-junit.ts, report-markdown.ts, report-html.ts),
// after report-read.ts has checked it. Schema: schemas/harness/ReportLine.schema.json.
import type { HelloResult } from '@agent-contracts/protocol';
import type { CaseResult, Outcome } from './runner.js';

export const REPORT_VERSION = 1;

/** First line: what ran against what. */
export interface RunLine {
  readonly type: 'run';
  readonly reportVersion: number;
  readonly kit: { readonly name: string; readonly version: string };
  readonly protocolVersion: number;
  readonly implementation: Pick<HelloResult, 'name' | 'version' | 'language'> & {
    readonly command: string;
    readonly capabilities: HelloResult['capabilities'] | null;
  };
  readonly startedAt: string;
  readonly filter: readonly string[];
  readonly shard: string | null;
  readonly baseline: string | null;
  /**
   * Lowercase hex SHA-256 of the bytes of the baseline file the run read; absent without a
   * baseline (and in reports written before it was recorded, which can then carry no
   * `expectedFailure`).
   * @pattern ^[a-f0-9]{64}$
   */
  readonly baselineSha256?: string;
  /** `conform --no-faults`: the fault matrix did not run. Absent means it ran (its filter allowing). */
  readonly noFaults?: boolean;
  /**
   * SHA-256 of the catalogue the run chose from (`catalogueDigest`: the sorted ids of every case
   * and fault scenario of its conformance data). A reader of the same kit version holds the case
   * lines to its own catalogue when this matches it (or is absent).
   * @pattern ^[a-f0-9]{64}$
   */
  readonly catalogue?: string;
}

/** A protocol violation as a report records it. */
export interface ViolationRecord {
  /** The harness's code (`IMPL_GARBAGE_OUTPUT`, `IMPL_HELLO_CHANGED`, ...). */
  readonly code: string;
  /** What was seen, and in which session. */
  readonly message: string;
  /** The first 200 characters of the offending line, if any. */
  readonly excerpt?: string;
}

/** Protocol violations charged to the run as a whole (no case could be charged with them). */
export interface RunViolations {
  /**
   * How many were seen.
   * @TJS-type integer
   * @minimum 1
   */
  readonly count: number;
  /**
   * The first ones, with their text.
   * @maxItems 20
   */
  readonly first: readonly ViolationRecord[];
}

export interface CaseLine extends CaseResult {
  readonly type: 'case';
  /** Set when the baseline expects this case to fail. */
  readonly expectedFailure?: string;
}

export type Counts = Record<Outcome, number>;

/** The counts of a summary line: `harness-error` is absent in reports written before that outcome existed. */
export type SummaryCounts = Omit<Counts, 'harness-error'> & { readonly 'harness-error'?: number };

/**
 * What a verdict covers: the capabilities the implementation declared and how many of the run's
 * cases and fault scenarios applied to it (explorations are not counted). A verdict is only ever
 * about this much: `CONFORMS: digest; 52 of 1599 cases applicable`.
 */
export interface VerdictScope {
  /**
   * The capability tokens its `hello` declared, as `requires` names them (`digest`,
   * `contract:TaskContractV1`, `crash:commit-before-write`), in the order of docs/protocol.md;
   * null when it never answered `hello` (bounded by the report's line limit, as the run line's
   * capabilities are).
   */
  readonly capabilities: readonly string[] | null;
  /**
   * Cases and fault scenarios that applied: every one not `not-applicable`.
   * @TJS-type integer
   * @minimum 0
   */
  readonly applicable: number;
  /**
   * Cases and fault scenarios of the run (its case lines, explorations aside).
   * @TJS-type integer
   * @minimum 0
   */
  readonly total: number;
}

export interface SummaryLine {
  readonly type: 'summary';
  readonly finishedAt: string;
  readonly durationMs: number;
  readonly counts: SummaryCounts;
  /**
   * True when every applicable case passed, or failed as the baseline expects, no baseline entry
   * passed, and no case ended as `harness-error`.
   */
  readonly conforms: boolean;
  readonly unexpectedFailures: readonly string[];
  /**
   * Ids of SHOULD items that failed without the baseline expecting it, in a run that was not
   * strict: reported, not failing the run (D-GEN-41). Absent in reports written before levels
   * counted.
   */
  readonly warnings?: readonly string[];
  /** `conform --strict`: SHOULD failures failed the run too. Absent means not strict. */
  readonly strict?: boolean;
  readonly stalePassing: readonly string[];
  /**
   * Protocol violations no case could be charged with (before the first case of a session, in a
   * session where no case applied, in the fault matrix's probe): the run does not conform. Absent
   * when there were none.
   */
  readonly runViolations?: RunViolations;
  /**
   * The outcomes of the exploration lines (`explore/<capability>`, with `explore` set), counted
   * apart: `counts` counts golden cases and fault scenarios only. Absent when nothing was explored.
   */
  readonly explore?: SummaryCounts;
  /**
   * What the verdict covers (the declared capabilities, applicable and total items); absent in
   * reports written before it was recorded. A scope that disagrees with the run line and the case
   * lines makes the report not conform (report-verdict.ts).
   */
  readonly scope?: VerdictScope;
}

/**
 * Last line of a run stopped by SIGINT or SIGTERM, in place of the summary line: the case lines
 * before it are what finished; the report holds no verdict.
 */
export interface InterruptedLine {
  readonly type: 'interrupted';
  readonly signal: 'SIGINT' | 'SIGTERM';
  /** When the signal arrived. */
  readonly at: string;
  /** Items (cases and scenarios) that finished, each a case line above. */
  readonly finished: number;
  /** Items the run had selected. */
  readonly total: number;
}

export type ReportLine = RunLine | CaseLine | SummaryLine | InterruptedLine;

/** A parsed report. */
export interface Report {
  readonly run: RunLine;
  readonly cases: readonly CaseLine[];
  readonly summary: SummaryLine | null;
  /** The marker of an interrupted run; null when the run was not interrupted (or is older). */
  readonly interrupted?: InterruptedLine | null;
}

export function emptyCounts(): Counts {
  return { pass: 0, fail: 0, error: 0, timeout: 0, crash: 0, 'not-applicable': 0, 'harness-error': 0 };
}

/** Whether a result is the line of an exploration (counted apart from cases and scenarios). */
export const isExploreLine = (r: CaseResult): boolean => r.explore !== undefined;

export function countOutcomes(results: readonly CaseResult[]): Counts {
  const c = emptyCounts();
  for (const r of results) c[r.outcome]++;
  return c;
}
