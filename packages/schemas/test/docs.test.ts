// @module-tag unit
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTRACTS, DIGEST_RULES, GATES } from '../src/index.ts';
import { repoRoot } from './helpers.ts';

const read = (rel: string) => readFileSync(join(repoRoot, rel), 'utf8');
const specDir = join(repoRoot, 'docs/spec');
const specPages = readdirSync(specDir)
  .filter((f) => f.endsWith('.md'))
  .map((f) => ({ file: `docs/spec/${f}`, text: read(`docs/spec/${f}`) }));
const decisions = read('docs/spec/decisions.md');
const decisionIds = [...decisions.matchAll(/^### (D-[A-Z]+-\d{2}):/gm)].map((m) => m[1]!);

describe('the written spec', () => {
  it('has a page for every gate and an index linking them', () => {
    const index = read('docs/spec/index.md');
    for (const page of Object.values(GATES)) {
      expect(existsSync(join(repoRoot, page)), page).toBe(true);
      expect(index).toContain(page.replace('docs/spec/', ''));
    }
  });

  for (const contract of CONTRACTS) {
    it(`${contract.name}: its gate page has a section and the generated field table`, () => {
      const page = read(GATES[contract.gate]);
      expect(page).toMatch(new RegExp(`^##+ .*${contract.name}`, 'm'));
      expect(page).toContain(`<!-- fields:${contract.name} -->`);
      expect(page).toMatch(new RegExp(`<!-- fields:${contract.name} -->\\n<!-- Generated`));
    });
  }

  it('states what every digest field covers, on the gate page of its contract', () => {
    for (const rule of DIGEST_RULES) {
      const contract = CONTRACTS.find((c) => c.name === rule.contract);
      expect(contract, rule.contract).toBeDefined();
      const field = rule.pointer
        .split('/')
        .filter((t) => t && t !== '*')
        .pop()!;
      expect(read(GATES[contract!.gate]), `${rule.contract} ${rule.pointer}`).toContain(field);
    }
  });

  it('numbers decisions uniquely, and every decision cited in the spec exists', () => {
    expect(new Set(decisionIds).size).toBe(decisionIds.length);
    expect(decisionIds.length).toBeGreaterThan(0);
    for (const { file, text } of specPages) {
      for (const m of text.matchAll(/\bD-[A-Z]+-\d{2}\b/g))
        expect(decisionIds, `${file} cites ${m[0]}`).toContain(m[0]);
    }
  });

  it('keeps no unmerged page fragments or leftover markers', () => {
    expect(existsSync(join(specDir, 'parts'))).toBe(false);
    for (const { file, text } of specPages) expect(text, file).not.toContain('<!-- receipts-part -->');
  });
});
