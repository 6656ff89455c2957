// Judging the mapped runs: the mapping's own rules (map.ts) and the reference validators on each
// LocalTaskTraceV1, every issue pointed back at the span and attribute it comes from
// (docs/spec/opentelemetry-mapping.md#verdict).
import { validate } from '@agent-contracts/validators';
import { type MappedRun, type Mapping, mapSpans } from './map.js';
import { type InputProblem, readSpans } from './otlp.js';

/** One reason a run fails: a rule code, where in the input, and (for a trace rule) where in the trace. */
export interface RunIssue {
  readonly code: string;
  /** JSON Pointer into the input (the list of requests): the span, or the attribute or member. */
  readonly pointer: string;
  /** For an issue of the mapped trace: its JSON Pointer in the LocalTaskTraceV1. */
  readonly tracePath?: string;
  readonly message: string;
}

/** What a pass of a run does not show (docs/spec/opentelemetry-mapping.md#what-stays-unverified). */
export const UNVERIFIED: readonly string[] = [
  "the user's prompt: the first event is the agent span's start",
  'blocked tool calls, permission decisions and the PreToolUse/PostToolUse host hooks: a span records an execution only',
  "whether the runtime's own recorder refuses duplicates and appends after the terminal",
  'interruption as distinct from failure: error.type is free-form and never read as a reason',
  'replay (LocalTaskTraceReplayV1) and its capability boundary',
  "budgets and the run's state (RunStateV1): the conventions define no budget",
  'model calls: chat spans are counted, not mapped',
  'how an open run ends, and whether it does: an open span was written before it ended',
];

/** The verdict of one agent run (or of a tool span outside every run). */
export interface RunVerdict {
  readonly id: string;
  /** JSON Pointer of the `invoke_agent` span (or the orphan tool span). */
  readonly span: string;
  readonly ok: boolean;
  readonly issues: readonly RunIssue[];
  /** The mapped trace; null for an orphan tool span. */
  readonly trace: Record<string, unknown> | null;
  readonly toolSpans: number;
  readonly chatSpans: number;
  readonly dropped: number;
}

/** The verdict of a whole input. */
export interface OtelVerdict {
  /** Problems of the input's form; when any is present no run is judged. */
  readonly input: readonly InputProblem[];
  readonly runs: readonly RunVerdict[];
  /** `schemaUrl`s of the scopes read, for the report. */
  readonly schemaUrls: readonly string[];
  readonly resource: Readonly<Record<string, string>>;
}

/** Where in the input a trace issue at `path` comes from. */
function origin(run: MappedRun, path: string): string {
  const m = /^\/events\/(\d+)(?:\/([^/]+))?/.exec(path);
  if (m) {
    const o = run.events[Number(m[1])];
    if (!o) return run.agent.pointer;
    return m[2] === 'observedAt' || m[2] === 'type' || m[2] === 'sequence'
      ? o.time
      : m[2] === undefined
        ? o.span
        : o.key;
  }
  if (path === '/completedAt' || path === '/status') return `${run.agent.pointer}/endTimeUnixNano`;
  if (path === '/openedAt') return `${run.agent.pointer}/startTimeUnixNano`;
  return run.agent.pointer;
}

function judgeRun(run: MappedRun): RunVerdict {
  const issues: RunIssue[] = run.problems.map((p) => ({
    code: p.code,
    pointer: p.pointer,
    message: p.message,
  }));
  const result = validate(run.trace);
  if (!result.ok)
    for (const issue of result.issues)
      if (issue.severity === 'error')
        issues.push({
          code: issue.code,
          pointer: origin(run, issue.path),
          tracePath: issue.path,
          message: issue.message,
        });
  return {
    id: run.id,
    span: run.agent.pointer,
    ok: issues.length === 0,
    issues,
    trace: run.trace,
    toolSpans: run.toolSpans,
    chatSpans: run.chatSpans,
    dropped: run.dropped,
  };
}

/** Judge mapped spans. */
export function judgeMapping(mapping: Mapping): RunVerdict[] {
  return [
    ...mapping.runs.map(judgeRun),
    ...mapping.orphans.map((o) => ({
      id: o.id,
      span: o.span.pointer,
      ok: false,
      issues: [{ code: o.problem.code, pointer: o.problem.pointer, message: o.problem.message }],
      trace: null,
      toolSpans: 1,
      chatSpans: 0,
      dropped: 0,
    })),
  ];
}

/** Read, map and judge a list of ExportTraceServiceRequest values. */
export function checkRequests(requests: readonly unknown[]): OtelVerdict {
  const { spans, problems } = readSpans(requests);
  const schemaUrls = [
    ...new Set(spans.map((s) => s.schemaUrl).filter((u): u is string => u !== null)),
  ].sort();
  const resource = spans[0]?.resource ?? {};
  if (problems.length) return { input: problems, runs: [], schemaUrls, resource };
  return { input: [], runs: judgeMapping(mapSpans(spans)), schemaUrls, resource };
}
