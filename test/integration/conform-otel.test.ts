// @module-tag integration
// `conform --otel <file>`: the kit's own run as an OTLP JSON trace, a root span and one span per
// case and fault scenario with its outcome, requirement ids and differences; `otel check` reads
// the file as OTLP trace data.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REFERENCE, runCli, tempDir } from './helpers/cli.ts';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

type Attr = {
  key: string;
  value: { stringValue?: string; boolValue?: boolean; arrayValue?: { values?: { stringValue?: string }[] } };
};
type WireSpan = {
  name: string;
  spanId: string;
  parentSpanId?: string;
  status: { code: number };
  attributes: Attr[];
};

describe('conform --otel', () => {
  it('writes a span per case and fault scenario under a root span for the run', () => {
    const out = join(tmp.dir, 'run.otlp.json');
    const run = runCli([
      'conform',
      '--impl',
      REFERENCE,
      '--filter',
      'digest/jcs/*',
      '--filter',
      'faults/store/stale-fence',
      '--otel',
      out,
    ]);
    expect(run.status).toBe(0);
    const body = JSON.parse(readFileSync(out, 'utf8'));
    const spans: WireSpan[] = body.resourceSpans[0].scopeSpans[0].spans;
    const [root, ...cases] = spans;
    expect(root!.name).toBe('conform');
    expect(root!.attributes).toContainEqual({
      key: 'agent_contracts.run.conforms',
      value: { boolValue: true },
    });
    expect(cases.length).toBeGreaterThan(1);
    expect(cases.every((s) => s.parentSpanId === root!.spanId && s.status.code === 0)).toBe(true);
    expect(cases.map((s) => s.name)).toContain('faults/store/stale-fence');
    const attrs = (s: WireSpan) => new Map(s.attributes.map((a) => [a.key, a.value]));
    const first = attrs(cases[0]!);
    expect(first.get('agent_contracts.case.outcome')).toEqual({ stringValue: 'pass' });
    expect(first.get('agent_contracts.case.requirements')?.arrayValue?.values?.length).toBeGreaterThan(0);
    // OTLP trace data that otel check reads: no agent run in it, and no problem of the input's form.
    const check = runCli(['otel', 'check', out]);
    expect(check.status).toBe(1);
    expect(check.stderr).toContain('OTEL_NO_AGENT_RUN');
    expect(`${check.stdout}${check.stderr}`).not.toMatch(
      /OTEL_INPUT_INVALID|OTEL_ATTRIBUTE_INVALID|INPUT_[A-Z_]+/,
    );
  });
});
