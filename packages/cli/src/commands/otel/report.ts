// The kit's JSONL report of an `otel check` (schemas/harness/ReportLine.schema.json): a run line
// naming the traced service, one case line per agent run (and per tool span outside any run),
// and a summary line, so `report`, `diff`, HTML and JUnit read it as they read a conform report.
import { basename } from 'node:path';
import { catalogueDigest, type Difference, OTEL_GATE } from '@agent-contracts/harness';
import type { OtelVerdict, RunVerdict } from '../../otel/judge.js';
import { UNVERIFIED } from '../../otel/judge.js';
import { RESOURCE_ATTRIBUTES } from '../../otel/semconv.js';

const SPEC = 'docs/spec/opentelemetry-mapping.md';
const LISTED = 20;

function caseLine(run: RunVerdict): Record<string, unknown> {
  const differences: Difference[] = run.issues.slice(0, LISTED).map((i) => ({
    pointer: i.pointer,
    kind: 'behaviour',
    message:
      `${i.code}${i.tracePath === undefined ? '' : ` (LocalTaskTraceV1 ${i.tracePath})`}: ${i.message}`.slice(
        0,
        1000,
      ),
  }));
  const first = run.issues[0];
  const open = (run.trace as { status?: string } | null)?.status === 'open';
  const what =
    run.trace === null
      ? 'tool span outside any agent run'
      : `${run.toolSpans} tool call(s), ${run.chatSpans} model call(s)${open ? ', open: the run has not ended, no terminal is shown' : ''}`;
  return {
    type: 'case',
    id: run.id,
    gate: OTEL_GATE,
    subject: 'LocalTaskTraceV1',
    level: 'MUST',
    outcome: run.ok ? 'pass' : 'fail',
    detail: run.ok
      ? `the spans map to a valid LocalTaskTraceV1 (${what}${run.dropped ? `, ${run.dropped} event(s) dropped by the bounds` : ''}); not shown by spans, so unverified: ${UNVERIFIED.join('; ')}`
      : `${first!.code} at ${first!.pointer}: ${first!.message} (${what})`.slice(0, 4000),
    durationMs: 0,
    title: `agent run ${run.span}`,
    spec: `${SPEC}#${run.ok ? 'what-stays-unverified' : 'verdict'}`,
    requirements: ['OTL-001', 'OTL-011', 'OTL-012'],
    ...(run.ok
      ? {}
      : {
          differences,
          ...(run.issues.length > LISTED ? { moreDifferences: run.issues.length - LISTED } : {}),
        }),
  };
}

/** The report's lines, each a JSON text. */
export function reportLines(
  file: string,
  verdict: OtelVerdict,
  kit: { name: string; version: string },
  startedAt: Date,
): string[] {
  const r = verdict.resource;
  const ids = verdict.runs.map((x) => x.id);
  const failed = verdict.runs.filter((x) => !x.ok).map((x) => x.id);
  const counts = {
    pass: ids.length - failed.length,
    fail: failed.length,
    error: 0,
    timeout: 0,
    crash: 0,
    'not-applicable': 0,
    'harness-error': 0,
  };
  const finished = new Date();
  const lines: unknown[] = [
    {
      type: 'run',
      reportVersion: 1,
      kit,
      protocolVersion: 1,
      implementation: {
        name: r[RESOURCE_ATTRIBUTES.serviceName] || 'unknown-service',
        version: r[RESOURCE_ATTRIBUTES.serviceVersion] || 'unknown',
        language: r[RESOURCE_ATTRIBUTES.sdkLanguage] || 'unknown',
        command: `otel check ${basename(file)}`,
        capabilities: null,
      },
      startedAt: startedAt.toISOString(),
      filter: [],
      shard: null,
      baseline: null,
      // The catalogue of this report is its runs, not the kit's cases: a reader does not hold
      // its case lines to the golden cases (report-check.ts).
      catalogue: catalogueDigest({ cases: ids, faults: [] }),
    },
    ...verdict.runs.map(caseLine),
    {
      type: 'summary',
      finishedAt: finished.toISOString(),
      durationMs: Math.max(0, finished.getTime() - startedAt.getTime()),
      counts,
      conforms: failed.length === 0 && ids.length > 0,
      unexpectedFailures: failed,
      stalePassing: [],
    },
  ];
  return lines.map((l) => JSON.stringify(l));
}
