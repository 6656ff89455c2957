// @module-tag integration
// @module-tag slow
// `agent-contracts otel export` (docs/spec/opentelemetry-mapping.md#export): every valid
// LocalTaskTraceV1 fixture exported and checked again (#export), reproducible bytes, the
// export decoded by OpenTelemetry's own generated protobuf reader from OpenTelemetry's own protobuf
// encoding of the same spans,
// and inputs that are refused with nothing written.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { otlpJson, otlpProtobuf, spansOf } from '../src/otel/export.ts';
import { checkRequests } from '../src/otel/judge.ts';
import { runCli, tempDir } from './helpers.ts';

const VALID = fileURLToPath(
  new URL('../../../conformance/fixtures/LocalTaskTraceV1/valid/', import.meta.url),
);
const INVALID = fileURLToPath(
  new URL('../../../conformance/fixtures/LocalTaskTraceV1/invalid/', import.meta.url),
);
const fixtures = readdirSync(VALID)
  .filter((f) => f.endsWith('.json'))
  .sort();
const docOf = (f: string) => JSON.parse(readFileSync(join(VALID, f), 'utf8')) as Record<string, unknown>;
const { dir, cleanup } = tempDir();
afterAll(cleanup);

describe('otel export then otel check', () => {
  it.each(fixtures)('%s round-trips', (f) => {
    const out = join(dir, `${f}.otlp.json`);
    const exported = runCli(['otel', 'export', join(VALID, f), '--out', out]);
    expect(exported.stderr).toBe('');
    expect(exported.status).toBe(0);
    const doc = docOf(f) as { status: string; events: { type: string; occurrenceKey: string }[] };
    const checked = runCli(['otel', 'check', out]);
    const verdict = checkRequests([JSON.parse(readFileSync(out, 'utf8'))]);
    expect(verdict.input).toEqual([]);
    expect(verdict.runs).toHaveLength(1);
    const run = verdict.runs[0]!;
    const trace = run.trace as { status: string; events: { type: string; occurrenceKey: string }[] };
    // The tool calls come back by their call ids, in the trace's order.
    const calls = (events: { type: string; occurrenceKey: string }[]) =>
      events.filter((e) => e.type === 'ToolLeaseStarted').map((e) => e.occurrenceKey);
    expect(calls(trace.events)).toEqual(calls(doc.events));
    // Every valid fixture checks clean, an open turn as an open run (OTL-013).
    expect(run.issues).toEqual([]);
    expect(run.ok).toBe(true);
    expect(checked.stdout).toContain('1 passed, 0 failed');
    expect(checked.status).toBe(0);
    // Interruption is written as a failure (OTL-012: spans cannot tell them apart).
    expect(trace.status).toBe(doc.status === 'interrupted' ? 'failed' : doc.status);
    if (doc.status === 'open') {
      expect(exported.stdout).toContain('open: its invoke_agent span');
      expect(exported.stdout).toContain('marked agent_contracts.span.open');
      expect(checked.stdout).toContain('open: the run has not ended');
      const agent = JSON.parse(readFileSync(out, 'utf8')).resourceSpans[0].scopeSpans[0].spans[0];
      expect(agent.endTimeUnixNano ?? '0').toBe('0');
      expect(agent.attributes).toContainEqual({
        key: 'agent_contracts.span.open',
        value: { boolValue: true },
      });
    }
  });

  it('round-trips an open turn with an open lease, and the mark is what makes it open', () => {
    const doc = docOf('open-with-deferred-duplicate.json') as {
      events: { type: string; occurrenceKey: string; observedAt: string }[];
      sequence: number;
    };
    // The same turn before its tool call completed: the lease is still open.
    const cut = doc.events.findIndex((e) => e.type === 'PostToolUse');
    const events = doc.events.slice(0, cut);
    const open = { ...doc, events, sequence: events.length };
    const file = join(dir, 'open-lease.json');
    writeFileSync(file, JSON.stringify(open));
    expect(runCli(['validate', file]).status).toBe(0);
    const out = join(dir, 'open-lease.otlp.json');
    const exported = runCli(['otel', 'export', file, '--out', out]);
    expect(exported.status, exported.stderr).toBe(0);
    expect(exported.stdout).toContain(
      'open: its invoke_agent span and 1 tool span(s) written without an end',
    );
    const body = JSON.parse(readFileSync(out, 'utf8'));
    const verdict = checkRequests([body]);
    expect(verdict.runs.map((r) => [r.ok, r.issues])).toEqual([[true, []]]);
    const trace = verdict.runs[0]!.trace as {
      status: string;
      events: { type: string; occurrenceKey: string }[];
    };
    expect(trace.status).toBe('open');
    expect(trace.events.map((e) => e.type)).toEqual(['UserPromptSubmit', 'ToolLeaseStarted']);
    // Without the mark, the same spans are a run that never ended and a call that never returned.
    for (const s of body.resourceSpans[0].scopeSpans[0].spans)
      s.attributes = s.attributes.filter((a: { key: string }) => a.key !== 'agent_contracts.span.open');
    const unmarked = checkRequests([body]);
    expect(unmarked.runs[0]!.issues.map((i) => `${i.code} ${i.pointer}`)).toEqual([
      'OTEL_SPAN_UNFINISHED /0/resourceSpans/0/scopeSpans/0/spans/0/endTimeUnixNano',
      'OTEL_SPAN_UNFINISHED /0/resourceSpans/0/scopeSpans/0/spans/1/endTimeUnixNano',
    ]);
  });

  it('exports a folder as one request whose runs are the fixtures, byte for byte the same each run', () => {
    const a = runCli(['otel', 'export', VALID]);
    const b = runCli(['otel', 'export', VALID, '--service-name', 'agent-contracts-export']);
    expect(a.status).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(a.stderr).toContain(`${fixtures.length} trace(s)`);
    const body = JSON.parse(a.stdout);
    expect(body.resourceSpans[0].resource.attributes).toEqual([
      { key: 'service.name', value: { stringValue: 'agent-contracts-export' } },
    ]);
    const verdict = checkRequests([body]);
    expect(verdict.runs.map((r) => r.ok)).toEqual(fixtures.map(() => true));
    const named = runCli(['otel', 'export', join(VALID, fixtures[0]!), '--service-name', 'support-agent']);
    expect(JSON.parse(named.stdout).resourceSpans[0].resource.attributes[0].value.stringValue).toBe(
      'support-agent',
    );
  });

  it('writes the GenAI attributes, error.type and the status of a failed tool call and run', () => {
    const { spans } = spansOf([docOf('failed-after-test-error.json')], {
      serviceName: 's',
      scope: { name: 'k', version: '0' },
    });
    const body = JSON.parse(otlpJson(spans));
    const [agent, tool] = body.resourceSpans[0].scopeSpans[0].spans;
    const attrs = (s: { attributes: { key: string; value: { stringValue?: string } }[] }) =>
      Object.fromEntries(s.attributes.map((a) => [a.key, a.value.stringValue]));
    expect(agent.name).toBe('invoke_agent');
    expect(attrs(agent)).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'error.type': 'host-error',
    });
    expect(agent.status.code).toBe(2);
    expect(tool.name).toBe('execute_tool Bash');
    expect(tool.parentSpanId).toBe(agent.spanId);
    expect(attrs(tool)).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.call.id': 'toolu_01JY2vkxKaj7RGg6M0fm2tr6',
      'gen_ai.tool.name': 'Bash',
      'error.type': '_OTHER',
    });
    expect(tool.status.code).toBe(2);
    // Host events no span stands for are span events, which the mapping does not read.
    expect(agent.events.map((e: { name: string }) => e.name)).toEqual(['UserPromptSubmit', 'TurnError']);
    expect(tool.events.map((e: { name: string }) => e.name)).toEqual(['PreToolUse', 'PostToolUse']);
  });
});

// The reader: the protobuf code the OpenTelemetry JavaScript project generated (pbjs, static
// module) from the official opentelemetry-proto definitions (common, resource, trace and
// trace_service .proto), as @opentelemetry/otlp-transformer shipped it up to 0.216.0
// (build/src/generated/root.js; later releases encode by hand and ship no decoder). It is
// installed under the alias opentelemetry-proto-decoder beside the 0.223.1 that encodes, so the
// bytes of ProtobufTraceSerializer are read by OpenTelemetry's own message definitions, not by
// field numbers typed here. No OpenTelemetry Collector binary is published on npm, the one
// registry of packages this project installs from.
/** What the test uses of the generated module (its own typings declare it a reflection Root). */
interface GeneratedMessage {
  decode(bytes: Uint8Array): unknown;
  toObject(message: unknown, options: { longs: typeof String; defaults: boolean }): unknown;
}
const OTLP = createRequire(import.meta.url)('opentelemetry-proto-decoder/build/src/generated/root.js') as {
  opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: GeneratedMessage } } } } };
};
const ExportTraceServiceRequest = OTLP.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

/** A span as the protobuf reader (bytes ids) or the JSON (hex ids) gives it. */
interface WireSpan {
  traceId: Uint8Array | string;
  spanId: Uint8Array | string;
  parentSpanId?: Uint8Array | string;
  name: string;
  startTimeUnixNano: string;
  endTimeUnixNano?: string;
  status?: { code?: number };
  attributes?: { key: string; value: { stringValue?: string; boolValue?: boolean; intValue?: unknown } }[];
  events?: { name: string }[];
}

describe('an OpenTelemetry protobuf reader', () => {
  it.each(fixtures)('decodes the spans of %s that the JSON export holds', (f) => {
    const { spans } = spansOf([docOf(f)], { serviceName: 's', scope: { name: 'k', version: '0' } });
    const request = ExportTraceServiceRequest;
    const decoded = request.toObject(request.decode(otlpProtobuf(spans)), {
      longs: String,
      defaults: false,
    }) as {
      resourceSpans: { scopeSpans: { scope: unknown; spans: WireSpan[] }[] }[];
    };
    const json = JSON.parse(otlpJson(spans));
    const hex = (b: Uint8Array | string | undefined) =>
      b === undefined ? undefined : typeof b === 'string' ? b : Buffer.from(b).toString('hex');
    const plain = (list: readonly WireSpan[]) =>
      list.map((s) => ({
        traceId: hex(s.traceId),
        spanId: hex(s.spanId),
        parentSpanId: hex(s.parentSpanId),
        name: s.name,
        start: s.startTimeUnixNano,
        end: s.endTimeUnixNano ?? '0',
        status: s.status?.code ?? 0,
        attributes: (s.attributes ?? []).map((a) => [
          a.key,
          a.value.stringValue ??
            (a.value.boolValue === undefined ? String(a.value.intValue) : a.value.boolValue),
        ]),
        events: (s.events ?? []).map((e) => e.name),
      }));
    const fromProto = plain(decoded.resourceSpans[0]!.scopeSpans[0]!.spans);
    const fromJson = plain(json.resourceSpans[0].scopeSpans[0].spans as WireSpan[]);
    expect(fromProto.length).toBe(spans.length);
    expect(fromProto).toEqual(fromJson);
    expect(decoded.resourceSpans[0]!.scopeSpans[0]!.scope).toEqual({ name: 'k', version: '0' });
  });
});

describe('otel export refuses', () => {
  it('an invalid trace, another contract and a bad option, writing nothing', () => {
    const bad = readdirSync(INVALID).find((f) => f.endsWith('.json') && !f.endsWith('.expected.json'))!;
    const out = join(dir, 'never.json');
    const run = runCli(['otel', 'export', join(VALID, fixtures[0]!), join(INVALID, bad), '--out', out]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('OTEL_EXPORT_INVALID');
    expect(run.stderr).toContain('Nothing was written.');
    expect(existsSync(out)).toBe(false);
    const other = join(dir, 'other.json');
    writeFileSync(other, JSON.stringify({ schemaVersion: 'RunStateV1' }));
    const wrong = runCli(['otel', 'export', other]);
    expect(wrong.status).toBe(1);
    expect(wrong.stdout).toBe('');
    expect(wrong.stderr).toContain('OTEL_EXPORT_INVALID: not a LocalTaskTraceV1 document');
    const name = runCli(['otel', 'export', join(VALID, fixtures[0]!), '--service-name', 'a\x1b[2Jb']);
    expect(name.status).toBe(2);
    expect(name.stderr).toContain('USAGE_BAD_VALUE');
    const missing = runCli(['otel', 'export', join(dir, 'nope.json')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('INPUT_NOT_FOUND');
    const deep = runCli(['otel', 'export', '-', '--max-depth', '2', '--max-bytes', '1MiB'], {
      input: readFileSync(join(VALID, fixtures[0]!)),
    });
    expect(deep.status).toBe(1);
    expect(deep.stderr).toContain('INPUT_TOO_DEEP');
  });
});
