// @module-tag unit
// docs/rules.md names the file that defines each rule: RULE_FILES must name one for every rule of
// the registries, and that file must hold the rule's code. Every rule file builds its issues and its
// rules with the rule kit (rules/kit.ts), never with a helper of its own or an object literal.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUNDLE_RULES, SEMANTIC_RULES } from '../src/index.ts';
import { RULE_FILES } from '../src/rules/index.ts';
import { builtByKit } from '../src/rules/kit.ts';

const rulesDir = fileURLToPath(new URL('../src/rules/', import.meta.url));

/** The rule files of src/rules (paths relative to it, with `/`), the kit and the types aside. */
const ruleFiles = () =>
  readdirSync(rulesDir, { recursive: true, encoding: 'utf8' })
    .map((f) => f.split(sep).join('/'))
    .filter((f) => f.endsWith('.ts') && f !== 'kit.ts');

/** Why `text` writes a rule object by hand, if it does. */
function handBuilt(text: string): string[] {
  return [
    // A rule's spec anchor as an object member (`specSection: x` or `specSection,`); a parameter
    // or member typed `specSection: string` is not a rule.
    /^\s*specSection\s*(?:,|:(?!\s*string\b))/m.test(text) && 'writes a specSection member',
    // An object whose first member is `code` and which has a `check` (up to two levels of braces
    // between them).
    /\{\s*code\s*[,:](?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*?\bcheck\s*[:(,]/.test(text) &&
      'writes an object with code and check',
  ].filter((x): x is string => typeof x === 'string');
}

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
    const files = ruleFiles();
    expect(files).toContain('context-receipts/receipt-v2.ts');
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

  it('leaves building rules to the rule kit: every registered rule is one a kit builder returned', () => {
    const all = [...SEMANTIC_RULES, ...BUNDLE_RULES];
    const byHand = all
      .filter((r) => !builtByKit(r))
      .map(
        (r) => `${r.code}: built by hand in ${RULE_FILES.get(r)} (use semanticRule or bundleRule of kit.ts)`,
      );
    expect(byHand).toEqual([]);
  });

  it('leaves building rules to the rule kit: no rule file writes a rule object', () => {
    const own = ruleFiles().flatMap((f) =>
      handBuilt(readFileSync(join(rulesDir, f), 'utf8')).map(
        (why) => `${f}: ${why} (build the rule with semanticRule, bundleRule or contractRules of kit.ts)`,
      ),
    );
    expect(own).toEqual([]);
  });

  it('sees a rule object written by hand', () => {
    const literal = [
      'export const RULES = [',
      '  {',
      "    code: 'EXAMPLE_NOT_EMPTY',",
      "    contract: 'ExampleV1',",
      '    specSection: ANCHOR,',
      "    description: 'An example rule.',",
      '    check: (doc) => [],',
      '  },',
      '];',
    ].join('\n');
    expect(handBuilt(literal)).toEqual([
      'writes a specSection member',
      'writes an object with code and check',
    ]);
    const shorthand =
      'const r = (code, specSection, check): SemanticRule => ({\n  code,\n  specSection,\n  check(doc) { return []; },\n});';
    expect(handBuilt(shorthand)).toEqual([
      'writes a specSection member',
      'writes an object with code and check',
    ]);
    expect(
      handBuilt(
        "const chainRule = (\n  code: string,\n  specSection: string,\n  check: (c: Chain) => Issue[],\n) => bundleRule(code, KIND, specSection, '', check);",
      ),
    ).toEqual([]);
  });
});
