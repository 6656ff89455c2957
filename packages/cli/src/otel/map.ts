// The mapping of docs/spec/opentelemetry-mapping.md: the spans of one input, grouped into agent
// runs (one per `invoke_agent` span), each run mapped to the LocalTaskTraceV1 its recorder would
// have written, with the span and attribute every event comes from. The mapping reads only the
// attributes of semconv.ts and never a span's name (OTL-002).
import { canonicalize, derivedId, digestOf } from '@agent-contracts/digest';
import { type Span, stringAttribute } from './otlp.js';
import { OPEN_ATTRIBUTE, OPERATIONS, SPAN_ATTRIBUTES } from './semconv.js';

/** Where a mapped event, or a field of the trace, comes from in the input. */
export interface Origin {
  /** JSON Pointer of the span. */
  readonly span: string;
  /** Where the event's instant was read (`startTimeUnixNano` or `endTimeUnixNano`). */
  readonly time: string;
  /** Where its key and result were read (the tool call id, `error.type`; else the time member). */
  readonly key: string;
}

/** A mapping problem: a rule of the page that the spans break before any document is judged. */
export interface MappingProblem {
  readonly code:
    | 'OTEL_TOOL_OUTSIDE_RUN'
    | 'OTEL_SPAN_UNFINISHED'
    | 'OTEL_SPAN_TIME_INVALID'
    | 'OTEL_ATTRIBUTE_INVALID'
    | 'OTEL_PARENT_CYCLE';
  readonly pointer: string;
  readonly message: string;
}

/** One agent run and the trace mapped from it. */
export interface MappedRun {
  /** `otel/<traceId>/<spanId>` of the `invoke_agent` span. */
  readonly id: string;
  readonly agent: Span;
  /** The LocalTaskTraceV1 document (valid or not: the validators judge it). */
  readonly trace: Record<string, unknown>;
  /** Origin of each event of `trace.events`, by index. */
  readonly events: readonly Origin[];
  /** Problems of this run's spans (a tool span without end, an end before its start, ...). */
  readonly problems: readonly MappingProblem[];
  /** How many tool spans the run has, and how many `chat` spans (read, not mapped). */
  readonly toolSpans: number;
  readonly chatSpans: number;
  /** Events dropped from the front to keep the trace's bounds (their spans are unverified). */
  readonly dropped: number;
}

/** Every run of the input, and the problems that belong to no run. */
export interface Mapping {
  readonly runs: readonly MappedRun[];
  /** Problems charged to no run: a tool span outside every agent run, a parent cycle. */
  readonly orphans: readonly { readonly id: string; readonly span: Span; readonly problem: MappingProblem }[];
}

/** The key format of LocalTaskTraceV1 (turnKey, occurrenceKey). */
const KEY = /^[A-Za-z0-9][A-Za-z0-9._:@-]*$/;
const MAX_EVENTS = 128;
const MAX_TRACE_BYTES = 131072;

/** RFC 3339 UTC with nine fractional digits: every nanosecond of the span survives (D-OTL-05). */
export function instant(ns: bigint): string {
  const ms = ns / 1_000_000n;
  const date = new Date(Number(ms));
  const base = date.toISOString().slice(0, 19);
  return `${base}.${(ns % 1_000_000_000n).toString().padStart(9, '0')}Z`;
}

const operation = (s: Span) => stringAttribute(s, SPAN_ATTRIBUTES.operationName);
const failed = (s: Span) => s.statusCode === 2 || s.attributes.has(SPAN_ATTRIBUTES.errorType);

/** Identical copies of one span (an at-least-once re-delivery) are read once (D-OTL-07). */
function distinct(spans: readonly Span[]): Span[] {
  const seen = new Map<string, string[]>();
  const out: Span[] = [];
  for (const s of spans) {
    const key = `${s.traceId}/${s.spanId}`;
    const text = JSON.stringify(s.value);
    const copies = seen.get(key) ?? [];
    if (copies.includes(text)) continue;
    copies.push(text);
    seen.set(key, copies);
    out.push(s);
  }
  return out;
}

interface Pending {
  readonly ns: bigint;
  /** Order of events at the same instant: the run's start, tool starts, tool ends, the run's end. */
  readonly rank: number;
  readonly tie: string;
  readonly event: { type: string; result: string; occurrenceKey: string; payload: Record<string, unknown> };
  readonly origin: Origin;
}

/** Map the spans of one input (see the page for every rule applied here). */
export function mapSpans(input: readonly Span[]): Mapping {
  const spans = distinct(input);
  const byId = new Map<string, Span>();
  for (const s of spans) {
    const key = `${s.traceId}/${s.spanId}`;
    if (!byId.has(key)) byId.set(key, s);
  }
  const agents = spans.filter((s) => operation(s) === OPERATIONS.invokeAgent);
  const orphans: Mapping['orphans'][number][] = [];

  /** The nearest `invoke_agent` ancestor's `traceId/spanId`, null when none, 'cycle' on a loop. */
  const runOf = (s: Span): string | null | 'cycle' => {
    const visited = new Set<string>();
    let parent = s.parentSpanId;
    while (parent !== null) {
      const key = `${s.traceId}/${parent}`;
      if (visited.has(key)) return 'cycle';
      visited.add(key);
      const p = byId.get(key);
      if (!p) return null;
      if (operation(p) === OPERATIONS.invokeAgent) return key;
      parent = p.parentSpanId;
    }
    return null;
  };

  const members = new Map<string, { tools: Span[]; chats: number }>();
  for (const a of agents) members.set(`${a.traceId}/${a.spanId}`, { tools: [], chats: 0 });
  for (const s of spans) {
    const op = operation(s);
    if (op !== OPERATIONS.executeTool && op !== OPERATIONS.chat) continue;
    const run = runOf(s);
    if (run === null || run === 'cycle') {
      if (op === OPERATIONS.chat) continue;
      orphans.push({
        id: `otel/${s.traceId}/${s.spanId}`,
        span: s,
        problem:
          run === 'cycle'
            ? {
                code: 'OTEL_PARENT_CYCLE',
                pointer: `${s.pointer}/parentSpanId`,
                message: 'the parentSpanId chain of this tool span loops back on itself; no run can own it',
              }
            : {
                code: 'OTEL_TOOL_OUTSIDE_RUN',
                pointer: s.pointer,
                message:
                  'an execute_tool span with no invoke_agent span among its ancestors in this input: a tool call outside any agent run',
              },
      });
      continue;
    }
    const m = members.get(run)!;
    if (op === OPERATIONS.chat) m.chats++;
    else m.tools.push(s);
  }

  const runs = agents.map((agent) => {
    const m = members.get(`${agent.traceId}/${agent.spanId}`)!;
    // Every copy of the agent span is one end of the run: a second, different copy is a second
    // terminal, which the trace then shows (D-OTL-07).
    const copies = agents.filter((a) => a.traceId === agent.traceId && a.spanId === agent.spanId);
    return mapRun(agent, copies, m.tools, m.chats);
  });
  // One run per agent span id: the first copy stands for the run.
  const firstCopies = runs.filter(
    (r, i) =>
      runs.findIndex((x) => x.agent.traceId === r.agent.traceId && x.agent.spanId === r.agent.spanId) === i,
  );
  return { runs: firstCopies, orphans };
}

function mapRun(agent: Span, copies: readonly Span[], tools: readonly Span[], chats: number): MappedRun {
  const problems: MappingProblem[] = [];
  const turnKey = `otel:${agent.traceId}:${agent.spanId}`;
  const pending: Pending[] = [];
  /**
   * Whether a span is marked open (OPEN_ATTRIBUTE `true`: written before it ended). Only a
   * boolValue `true` on a span without an end marks it; any other value, or the mark on a span
   * that ended, fails the run at the attribute.
   */
  const marked = (s: Span): boolean => {
    const a = s.attributes.get(OPEN_ATTRIBUTE);
    if (a === undefined) return false;
    if (a.bool === null) {
      problems.push({
        code: 'OTEL_ATTRIBUTE_INVALID',
        pointer: a.pointer,
        message: `${OPEN_ATTRIBUTE} must be a boolValue (true: the span was written before it ended)`,
      });
      return false;
    }
    if (a.bool && s.endNs !== null) {
      problems.push({
        code: 'OTEL_ATTRIBUTE_INVALID',
        pointer: a.pointer,
        message: `${OPEN_ATTRIBUTE} is true on a span that has an end: a span is open or ended, not both`,
      });
      return false;
    }
    return a.bool;
  };
  // An open run: no copy of its agent span has an end, and each is marked open. Only in an open
  // run may a tool span be open too (an open lease); in a run that ended, a tool span without its
  // end is a call that never ended, marked or not.
  const openCopies = new Set(copies.filter((c) => marked(c) && c.endNs === null));
  const runOpen = openCopies.size === copies.length;
  const timed = (s: Span, what: string): boolean => {
    if (s.startNs === null) {
      problems.push({
        code: 'OTEL_SPAN_UNFINISHED',
        pointer: `${s.pointer}/startTimeUnixNano`,
        message: `the ${what} span has no start time`,
      });
      return false;
    }
    if (s.endNs !== null && s.endNs < s.startNs) {
      problems.push({
        code: 'OTEL_SPAN_TIME_INVALID',
        pointer: `${s.pointer}/endTimeUnixNano`,
        message: `the ${what} span ends before it starts`,
      });
    }
    const open = what === 'agent' ? openCopies.has(s) : marked(s) && runOpen;
    if (s.endNs === null && !open)
      problems.push({
        code: 'OTEL_SPAN_UNFINISHED',
        pointer: `${s.pointer}/endTimeUnixNano`,
        message: `the ${what} span has no end: ${
          what === 'tool'
            ? runOpen
              ? `a tool call that started and never ended, not marked ${OPEN_ATTRIBUTE}`
              : 'a tool call that started and never ended in a run that ended'
            : `the run never ended, and the span is not marked ${OPEN_ATTRIBUTE}`
        }`,
      });
    return true;
  };

  const openedNs = agent.startNs ?? 0n;
  if (timed(agent, 'agent'))
    pending.push({
      ns: openedNs,
      rank: 0,
      tie: '',
      event: {
        type: 'UserPromptSubmit',
        result: 'observed',
        occurrenceKey: agent.spanId,
        payload: { spanId: agent.spanId },
      },
      origin: {
        span: agent.pointer,
        time: `${agent.pointer}/startTimeUnixNano`,
        key: `${agent.pointer}/spanId`,
      },
    });
  for (const copy of copies) {
    if (copy !== agent && !timed(copy, 'agent')) continue;
    if (copy.endNs === null) continue;
    const errorType = stringAttribute(copy, SPAN_ATTRIBUTES.errorType);
    pending.push({
      ns: copy.endNs,
      rank: 3,
      tie: '',
      event: {
        type: 'TurnTerminal',
        result: failed(copy) ? 'failed' : 'complete',
        occurrenceKey: 'turn-terminal',
        payload: {
          reason: failed(copy) ? 'span-status-error' : 'span-ended',
          ...(errorType === undefined ? {} : { errorType }),
        },
      },
      origin: {
        span: copy.pointer,
        time: `${copy.pointer}/endTimeUnixNano`,
        key: copy.attributes.get(SPAN_ATTRIBUTES.errorType)?.pointer ?? `${copy.pointer}/endTimeUnixNano`,
      },
    });
  }

  for (const tool of tools) {
    if (!timed(tool, 'tool')) continue;
    const callId = tool.attributes.get(SPAN_ATTRIBUTES.toolCallId);
    let key = tool.spanId;
    if (callId !== undefined) {
      if (callId.text === null || !KEY.test(callId.text) || callId.text.length > 256) {
        problems.push({
          code: 'OTEL_ATTRIBUTE_INVALID',
          pointer: callId.pointer,
          message:
            'gen_ai.tool.call.id must be a string of 1 to 256 characters of [A-Za-z0-9._:@-], starting with a letter or digit, to key the tool call',
        });
        continue;
      }
      key = callId.text;
    }
    const toolName = stringAttribute(tool, SPAN_ATTRIBUTES.toolName);
    const payload = {
      toolCallId: key,
      ...(toolName === undefined ? {} : { toolName }),
      spanId: tool.spanId,
    };
    const keyAt = callId?.pointer ?? `${tool.pointer}/spanId`;
    pending.push({
      ns: tool.startNs!,
      rank: 1,
      tie: tool.spanId,
      event: { type: 'ToolLeaseStarted', result: 'allowed', occurrenceKey: key, payload },
      origin: { span: tool.pointer, time: `${tool.pointer}/startTimeUnixNano`, key: keyAt },
    });
    if (tool.endNs !== null)
      pending.push({
        // biome-ignore lint/complexity/useMathMinMax: bigint, which Math.max does not take
        ns: tool.endNs < tool.startNs! ? tool.startNs! : tool.endNs,
        rank: 2,
        tie: tool.spanId,
        event: {
          type: 'ToolLeaseCompleted',
          result: failed(tool) ? 'error' : 'success',
          occurrenceKey: key,
          payload,
        },
        origin: { span: tool.pointer, time: `${tool.pointer}/endTimeUnixNano`, key: keyAt },
      });
  }

  pending.sort((a, b) =>
    a.ns !== b.ns
      ? a.ns < b.ns
        ? -1
        : 1
      : a.rank !== b.rank
        ? a.rank - b.rank
        : a.tie < b.tie
          ? -1
          : a.tie > b.tie
            ? 1
            : 0,
  );
  const openedAt = instant(openedNs);
  const traceId = derivedId('trace-', { turnKey, openedAt }, 24);
  let events = pending.map((p, i) => ({
    eventId: derivedId('event-', { traceId, type: p.event.type, occurrenceKey: p.event.occurrenceKey }, 24),
    occurrenceKey: p.event.occurrenceKey,
    sequence: i + 1,
    observedAt: instant(p.ns),
    type: p.event.type,
    result: p.event.result,
    payload: p.event.payload,
  }));
  let origins = pending.map((p) => p.origin);
  const terminals = events.filter((e) => e.type === 'TurnTerminal');
  const last = terminals.at(-1);
  const trace: Record<string, unknown> = {
    schemaVersion: 'LocalTaskTraceV1',
    traceId,
    turnKey,
    status: last ? last.result : 'open',
    sequence: events.length,
    openedAt,
    completedAt: last ? last.observedAt : null,
    sequenceBase: 0,
    droppedEvents: 0,
    prefixDigest: null,
    events,
  };
  // The recorder's bounds (LocalTaskTraceGate A10): drop from the front, folding each into the
  // prefix digest, so a long run maps to the trace a conforming recorder would hold.
  let dropped = 0;
  let prefix: string | null = null;
  const size = () => Buffer.byteLength(canonicalize(trace));
  while (events.length > 1 && (events.length > MAX_EVENTS || size() > MAX_TRACE_BYTES)) {
    const [removed, ...rest] = events;
    prefix = digestOf({ prefixDigest: prefix, event: removed });
    events = rest;
    origins = origins.slice(1);
    dropped++;
    Object.assign(trace, { events, sequenceBase: dropped, droppedEvents: dropped, prefixDigest: prefix });
  }
  return {
    id: `otel/${agent.traceId}/${agent.spanId}`,
    agent,
    trace,
    events: origins,
    problems,
    toolSpans: tools.length,
    chatSpans: chats,
    dropped,
  };
}
