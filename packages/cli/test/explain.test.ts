// @module-tag unit
// `agent-contracts explain <id>`: what a golden case or fault scenario checks, from the kit's files.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { memoryIo, repoRoot } from './helpers.ts';

const requirements = JSON.parse(readFileSync(join(repoRoot, 'conformance/requirements.json'), 'utf8'))
  .requirements as Array<{ id: string; sentence: string }>;
const sentence = (id: string) => requirements.find((r) => r.id === id)!.sentence;

describe('agent-contracts explain', () => {
  it('shows a golden case: spec, requirement sentences, each request and expected reply', async () => {
    const file = JSON.parse(readFileSync(join(repoRoot, 'conformance/cases/digest/jcs.json'), 'utf8'));
    const c = file.cases[0];
    const io = memoryIo();
    expect(await main(['explain', c.id], io)).toBe(0);
    expect(io.stdout).toContain(`${c.id}: ${c.title}`);
    expect(io.stdout).toContain(`  spec: ${c.spec}`);
    for (const r of c.requirements) expect(io.stdout).toContain(`${r} (`);
    expect(io.stdout).toContain(sentence(c.requirements[0]));
    expect(io.stdout).toContain(`step 1: ${c.steps[0].method}`);
    expect(io.stdout).toContain(JSON.stringify(c.steps[0].expect, null, 2).split('\n')[1]!.trim());
    expect(io.stdout).toContain('conformance/cases/digest/jcs.json');
  });

  it('shows a fault scenario: what the harness does and its pass criterion', async () => {
    const s = JSON.parse(readFileSync(join(repoRoot, 'conformance/faults/store/crash-points.json'), 'utf8'));
    const io = memoryIo();
    expect(await main(['explain', 'faults/store/crash-points'], io)).toBe(0);
    expect(io.stdout).toContain(`faults/store/crash-points: ${s.title}`);
    expect(io.stdout).toContain(`  1. ${s.steps[0]}`);
    expect(io.stdout).toContain(`Passes when: ${s.passCriterion}`);
    expect(io.stdout).toContain(sentence('TCW-525'));
  });

  it('shows a case of the OpenTelemetry mapping: its spans and the verdict otel check must give', async () => {
    const c = JSON.parse(
      readFileSync(join(repoRoot, 'conformance/otel/broken/tool-without-end.json'), 'utf8'),
    );
    const io = memoryIo();
    expect(await main(['explain', c.id], io), io.stderr).toBe(0);
    expect(io.stdout).toContain(`otel/broken/tool-without-end: ${c.title}`);
    expect(io.stdout).toContain('gate OpenTelemetryMapping; checked by `agent-contracts otel check`');
    expect(io.stdout).toContain(`  spec: ${c.spec}`);
    expect(io.stdout).toContain('conformance/otel/broken/tool-without-end.json');
    expect(io.stdout).toContain(`OTL-010 (MUST, `);
    expect(io.stdout).toContain(sentence('OTL-010'));
    expect(io.stdout).toContain('"gen_ai.tool.call.id"');
    const [run] = c.expect.runs;
    expect(io.stdout).toContain(`  run ${run.id}: fails\n`);
    expect(io.stdout).toContain(`    OTEL_SPAN_UNFINISHED at ${run.issues[0].pointer}\n`);
    // A refused input names the input problems; a clean case says the run passes.
    const refused = memoryIo();
    expect(await main(['explain', 'otel/input/base64-span-id'], refused)).toBe(0);
    expect(refused.stdout).toContain('the input is refused, no run is judged:');
    expect(refused.stdout).toContain('OTEL_INPUT_INVALID at /0/');
    const clean = memoryIo();
    expect(await main(['explain', 'otel/clean/support-run'], clean)).toBe(0);
    expect(clean.stdout).toMatch(/ {2}run otel\/5b8efff798038103d269b633813fc60c\/eee19b7ec3c1b174: passes/);
  });

  it('says an otel check run id is a run of a trace, not a case', async () => {
    const io = memoryIo();
    expect(await main(['explain', 'otel/5b8efff798038103d269b633813fc60c/eee19b7ec3c1b174'], io)).toBe(2);
    expect(io.stderr).toContain('CASE_UNKNOWN');
    expect(io.stderr).toContain('That is the id of a run of an OpenTelemetry trace');
    const near = memoryIo();
    expect(await main(['explain', 'otel/broken/tool-without-en'], near)).toBe(2);
    expect(near.stderr).toContain('otel/broken/tool-without-end');
  });

  it('refuses an unknown id with CASE_UNKNOWN and close ids', async () => {
    const io = memoryIo();
    expect(await main(['explain', 'digest/jcs/jcs-negative-zer'], io)).toBe(2);
    expect(io.stderr).toContain(
      'agent-contracts: CASE_UNKNOWN: "digest/jcs/jcs-negative-zer" is no golden case',
    );
    expect(io.stderr).toContain('digest/jcs/jcs-negative-zero');
    expect(io.stdout).toBe('');
  });
});
