// The export direction of docs/spec/opentelemetry-mapping.md#export: LocalTaskTraceV1 documents
// to OpenTelemetry GenAI spans (an `invoke_agent` span per trace, an `execute_tool` span per tool
// call), built as the SDK's ReadableSpan values and encoded by @opentelemetry/otlp-transformer, the
// serializer the OpenTelemetry JavaScript exporters use. Ids are derived from the trace, so one
// trace always exports to the same bytes, and `otel check` maps the export back (#export).

import { digestOf } from '@agent-contracts/digest';
import { type Attributes, type HrTime, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  ATTR_GEN_AI_CONVERSATION_ID,
  ERROR_TYPE_VALUE_OTHER,
} from '@opentelemetry/semantic-conventions/incubating';
import {
  OPEN_ATTRIBUTE,
  OPERATIONS,
  RESOURCE_ATTRIBUTES,
  SEMCONV_RANGE,
  SPAN_ATTRIBUTES,
} from './semconv.js';

/** The SDK's span type, as the serializer takes it. */
export type ReadableSpan = Parameters<typeof JsonTraceSerializer.serializeRequest>[0][number];

/** The attributes of a span event carrying a trace event no span stands for (#export). */
export const EVENT_ATTRIBUTES = {
  sequence: 'agent_contracts.event.sequence',
  occurrenceKey: 'agent_contracts.event.occurrence_key',
  result: 'agent_contracts.event.result',
} as const;

/** Where the spans say they come from. */
export interface ExportOptions {
  /** `service.name` of the resource. */
  readonly serviceName: string;
  /** The instrumentation scope: the kit's package and version. */
  readonly scope: { readonly name: string; readonly version: string };
}

/** What one trace exported to, and what of it no span carries. */
export interface ExportedTrace {
  /** OTLP trace id (32 hex digits) and the agent span's id (16). */
  readonly traceId: string;
  readonly agentSpanId: string;
  readonly toolSpans: number;
  /** Trace events written as span events (host events, deferred results). */
  readonly spanEvents: number;
  /** Tool completions whose start the recorder's bounds dropped: not written (#export). */
  readonly unwritten: number;
  /** The run has no terminal: its agent span is written without an end, marked open (#export). */
  readonly open: boolean;
  /** Tool calls of an open run that have not completed: written without an end, marked open. */
  readonly openToolSpans: number;
}

interface TraceEvent {
  readonly sequence: number;
  readonly observedAt: string;
  readonly type: string;
  readonly result: string;
  readonly occurrenceKey: string;
  readonly payload: Record<string, unknown>;
}

interface TraceDocument {
  readonly traceId: string;
  readonly turnKey: string;
  readonly status: string;
  readonly openedAt: string;
  readonly completedAt: string | null;
  readonly events: readonly TraceEvent[];
}

const INSTANT = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/i;

/** Nanoseconds since the epoch of an RFC 3339 instant, at its full precision (D-OTL-05). */
export function nanosOf(instant: string): bigint {
  const m = INSTANT.exec(instant);
  if (!m) throw new Error(`not an RFC 3339 instant: ${instant}`);
  const seconds = BigInt(Date.parse(`${m[1]}${m[3]!.toUpperCase()}`) / 1000);
  return seconds * 1_000_000_000n + BigInt((m[2] ?? '').padEnd(9, '0'));
}

const hr = (ns: bigint): HrTime => [Number(ns / 1_000_000_000n), Number(ns % 1_000_000_000n)];
const NOT_ENDED: HrTime = [0, 0];

/** A hex id of `length` digits derived from `value`, never all zero (an invalid OTLP id). */
function idOf(value: unknown, length: 16 | 32): string {
  const hex = digestOf(value).slice(0, length);
  return /^0+$/.test(hex) ? `${hex.slice(0, -1)}1` : hex;
}

/**
 * The OTLP trace id of a trace document: derived from its digest, so one document always exports
 * to the same ids and two snapshots of one turn (an open one and its end) never share a span id.
 */
export function otlpTraceId(trace: TraceDocument): string {
  return idOf({ otlp: 'trace', document: digestOf(trace) }, 32);
}

interface SpanDraft {
  readonly name: string;
  readonly spanId: string;
  readonly parentSpanId: string | null;
  readonly start: bigint;
  readonly end: bigint | null;
  readonly attributes: Attributes;
  readonly error: { readonly type: string; readonly message: string } | null;
  readonly events: { name: string; time: bigint; attributes: Attributes }[];
}

/** The spans of one valid LocalTaskTraceV1, in order (the agent span first). */
function draftsOf(trace: TraceDocument): { drafts: SpanDraft[]; stats: Omit<ExportedTrace, 'traceId'> } {
  const traceId = otlpTraceId(trace);
  const agentSpanId = idOf({ otlp: 'span', traceId, operation: OPERATIONS.invokeAgent }, 16);
  const terminal = trace.events.find((e) => e.type === 'TurnTerminal');
  const terminalNs = terminal ? nanosOf(terminal.observedAt) : null;
  const reason = terminal?.payload.reason;
  const agent: SpanDraft = {
    name: OPERATIONS.invokeAgent,
    spanId: agentSpanId,
    parentSpanId: null,
    start: nanosOf(trace.openedAt),
    end: terminalNs,
    attributes: {
      [SPAN_ATTRIBUTES.operationName]: OPERATIONS.invokeAgent,
      [ATTR_GEN_AI_CONVERSATION_ID]: trace.turnKey,
    },
    error:
      terminal && terminal.result !== 'complete'
        ? {
            type: typeof reason === 'string' && reason !== '' ? reason : ERROR_TYPE_VALUE_OTHER,
            message: `the turn ended ${terminal.result}`,
          }
        : null,
    events: [],
  };
  const completions = new Map<string, TraceEvent>();
  for (const e of trace.events) if (e.type === 'ToolLeaseCompleted') completions.set(e.occurrenceKey, e);
  const tools = new Map<string, SpanDraft>();
  for (const e of trace.events) {
    if (e.type !== 'ToolLeaseStarted') continue;
    const done = completions.get(e.occurrenceKey);
    completions.delete(e.occurrenceKey);
    const toolName = typeof e.payload.toolName === 'string' ? e.payload.toolName : undefined;
    const start = nanosOf(e.observedAt);
    // A call the turn ended without completing ends with the turn, failed (#export).
    const end = done ? nanosOf(done.observedAt) : terminalNs;
    tools.set(e.occurrenceKey, {
      name: toolName === undefined ? OPERATIONS.executeTool : `${OPERATIONS.executeTool} ${toolName}`,
      spanId: idOf({ otlp: 'span', traceId, operation: OPERATIONS.executeTool, call: e.occurrenceKey }, 16),
      parentSpanId: agentSpanId,
      start,
      end: end !== null && end < start ? start : end,
      attributes: {
        [SPAN_ATTRIBUTES.operationName]: OPERATIONS.executeTool,
        [SPAN_ATTRIBUTES.toolCallId]: e.occurrenceKey,
        ...(toolName === undefined ? {} : { [SPAN_ATTRIBUTES.toolName]: toolName }),
      },
      error:
        done?.result === 'error'
          ? { type: ERROR_TYPE_VALUE_OTHER, message: 'the tool call completed with an error' }
          : !done && terminal
            ? {
                type: ERROR_TYPE_VALUE_OTHER,
                message: `the turn ended ${terminal.result} before the call completed`,
              }
            : null,
      events: [],
    });
  }
  let spanEvents = 0;
  for (const e of trace.events) {
    if (['ToolLeaseStarted', 'ToolLeaseCompleted', 'TurnTerminal'].includes(e.type)) continue;
    (tools.get(e.occurrenceKey) ?? agent).events.push({
      name: e.type,
      time: nanosOf(e.observedAt),
      attributes: {
        [EVENT_ATTRIBUTES.sequence]: e.sequence,
        [EVENT_ATTRIBUTES.occurrenceKey]: e.occurrenceKey,
        [EVENT_ATTRIBUTES.result]: e.result,
      },
    });
    spanEvents++;
  }
  return {
    drafts: [agent, ...tools.values()],
    stats: {
      agentSpanId,
      toolSpans: tools.size,
      spanEvents,
      unwritten: completions.size,
      open: terminal === undefined,
      openToolSpans: [...tools.values()].filter((t) => t.end === null).length,
    },
  };
}

/**
 * The ReadableSpans of valid LocalTaskTraceV1 documents (validate them first), with what each
 * trace exported to. One resource and one scope hold every span.
 */
export function spansOf(
  traces: readonly Record<string, unknown>[],
  options: ExportOptions,
): { spans: ReadableSpan[]; traces: ExportedTrace[] } {
  const resource = resourceFromAttributes({ [RESOURCE_ATTRIBUTES.serviceName]: options.serviceName });
  const scope = {
    name: options.scope.name,
    version: options.scope.version,
    schemaUrl: `https://opentelemetry.io/schemas/${SEMCONV_RANGE.to}`,
  };
  const spans: ReadableSpan[] = [];
  const out: ExportedTrace[] = [];
  for (const doc of traces) {
    const trace = doc as unknown as TraceDocument;
    const traceId = otlpTraceId(trace);
    const { drafts, stats } = draftsOf(trace);
    out.push({ traceId, ...stats });
    for (const d of drafts) {
      const context = { traceId, spanId: d.spanId, traceFlags: 1 };
      const end = d.end === null ? NOT_ENDED : hr(d.end);
      // A span written before it ended says so (docs/spec/opentelemetry-mapping.md#open-spans).
      const attributes = {
        ...d.attributes,
        ...(d.error ? { [SPAN_ATTRIBUTES.errorType]: d.error.type } : {}),
        ...(d.end === null ? { [OPEN_ATTRIBUTE]: true } : {}),
      };
      spans.push({
        name: d.name,
        kind: SpanKind.INTERNAL,
        spanContext: () => context,
        ...(d.parentSpanId === null
          ? {}
          : { parentSpanContext: { traceId, spanId: d.parentSpanId, traceFlags: 1 } }),
        startTime: hr(d.start),
        endTime: end,
        duration: d.end === null ? NOT_ENDED : hr(d.end - d.start),
        ended: d.end !== null,
        status: d.error
          ? { code: SpanStatusCode.ERROR, message: d.error.message }
          : { code: SpanStatusCode.UNSET },
        attributes,
        links: [],
        events: d.events.map((e) => ({ name: e.name, time: hr(e.time), attributes: e.attributes })),
        resource,
        instrumentationScope: scope,
        droppedAttributesCount: 0,
        droppedEventsCount: 0,
        droppedLinksCount: 0,
      });
    }
  }
  return { spans, traces: out };
}

/** The spans as one OTLP/HTTP JSON request body (`ExportTraceServiceRequest`). */
export function otlpJson(spans: readonly ReadableSpan[]): string {
  const bytes = JsonTraceSerializer.serializeRequest([...spans]);
  if (!bytes) throw new Error('the OTLP JSON serializer returned nothing');
  return Buffer.from(bytes).toString('utf8');
}

/** The same spans in the OTLP protobuf encoding (the OTLP/HTTP and gRPC wire form). */
export function otlpProtobuf(spans: readonly ReadableSpan[]): Uint8Array {
  const bytes = ProtobufTraceSerializer.serializeRequest([...spans]);
  if (!bytes) throw new Error('the OTLP protobuf serializer returned nothing');
  return bytes;
}
