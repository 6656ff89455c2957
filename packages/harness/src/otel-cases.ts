// The golden cases of the OpenTelemetry mapping (conformance/otel,
// docs/spec/opentelemetry-mapping.md): spans in, verdict out. A case holds the input (requests, or
// the text of a file) and the verdict every checker must give: the input problems, or for each run
// its id, whether it passes and its issues by code and location. The harness loads them beside
// the golden cases and fault scenarios; `otel check` (the CLI) is the checker they judge.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { walkFiles, walkProblemLines } from './walk.js';

/** An issue as a case states it: a rule code at a JSON Pointer into the input. */
export interface ExpectedIssue {
  readonly code: string;
  readonly pointer: string;
}

/** One run of a case's verdict (only the members the case names are compared). */
export interface ExpectedRun {
  readonly id: string;
  readonly ok: boolean;
  readonly issues: readonly ExpectedIssue[];
  readonly status?: string;
  readonly toolSpans?: number;
  readonly chatSpans?: number;
  readonly dropped?: number;
}

/** One golden case of the mapping. */
export interface OtelCase {
  /** `otel/<path of the file below conformance/otel, without .json>`. */
  readonly id: string;
  readonly title: string;
  readonly gate: string;
  readonly level: string;
  readonly requirements: readonly string[];
  readonly spec: string;
  readonly input: { readonly requests: unknown[] } | { readonly text: string };
  readonly expect: {
    readonly input?: readonly ExpectedIssue[];
    readonly runs: readonly ExpectedRun[];
  };
}

/** The directory of the mapping's cases in a conformance directory. */
export const OTEL_CASES_DIR = 'otel';

/**
 * Every case of `<conformanceDir>/otel`, sorted by id ([] when the directory is absent). A case
 * whose id does not match its file's path is refused, so an id names one file.
 */
export function loadOtelCases(conformanceDir: string): OtelCase[] {
  const walk = walkFiles(join(conformanceDir, OTEL_CASES_DIR), { suffix: '.json' });
  const problems = walkProblemLines(OTEL_CASES_DIR, walk);
  if (problems.length) throw new Error(`the OpenTelemetry cases are malformed:\n  ${problems.join('\n  ')}`);
  const out: OtelCase[] = [];
  for (const { path: p, relative: rel } of walk.files) {
    const c = JSON.parse(readFileSync(p, 'utf8')) as OtelCase;
    const id = `otel/${rel.replace(/\.json$/, '')}`;
    if (c.id !== id) throw new Error(`${p}: id ${c.id} does not match the file's path (${id})`);
    out.push(c);
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
