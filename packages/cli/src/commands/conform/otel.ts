// `conform --otel <file>`: the kit's own run as an OpenTelemetry trace (docs/cli.md (conform --otel)):
// a root span for the run and a child span per case and fault scenario, with its outcome,
// requirement ids and differences as attributes, encoded by @opentelemetry/otlp-transformer.
// Everything the implementation controls (detail, difference pointers) is bounded text.
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { digestOf } from '@agent-contracts/digest';
import type { CaseResult, RunLine } from '@agent-contracts/harness';
import { printable, truncated } from '@agent-contracts/harness/text';
import { type Attributes, type HrTime, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { CliError } from '../../errors.js';
import { otlpJson, type ReadableSpan } from '../../otel/export.js';
import { RESOURCE_ATTRIBUTES } from '../../otel/semconv.js';

/** Attribute names of the run's spans (the kit's own namespace: no convention defines them). */
export const RUN_ATTRIBUTES = {
  caseId: 'agent_contracts.case.id',
  outcome: 'agent_contracts.case.outcome',
  gate: 'agent_contracts.case.gate',
  level: 'agent_contracts.case.level',
  requirements: 'agent_contracts.case.requirements',
  differences: 'agent_contracts.case.differences',
  differenceCount: 'agent_contracts.case.difference_count',
  detail: 'agent_contracts.case.detail',
  implementation: 'agent_contracts.implementation.name',
  conforms: 'agent_contracts.run.conforms',
} as const;

/** Bounds of the text an implementation controls. */
const DETAIL_CHARS = 512;
const POINTER_CHARS = 256;
const DIFFERENCES_LISTED = 20;
const FAILED = new Set(['fail', 'error', 'timeout', 'crash', 'harness-error']);

const bounded = (s: string, max: number) => printable(truncated(s, max));
const hr = (ms: number): HrTime => [Math.floor(ms / 1000), Math.round((ms % 1000) * 1e6)];
const idOf = (value: unknown, length: 16 | 32) => {
  const hex = digestOf(value).slice(0, length);
  return /^0+$/.test(hex) ? `${hex.slice(0, -1)}1` : hex;
};

/**
 * The run as OTLP JSON: `finishedAt` maps each result to the instant (ms) it was reported; its
 * span starts `durationMs` earlier.
 */
export function runTrace(
  run: RunLine,
  results: readonly CaseResult[],
  finishedAt: ReadonlyMap<CaseResult, number>,
  end: { readonly ms: number; readonly conforms: boolean },
): string {
  const startMs = Date.parse(run.startedAt);
  const traceId = idOf({ otlp: 'conform', run }, 32);
  const rootId = idOf({ otlp: 'span', traceId, root: true }, 16);
  const resource = resourceFromAttributes({ [RESOURCE_ATTRIBUTES.serviceName]: 'agent-contracts conform' });
  const scope = { name: run.kit.name, version: run.kit.version };
  const span = (
    name: string,
    spanId: string,
    parent: string | null,
    from: number,
    to: number,
    attributes: Attributes,
    failed: string | null,
  ): ReadableSpan => {
    const context = { traceId, spanId, traceFlags: 1 };
    return {
      name,
      kind: SpanKind.INTERNAL,
      spanContext: () => context,
      ...(parent === null ? {} : { parentSpanContext: { traceId, spanId: parent, traceFlags: 1 } }),
      startTime: hr(from),
      endTime: hr(Math.max(from, to)),
      duration: hr(Math.max(0, to - from)),
      ended: true,
      status:
        failed === null ? { code: SpanStatusCode.UNSET } : { code: SpanStatusCode.ERROR, message: failed },
      attributes,
      links: [],
      events: [],
      resource,
      instrumentationScope: scope,
      droppedAttributesCount: 0,
      droppedEventsCount: 0,
      droppedLinksCount: 0,
    };
  };
  const spans: ReadableSpan[] = [
    span(
      'conform',
      rootId,
      null,
      startMs,
      end.ms,
      {
        [RUN_ATTRIBUTES.implementation]: bounded(run.implementation.name, POINTER_CHARS),
        [RUN_ATTRIBUTES.conforms]: end.conforms,
      },
      end.conforms ? null : 'the implementation does not conform',
    ),
  ];
  for (const [i, r] of results.entries()) {
    const to = finishedAt.get(r) ?? end.ms;
    const differences = (r.differences ?? [])
      .slice(0, DIFFERENCES_LISTED)
      .map((d) => bounded(d.pointer, POINTER_CHARS));
    spans.push(
      span(
        r.id,
        idOf({ otlp: 'span', traceId, case: r.id, index: i }, 16),
        rootId,
        to - r.durationMs,
        to,
        {
          [RUN_ATTRIBUTES.caseId]: r.id,
          [RUN_ATTRIBUTES.outcome]: r.outcome,
          [RUN_ATTRIBUTES.gate]: r.gate,
          [RUN_ATTRIBUTES.level]: r.level,
          [RUN_ATTRIBUTES.requirements]: [...(r.requirements ?? [])],
          [RUN_ATTRIBUTES.differences]: differences,
          [RUN_ATTRIBUTES.differenceCount]: (r.differences?.length ?? 0) + (r.moreDifferences ?? 0),
          [RUN_ATTRIBUTES.detail]: bounded(r.detail, DETAIL_CHARS),
        },
        FAILED.has(r.outcome) ? r.outcome : null,
      ),
    );
  }
  return `${otlpJson(spans)}\n`;
}

/** Write the trace whole or not at all (a temporary file, then renamed). */
export function writeOtelTrace(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw new CliError(
      'INPUT_READ_FAILED',
      `cannot write --otel ${printable(truncated(path, 300))} (${(err as NodeJS.ErrnoException).code ?? 'error'}); check the directory.`,
    );
  }
}
