// @module-tag unit
// The worked example of docs/spec/opentelemetry-mapping.md, checked against the reference
// mapping: the spans block maps to exactly the trace block (which the validators' worked-example
// test holds valid), so the page cannot drift from the checker.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkRequests } from '../src/otel/judge.ts';

const PAGE = fileURLToPath(new URL('../../../docs/spec/opentelemetry-mapping.md', import.meta.url));

/** The JSON block after the marker line `marker`. */
function block(text: string, marker: string): unknown {
  const lines = text.split('\n');
  const at = lines.indexOf(marker);
  if (at < 0) throw new Error(`no ${marker}`);
  let i = at + 1;
  while (lines[i]!.trim() === '') i++;
  if (lines[i] !== '```json') throw new Error(`${marker} is not followed by a json block`);
  const end = lines.indexOf('```', i + 1);
  return JSON.parse(lines.slice(i + 1, end).join('\n'));
}

/** The members of the example the edits touch. */
type Body = { resourceSpans: [{ scopeSpans: [{ spans: Array<Record<string, unknown>> }] }] };

describe('the worked example of the OpenTelemetry mapping', () => {
  const text = readFileSync(PAGE, 'utf8');
  const spans = block(text, '<!-- otel-example:spans support-run -->');
  const trace = block(text, '<!-- worked-example:document support-run-trace LocalTaskTraceV1 -->');

  it('maps to the trace the page shows, and the run passes', () => {
    const verdict = checkRequests([spans]);
    expect(verdict.input).toEqual([]);
    expect(verdict.runs.map((r) => [r.id, r.ok])).toEqual([
      ['otel/5b8efff798038103d269b633813fc60c/eee19b7ec3c1b174', true],
    ]);
    expect(verdict.runs[0]!.trace).toEqual(trace);
  });

  it('fails as the page says when the tool span has no end, or the agent ends first', () => {
    const noEnd = structuredClone(spans) as Body;
    delete noEnd.resourceSpans[0].scopeSpans[0].spans[2]!.endTimeUnixNano;
    expect(checkRequests([noEnd]).runs[0]!.issues.map((i) => [i.code, i.pointer])).toEqual([
      ['OTEL_SPAN_UNFINISHED', '/0/resourceSpans/0/scopeSpans/0/spans/2/endTimeUnixNano'],
    ]);
    const early = structuredClone(spans) as Body;
    early.resourceSpans[0].scopeSpans[0].spans[0]!.endTimeUnixNano = '1796108406500000000';
    const issues = checkRequests([early]).runs[0]!.issues;
    expect(issues[0]).toMatchObject({
      code: 'TRACE_TERMINAL_INVALID',
      tracePath: '/events/2/type',
      pointer: '/0/resourceSpans/0/scopeSpans/0/spans/0/endTimeUnixNano',
    });
  });
});
