// @module-tag unit
// docs/rules.md names the file that defines each rule: RULE_FILES must name one for every rule of
// the registries, and that file must hold the rule's code. Every rule file builds its issues with
// the rule kit (rules/kit.ts), never with a helper of its own.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUNDLE_RULES, SEMANTIC_RULES } from '../src/index.ts';
import { RULE_FILES } from '../src/rules/index.ts';

const rulesDir = fileURLToPath(new URL('../src/rules/', import.meta.url));

describe('RULE_FILES', () => {
  it('names, for every semantic and bundle rule, a rule file that holds its code', () => {
    const all = [...SEMANTIC_RULES, ...BUNDLE_RULES];
    expect(all.length).toBeGreaterThan(100);
    expect(RULE_FILES.size).toBe(new Set(all).size);
    const wrong = all.flatMap((r) => {
      const file = RULE_FILES.get(r);
      if (!file) return [`${r.code}: no file`];
      const path = join(rulesDir, file);
      if (!existsSync(path)) return [`${r.code}: ${file} does not exist`];
      return readFileSync(path, 'utf8').includes(`'${r.code}'`) ? [] : [`${r.code}: not in ${file}`];
    });
    expect(wrong).toEqual([]);
  });

  it('leaves building issues to the rule kit: no rule file writes an issue object or a helper of its own', () => {
    const files = readdirSync(rulesDir, { recursive: true, encoding: 'utf8' }).filter(
      (f) => f.endsWith('.ts') && f !== 'kit.ts',
    );
    expect(files).toContain(join('context-receipts', 'receipt-v2.ts'));
    expect(files.length).toBeGreaterThan(15);
    const own = files.flatMap((f) => {
      const text = readFileSync(join(rulesDir, f), 'utf8');
      return [
        /severity: 'error'/.test(text) && `${f}: writes an issue object (use issue() of kit.ts)`,
        /^(export )?(function|const) (issue|rule|bundleRule|collect|laterDuplicates)\b/m.test(text) &&
          `${f}: defines a helper the kit has`,
      ].filter((x): x is string => typeof x === 'string');
    });
    expect(own).toEqual([]);
  });
});
