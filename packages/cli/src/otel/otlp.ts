// Reading OTLP trace data in its JSON encoding (the protobuf JSON mapping of
// ExportTraceServiceRequest): the OTLP/HTTP JSON body (one request) and the Collector file
// exporter's output (one request a line). Everything in the file is untrusted: each member the
// mapping uses is checked for its type, ids and times are checked for their form, and a problem
// is reported by JSON Pointer into the list of requests (docs/spec/opentelemetry-mapping.md#input).
import { OPEN_ATTRIBUTE, SPAN_ATTRIBUTES } from './semconv.js';

/** An attribute value as the mapping reads it, with where it is. */
export interface SpanAttribute {
  /** The OTLP AnyValue kind (`stringValue`, `intValue`, ...), or null for an empty value. */
  readonly kind: string | null;
  /** The string, for `stringValue`; null otherwise. */
  readonly text: string | null;
  /** The boolean, for a `boolValue` that is a JSON boolean; null otherwise. */
  readonly bool: boolean | null;
  /** JSON Pointer of the attribute's `KeyValue` entry. */
  readonly pointer: string;
}

/** One span of the input, in the members the mapping reads. */
export interface Span {
  /** JSON Pointer of the span: `/<request>/resourceSpans/<r>/scopeSpans/<s>/spans/<i>`. */
  readonly pointer: string;
  /** 32 lowercase hex digits. */
  readonly traceId: string;
  /** 16 lowercase hex digits. */
  readonly spanId: string;
  /** null for a root span. */
  readonly parentSpanId: string | null;
  readonly name: string;
  /** Nanoseconds since the Unix epoch; null when absent or 0 (the span did not end). */
  readonly startNs: bigint | null;
  readonly endNs: bigint | null;
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  readonly statusCode: 0 | 1 | 2;
  /** The attributes the mapping reads (semconv.ts), by key; others are not kept. */
  readonly attributes: ReadonlyMap<string, SpanAttribute>;
  /** The resource's `service.name`, `service.version`, `telemetry.sdk.language` strings. */
  readonly resource: Readonly<Record<string, string>>;
  /** The scope's `schemaUrl`, else the resource's; null when neither is given. */
  readonly schemaUrl: string | null;
  /** The span's JSON value as read, for comparing two copies of one span. */
  readonly value: unknown;
}

/** A problem of the input's form, by pointer. */
export interface InputProblem {
  readonly code: 'OTEL_INPUT_INVALID' | 'OTEL_ATTRIBUTE_INVALID';
  readonly pointer: string;
  readonly message: string;
}

/** At most this many spans are read from one input (D-OTL-09). */
export const MAX_SPANS = 100_000;

const READ_KEYS: ReadonlySet<string> = new Set([...Object.values(SPAN_ATTRIBUTES), OPEN_ATTRIBUTE]);
const TRACE_ID = /^[0-9a-f]{32}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);
const STATUS_NAMES: Readonly<Record<string, 0 | 1 | 2>> = {
  STATUS_CODE_UNSET: 0,
  STATUS_CODE_OK: 1,
  STATUS_CODE_ERROR: 2,
};
const VALUE_KINDS = [
  'stringValue',
  'boolValue',
  'intValue',
  'doubleValue',
  'arrayValue',
  'kvlistValue',
  'bytesValue',
] as const;

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
const esc = (token: string | number) => String(token).replaceAll('~', '~0').replaceAll('/', '~1');

class Reader {
  readonly spans: Span[] = [];
  readonly problems: InputProblem[] = [];

  problem(pointer: string, message: string, code: InputProblem['code'] = 'OTEL_INPUT_INVALID'): void {
    this.problems.push({ code, pointer, message });
  }

  /** An optional array member: [] when absent, null (and a problem) when not an array. */
  list(owner: Record<string, unknown>, key: string, at: string): unknown[] | null {
    const v = owner[key];
    if (v === undefined || v === null) return [];
    if (Array.isArray(v)) return v;
    this.problem(`${at}/${esc(key)}`, `${key} must be an array`);
    return null;
  }

  /** A fixed64 time: a decimal string or a safe integer; null for absent or 0. */
  time(owner: Record<string, unknown>, key: string, at: string): bigint | null | undefined {
    const v = owner[key];
    if (v === undefined || v === null) return null;
    let n: bigint | undefined;
    if (typeof v === 'string' && /^\d{1,20}$/.test(v)) n = BigInt(v);
    else if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) n = BigInt(v);
    if (n === undefined || n > 18446744073709551615n) {
      this.problem(
        `${at}/${esc(key)}`,
        `${key} must be nanoseconds since the Unix epoch, as a decimal string (a JSON number only below 2^53)`,
      );
      return undefined;
    }
    return n === 0n ? null : n;
  }

  /** A hex id (`traceId`, `spanId`, `parentSpanId`): lowercase as the OTLP JSON mapping writes it. */
  id(
    owner: Record<string, unknown>,
    key: string,
    at: string,
    form: RegExp,
    zero: string,
  ): string | null | undefined {
    const v = owner[key];
    if ((v === undefined || v === '') && key === 'parentSpanId') return null;
    if (typeof v === 'string' && form.test(v.toLowerCase()) && v.toLowerCase() !== zero)
      return v.toLowerCase();
    this.problem(
      `${at}/${esc(key)}`,
      `${key} must be ${form === TRACE_ID ? 32 : 16} hex digits, not all zero (the OTLP JSON mapping writes ids as hex, not base64)`,
    );
    return undefined;
  }

  attributes(owner: Record<string, unknown>, at: string, keep: (key: string) => boolean) {
    const out = new Map<string, SpanAttribute>();
    const items = this.list(owner, 'attributes', at);
    if (items === null) return null;
    for (const [i, kv] of items.entries()) {
      const p = `${at}/attributes/${i}`;
      if (!isObject(kv) || typeof kv.key !== 'string') {
        this.problem(p, 'an attribute must be an object with a string key');
        return null;
      }
      if (!keep(kv.key)) continue;
      if (out.has(kv.key)) {
        this.problem(
          p,
          `the attribute ${JSON.stringify(kv.key)} is given twice (also at ${out.get(kv.key)!.pointer}); OTLP keys are unique, and a reader keeping the other would judge another span`,
          'OTEL_ATTRIBUTE_INVALID',
        );
        return null;
      }
      const value = kv.value;
      let kind: string | null = null;
      let text: string | null = null;
      if (isObject(value)) {
        const kinds = VALUE_KINDS.filter((k) => value[k] !== undefined);
        if (kinds.length > 1) {
          this.problem(`${p}/value`, 'an AnyValue holds exactly one of its kinds', 'OTEL_ATTRIBUTE_INVALID');
          return null;
        }
        kind = kinds[0] ?? null;
        if (kind === 'stringValue') {
          if (typeof value.stringValue !== 'string') {
            this.problem(`${p}/value/stringValue`, 'stringValue must be a string', 'OTEL_ATTRIBUTE_INVALID');
            return null;
          }
          text = value.stringValue;
        }
      } else if (value !== undefined && value !== null) {
        this.problem(
          `${p}/value`,
          'an attribute value must be an OTLP AnyValue object',
          'OTEL_ATTRIBUTE_INVALID',
        );
        return null;
      }
      const bool = isObject(value) && typeof value.boolValue === 'boolean' ? value.boolValue : null;
      out.set(kv.key, { kind, text, bool, pointer: p });
    }
    return out;
  }

  status(span: Record<string, unknown>, at: string): 0 | 1 | 2 | undefined {
    const status = span.status;
    if (status === undefined || status === null) return 0;
    if (!isObject(status)) {
      this.problem(`${at}/status`, 'status must be an object');
      return undefined;
    }
    const code = status.code;
    if (code === undefined || code === null) return 0;
    if (code === 0 || code === 1 || code === 2) return code;
    if (typeof code === 'string' && Object.hasOwn(STATUS_NAMES, code)) return STATUS_NAMES[code];
    this.problem(`${at}/status/code`, 'status.code must be 0 (unset), 1 (ok) or 2 (error)');
    return undefined;
  }

  span(
    value: unknown,
    at: string,
    resource: Readonly<Record<string, string>>,
    schemaUrl: string | null,
  ): void {
    if (!isObject(value)) {
      this.problem(at, 'a span must be an object');
      return;
    }
    const traceId = this.id(value, 'traceId', at, TRACE_ID, ZERO_TRACE);
    const spanId = this.id(value, 'spanId', at, SPAN_ID, ZERO_SPAN);
    const parentSpanId = this.id(value, 'parentSpanId', at, SPAN_ID, ZERO_SPAN);
    const startNs = this.time(value, 'startTimeUnixNano', at);
    const endNs = this.time(value, 'endTimeUnixNano', at);
    const statusCode = this.status(value, at);
    const attributes = this.attributes(value, at, (k) => READ_KEYS.has(k));
    if (value.name !== undefined && typeof value.name !== 'string')
      this.problem(`${at}/name`, 'name must be a string');
    if (
      !traceId ||
      !spanId ||
      parentSpanId === undefined ||
      startNs === undefined ||
      endNs === undefined ||
      statusCode === undefined ||
      attributes === null
    )
      return;
    this.spans.push({
      pointer: at,
      traceId,
      spanId,
      parentSpanId,
      name: typeof value.name === 'string' ? value.name : '',
      startNs,
      endNs,
      statusCode,
      attributes,
      resource,
      schemaUrl,
      value,
    });
  }

  request(value: unknown, at: string): void {
    if (!isObject(value)) {
      this.problem(at, 'an ExportTraceServiceRequest must be a JSON object with resourceSpans');
      return;
    }
    if (value.resourceSpans === undefined) {
      this.problem(at, 'no resourceSpans: this is not OTLP trace data (logs and metrics are not read)');
      return;
    }
    const rs = this.list(value, 'resourceSpans', at);
    for (const [r, resourceSpans] of (rs ?? []).entries()) {
      const rat = `${at}/resourceSpans/${r}`;
      if (!isObject(resourceSpans)) {
        this.problem(rat, 'resourceSpans entries must be objects');
        continue;
      }
      const resource: Record<string, string> = {};
      if (isObject(resourceSpans.resource)) {
        const attrs = this.attributes(resourceSpans.resource, `${rat}/resource`, (k) =>
          ['service.name', 'service.version', 'telemetry.sdk.language'].includes(k),
        );
        for (const [k, a] of attrs ?? []) if (a.text !== null) resource[k] = a.text;
      }
      const resourceSchema = typeof resourceSpans.schemaUrl === 'string' ? resourceSpans.schemaUrl : null;
      const ss = this.list(resourceSpans, 'scopeSpans', rat);
      for (const [s, scopeSpans] of (ss ?? []).entries()) {
        const sat = `${rat}/scopeSpans/${s}`;
        if (!isObject(scopeSpans)) {
          this.problem(sat, 'scopeSpans entries must be objects');
          continue;
        }
        const schemaUrl = typeof scopeSpans.schemaUrl === 'string' ? scopeSpans.schemaUrl : resourceSchema;
        const spans = this.list(scopeSpans, 'spans', sat);
        for (const [i, span] of (spans ?? []).entries()) {
          if (this.spans.length >= MAX_SPANS) {
            this.problem(`${sat}/spans/${i}`, `more than ${MAX_SPANS} spans; split the file`);
            return;
          }
          this.span(span, `${sat}/spans/${i}`, resource, schemaUrl);
        }
      }
    }
  }
}

/** The spans of a list of ExportTraceServiceRequest values, and the problems of their form. */
export function readSpans(requests: readonly unknown[]): { spans: Span[]; problems: InputProblem[] } {
  const reader = new Reader();
  for (const [k, request] of requests.entries()) {
    reader.request(request, `/${k}`);
    if (reader.spans.length >= MAX_SPANS && reader.problems.length) break;
  }
  return { spans: reader.spans, problems: reader.problems };
}

/** The attribute's string, or undefined when absent. */
export function stringAttribute(span: Span, key: string): string | undefined {
  return span.attributes.get(key)?.text ?? undefined;
}
