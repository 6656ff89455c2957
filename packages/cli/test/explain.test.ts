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
