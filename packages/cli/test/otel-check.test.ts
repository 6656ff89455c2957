// @module-tag integration
// `agent-contracts otel check` end to end: both input forms, the exit codes, every issue by
// span pointer, the unverified list (OTL-012), bounded hostile input, and a report that
// `report` renders as JUnit, Markdown and HTML and `diff` compares.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_SPANS, readSpans } from '../src/otel/otlp.ts';
import { runCli, tempDir } from './helpers.ts';

const CASES = fileURLToPath(new URL('../../../conformance/otel/', import.meta.url));
const { dir, cleanup } = tempDir();
afterAll(cleanup);

const requestsOf = (name: string): unknown[] =>
  (JSON.parse(readFileSync(join(CASES, `${name}.json`), 'utf8')) as { input: { requests: unknown[] } }).input
    .requests;
function fileOf(name: string, form: 'body' | 'lines'): string {
  const requests = requestsOf(name);
  const path = join(dir, `${name.replace('/', '-')}.${form === 'body' ? 'json' : 'jsonl'}`);
  writeFileSync(
    path,
    form === 'body'
      ? JSON.stringify(requests[0], null, 2)
      : requests.map((r) => JSON.stringify(r)).join('\n'),
  );
  return path;
}

describe('agent-contracts otel check', () => {
  it('passes a clean run from an OTLP/HTTP body, and says what spans cannot show', () => {
    const run = runCli(['otel', 'check', fileOf('clean/support-run', 'body')]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('PASS otel/5b8efff798038103d269b633813fc60c/eee19b7ec3c1b174');
    expect(run.stdout).toContain('1 passed, 0 failed');
    expect(run.stdout).toContain('Not shown by spans, so unverified:');
    expect(run.stdout).toContain('blocked tool calls, permission decisions');
  });

  it("reads the public instrumentations' shapes by gen_ai.operation.name alone (D-OTL-14)", () => {
    const contrib = runCli(['otel', 'check', fileOf('shapes/contrib-openai-v2-in-agent-run', 'body')]);
    expect(contrib.status).toBe(0);
    expect(contrib.stdout).toContain('PASS otel/3c9a1f0e7d2b4a6c8e0f1a2b3c4d5e6f/7a1c2e3f4b5d6e70');
    for (const name of ['shapes/contrib-openai-v2-chat-only', 'shapes/openllmetry-traceloop-kinds']) {
      const none = runCli(['otel', 'check', fileOf(name, 'lines')]);
      expect([name, none.status, none.stderr.includes('OTEL_NO_AGENT_RUN')]).toEqual([name, 1, true]);
      expect(none.stdout).not.toMatch(/PASS|FAIL|OTEL_TOOL_OUTSIDE_RUN/);
    }
  });

  it('fails a second terminal from file-exporter lines, by pointer to the span of each end', () => {
    const run = runCli(['otel', 'check', fileOf('broken/second-terminal', 'lines')]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(
      'TRACE_DUPLICATE_EVENT at /1/resourceSpans/0/scopeSpans/0/spans/0/endTimeUnixNano (trace /events/4/eventId)',
    );
    expect(run.stdout).toContain(
      'TRACE_TERMINAL_INVALID at /0/resourceSpans/0/scopeSpans/0/spans/0/endTimeUnixNano',
    );
  });

  it('writes a report that report renders as JUnit, Markdown and HTML and diff compares, with the issue pointers', () => {
    const report = join(dir, 'tool-without-end.jsonl');
    const run = runCli(['otel', 'check', fileOf('broken/tool-without-end', 'body'), '--report', report]);
    expect(run.status).toBe(1);
    const lines = readFileSync(report, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.type)).toEqual(['run', 'case', 'summary']);
    expect(lines[1]).toMatchObject({ outcome: 'fail', gate: 'OpenTelemetryMapping' });
    expect(lines[1].differences[0].pointer).toBe('/0/resourceSpans/0/scopeSpans/0/spans/2/endTimeUnixNano');
    expect(lines[2]).toMatchObject({ conforms: false, counts: { pass: 0, fail: 1 } });
    const junit = runCli(['report', report, '--format', 'junit']);
    expect(junit.status).toBe(0);
    // Its catalogue is its runs, checked as such: no warning of other conformance data.
    expect(junit.stderr).toBe('');
    expect(junit.stdout).toContain(
      'OTEL_SPAN_UNFINISHED at /0/resourceSpans/0/scopeSpans/0/spans/2/endTimeUnixNano',
    );
    const html = runCli(['report', report, '--format', 'html']);
    expect(html.status).toBe(0);
    expect(html.stderr).toBe('');
    expect(html.stdout).toContain('OTEL_SPAN_UNFINISHED');
    const markdown = runCli(['report', report, '--format', 'markdown']);
    expect(markdown.status).toBe(0);
    expect(markdown.stderr).toBe('');
    expect(markdown.stdout).toContain(
      'OTEL\\_SPAN\\_UNFINISHED at /0/resourceSpans/0/scopeSpans/0/spans/2/endTimeUnixNano',
    );
    // diff reads two otel check reports: the same run (trace and agent span ids) clean, then with
    // its tool call's end lost, is a broken case, and the other way round a fixed one.
    const clean = join(dir, 'support-run.jsonl');
    expect(runCli(['otel', 'check', fileOf('clean/support-run', 'body'), '--report', clean]).status).toBe(0);
    const id = lines[1].id as string;
    const broke = runCli(['diff', '--json', clean, report]);
    expect(broke.status, broke.stderr).toBe(1);
    expect(JSON.parse(broke.stdout).broken).toEqual([id]);
    const fixed = runCli(['diff', '--json', report, clean]);
    expect(fixed.status, fixed.stderr).toBe(0);
    expect(JSON.parse(fixed.stdout).fixed).toEqual([id]);
    expect(broke.stderr + fixed.stderr).toBe('');
    // A case line edited to another run is no longer one of the report's own runs: warned of.
    const edited = join(dir, 'edited.jsonl');
    writeFileSync(
      edited,
      readFileSync(report, 'utf8').replace(id, `otel/${'0'.repeat(31)}1/${'0'.repeat(15)}1`),
    );
    expect(runCli(['report', edited, '--format', 'junit']).stderr).toContain(
      "its case ids are not checked against this kit's catalogue",
    );
  });

  it('refuses hostile input with a code and no stack: base64 ids, repeated names, no agent run, not JSON', () => {
    const b64 = runCli(['otel', 'check', fileOf('input/base64-span-id', 'body')]);
    expect(b64.status).toBe(1);
    expect(b64.stderr).toContain('OTEL_INPUT_INVALID at /0/resourceSpans/0/scopeSpans/0/spans/1/spanId');
    const dup = join(dir, 'dup.json');
    writeFileSync(dup, '{"resourceSpans":[],"resourceSpans":[]}');
    expect(runCli(['otel', 'check', dup]).stderr).toContain('INPUT_DUPLICATE_MEMBER');
    const none = join(dir, 'none.json');
    writeFileSync(none, '{"resourceSpans":[]}');
    const empty = runCli(['otel', 'check', none]);
    expect([empty.status, empty.stderr.includes('OTEL_NO_AGENT_RUN')]).toEqual([1, true]);
    const deep = join(dir, 'deep.json');
    writeFileSync(deep, `${'['.repeat(600)}${']'.repeat(600)}`);
    expect(runCli(['otel', 'check', deep]).stderr).toContain('INPUT_TOO_DEEP');
    const big = runCli(['otel', 'check', fileOf('clean/support-run', 'body'), '--max-bytes', '100']);
    expect([big.status, big.stderr.includes('INPUT_TOO_LARGE')]).toEqual([1, true]);
    const esc = join(dir, 'esc.json');
    writeFileSync(esc, '{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"\\u001b[2J"}]}]}]}');
    const e = runCli(['otel', 'check', esc]);
    expect(e.status).toBe(1);
    expect(e.stderr).not.toContain('\u001b');
    for (const r of [b64, empty, e]) expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 2 on usage errors', () => {
    expect(runCli(['otel']).status).toBe(2);
    expect(runCli(['otel', 'export']).status).toBe(2);
    expect(runCli(['otel', 'check']).status).toBe(2);
    expect(runCli(['otel', 'check', join(dir, 'missing.json')]).status).toBe(2);
  });
});

describe('the span bound (OTL-002)', () => {
  it(`reads at most ${MAX_SPANS} spans and refuses the next at its pointer`, () => {
    const span = (i: number) => ({
      traceId: '5b8efff798038103d269b633813fc60c',
      spanId: (i + 1).toString(16).padStart(16, '0'),
      startTimeUnixNano: '1796108405007000000',
      endTimeUnixNano: '1796108405008000000',
    });
    const request = (n: number) => ({
      resourceSpans: [{ scopeSpans: [{ spans: Array.from({ length: n }, (_, i) => span(i)) }] }],
    });
    expect(readSpans([request(MAX_SPANS)]).problems).toEqual([]);
    const over = readSpans([request(MAX_SPANS + 1)]);
    expect(over.spans).toHaveLength(MAX_SPANS);
    expect(over.problems.map((p) => `${p.code} ${p.pointer}`)).toEqual([
      `OTEL_INPUT_INVALID /0/resourceSpans/0/scopeSpans/0/spans/${MAX_SPANS}`,
    ]);
  });
});
