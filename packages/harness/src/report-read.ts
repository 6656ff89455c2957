// Reading a JSONL report. Reports are CI artifacts that anyone can write, so a report is checked
// line by line against its published schema (schemas/harness/ReportLine.schema.json, through the
// ahead-of-time validators generated from it) and against the order `conform` writes, within
// bounds, before any renderer sees it. A report that fails is refused whole with REPORT_INVALID.
import { JsonTextError, parseJsonText } from '@agent-contracts/digest';
import { ReportError } from './errors.js';
import { LINE_VALIDATORS } from './generated/report-line.generated.js';
import {
  type CaseLine,
  type InterruptedLine,
  REPORT_VERSION,
  type Report,
  type RunLine,
  type SummaryLine,
} from './report.js';
import { printable, truncated } from './text.js';

/** Bounds of a report file; a report beyond any of them is refused, never cut. */
export interface ReportLimits {
  /** Whole file, in UTF-8 bytes. */
  readonly maxBytes: number;
  /** One line, in UTF-8 bytes. */
  readonly maxLineBytes: number;
  /** Non-blank lines (the run line, case lines and the summary line). */
  readonly maxLines: number;
}

/**
 * 64 MiB, 1 MiB a line, 100,000 lines: a full run of today's kit is about 1,100 lines of under
 * 1 KiB, and the longest line `conform` can write (a 64 KiB stderr tail, every character escaped)
 * stays under 1 MiB.
 */
export const REPORT_LIMITS: ReportLimits = {
  maxBytes: 64 * 1024 * 1024,
  maxLineBytes: 1024 * 1024,
  maxLines: 100_000,
};

/** The part of ajv's `ErrorObject` the generated validators produce (`messages: false`). */
export interface LineError {
  readonly instancePath: string;
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** A generated line validator: true when the value is a valid line of its kind. */
export interface LineValidator {
  (data: unknown): boolean;
  errors?: readonly LineError[] | null;
}

const SCHEMA = 'schemas/harness/ReportLine.schema.json';
const WHAT_TO_DO =
  'a report is written by `agent-contracts conform --report` and never edited; rerun conform, or fix the tool that wrote this file';

const shown = (s: string) => `"${truncated(printable(s), 120)}"`;

/** A JSON Pointer made printable and bounded (property names come from the file). */
const pointerText = (p: string) => (p === '' ? 'the line' : truncated(printable(p), 200));

const token = (name: string) => name.replace(/~/g, '~0').replace(/\//g, '~1');

/** Where a schema error is (a missing property: where it should be) and what is wrong there. */
function schemaProblem(e: LineError): { pointer: string; message: string } {
  const p = e.params;
  if (e.keyword === 'required' || e.keyword === 'additionalProperties') {
    const name = String(e.keyword === 'required' ? p.missingProperty : p.additionalProperty);
    const pointer = `${e.instancePath}/${token(name)}`;
    return {
      pointer,
      message:
        e.keyword === 'required'
          ? `${pointerText(pointer)} is missing, and the schema requires it`
          : `${pointerText(pointer)} is a property the schema does not define`,
    };
  }
  const at = pointerText(e.instancePath);
  const message = (() => {
    switch (e.keyword) {
      case 'type':
        return `${at} must be of type ${String(p.type)}`;
      case 'enum':
        return `${at} must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
      case 'const':
        return `${at} must be ${JSON.stringify(p.allowedValue)}`;
      case 'anyOf':
        return `${at} matches none of the shapes the schema allows`;
      default:
        return `${at} breaks the schema keyword "${e.keyword}"`;
    }
  })();
  return { pointer: e.instancePath, message };
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * Parse and check JSONL report text: every non-blank line must be valid against
 * schemas/harness/ReportLine.schema.json, the first one a `run` line of report version
 * {@link REPORT_VERSION}, then `case` lines with distinct ids, then at most one `summary` or
 * `interrupted` line, last. Without a summary line the report is incomplete, or interrupted when
 * it ends with the marker (see `judgeReport`), not invalid.
 *
 * @throws {ReportError} `REPORT_INVALID`, naming the line and the JSON Pointer, for anything else.
 * @example
 * const report = parseReport(readFileSync('run.jsonl', 'utf8'), 'run.jsonl');
 */
export function parseReport(text: string, name = 'report', limits: ReportLimits = REPORT_LIMITS): Report {
  const file = truncated(printable(name), 300);
  const refuse = (message: string, where: { line?: number; pointer?: string } = {}) => {
    const place = where.line === undefined ? '' : ` line ${where.line}:`;
    return new ReportError(`${file}:${place} ${message}; ${WHAT_TO_DO}.`, where);
  };
  if (text.length > limits.maxBytes || Buffer.byteLength(text) > limits.maxBytes)
    throw refuse(`the report is larger than ${limits.maxBytes} bytes`);

  let run: RunLine | null = null;
  const cases: CaseLine[] = [];
  const ids = new Map<string, number>();
  let summary: SummaryLine | null = null;
  let interrupted: InterruptedLine | null = null;
  let count = 0;
  let start = 0;
  for (let n = 1; start <= text.length; n++) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const raw = text.slice(start, end);
    start = end + 1;
    if (!raw.trim()) continue;
    if (++count > limits.maxLines) throw refuse(`the report has more than ${limits.maxLines} lines`);
    if (raw.length > limits.maxLineBytes || Buffer.byteLength(raw) > limits.maxLineBytes)
      throw refuse(`the line is longer than ${limits.maxLineBytes} bytes`, { line: n });
    let value: unknown;
    try {
      // JSON.parse is not recursive in V8, and the schema check below descends no deeper than the
      // schema does, so nesting depth is bounded by the schema (at most 4 levels pass).
      value = parseJsonText(raw);
    } catch (e) {
      if (e instanceof JsonTextError && e.problem.kind === 'duplicate-member')
        throw refuse(`the line repeats a member name: ${printable(e.message)}`, {
          line: n,
          pointer: e.problem.pointer,
        });
      throw refuse('the line is not JSON', { line: n });
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      throw refuse(`the line is ${kindOf(value)}, not a JSON object (${SCHEMA})`, { line: n, pointer: '' });
    const type = (value as { type?: unknown }).type;
    const validate =
      typeof type === 'string' && Object.hasOwn(LINE_VALIDATORS, type) ? LINE_VALIDATORS[type] : undefined;
    if (!validate)
      throw refuse(`/type must be "run", "case", "summary" or "interrupted" (${SCHEMA})`, {
        line: n,
        pointer: '/type',
      });
    if (!validate(value)) {
      const problem = schemaProblem(
        validate.errors?.[0] ?? { instancePath: '', keyword: 'unknown', params: {} },
      );
      throw refuse(`${problem.message} (${SCHEMA})`, { line: n, pointer: problem.pointer });
    }
    if (summary) throw refuse('a line follows the summary line, which must be last', { line: n });
    if (interrupted) throw refuse('a line follows the interrupted line, which must be last', { line: n });
    if (type === 'run') {
      if (run || cases.length) throw refuse('a second run line; the run line comes first, once', { line: n });
      run = value as RunLine;
      if (run.reportVersion !== REPORT_VERSION)
        throw refuse(
          `report version ${run.reportVersion} is not the version ${REPORT_VERSION} this kit reads`,
          {
            line: n,
            pointer: '/reportVersion',
          },
        );
      continue;
    }
    if (!run) throw refuse('the first line must be the run line', { line: n, pointer: '/type' });
    if (type === 'summary') summary = value as SummaryLine;
    else if (type === 'interrupted') interrupted = value as InterruptedLine;
    else {
      const line = value as CaseLine;
      const first = ids.get(line.id);
      if (first !== undefined)
        throw refuse(`case ${shown(line.id)} is reported twice (first on line ${first})`, {
          line: n,
          pointer: '/id',
        });
      ids.set(line.id, n);
      cases.push(line);
    }
  }
  if (!run) throw refuse('no run line; is this an agent-contracts JSONL report?');
  return { run, cases, summary, interrupted };
}
