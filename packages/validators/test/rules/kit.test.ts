// @module-tag unit
// The rule kit (src/rules/kit.ts): its builders carry code, contract or bundle, spec anchor and
// description unchanged, hand the check its document, and mark the rule as built by the kit, which
// a rule written as an object literal never is.
import { describe, expect, it } from 'vitest';
import {
  builtByKit,
  bundleRule,
  contractRules,
  issue,
  reportingRule,
  semanticRule,
} from '../../src/rules/kit.ts';
import type { ContractDocument, SemanticRule } from '../../src/rules/types.ts';

const ANCHOR = 'docs/spec/example.md#example';
const doc = { schemaVersion: 'ExampleV1', items: ['a'] } as ContractDocument;
type Example = { items: string[] };

describe('rule kit', () => {
  it('semanticRule keeps its fields and passes the document to the check', () => {
    const rule = semanticRule<Example>('EXAMPLE_EMPTY', 'ExampleV1', ANCHOR, 'Items are listed.', (d) =>
      d.items.map((item, i) => issue('EXAMPLE_EMPTY', `/items/${i}`, `item ${item}`, ANCHOR)),
    );
    expect([rule.code, rule.contract, rule.specSection, rule.description]).toEqual([
      'EXAMPLE_EMPTY',
      'ExampleV1',
      ANCHOR,
      'Items are listed.',
    ]);
    expect(rule.check(doc)).toEqual([
      { code: 'EXAMPLE_EMPTY', path: '/items/0', message: 'item a', rule: ANCHOR, severity: 'error' },
    ]);
    expect(builtByKit(rule)).toBe(true);
  });

  it('marks every builder’s rules, and no rule written by hand', () => {
    const { rule } = contractRules<Example>('ExampleV1', ANCHOR);
    const built = [
      rule('EXAMPLE_A', 'A.', () => []),
      reportingRule<Example>('EXAMPLE_B', 'ExampleV1', ANCHOR, 'B.', () => {}),
      bundleRule('EXAMPLE_C', 'example-bundle', ANCHOR, 'C.', () => []),
    ];
    expect(built.map(builtByKit)).toEqual([true, true, true]);
    const byHand: SemanticRule = {
      code: 'EXAMPLE_D',
      contract: 'ExampleV1',
      specSection: ANCHOR,
      description: 'D.',
      check: () => [],
    };
    expect(builtByKit(byHand)).toBe(false);
    expect(builtByKit({ ...built[0]! })).toBe(false);
  });
});
