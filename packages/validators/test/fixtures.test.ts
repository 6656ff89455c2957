// @module-tag unit
// Every golden fixture through the reference validator: valid ones pass (schema, digests,
// rules); invalid ones fail with the code of the keyword their .expected.json records, at the
// recorded JSON Pointer, and break no other rule, except what the .expected.json lists under
// `alsoReports` (the rules the spec makes the named one imply, each with its reason).
import { describe, expect, it } from 'vitest';
import { type Issue, KEYWORD_CODES, SUPPORTED_CONTRACTS, validate } from '../src/index.ts';
import { listFixtures } from './helpers.ts';

const fixtures = listFixtures();

const SCHEMA_CODES = new Set<string>([...Object.values(KEYWORD_CODES), 'SCHEMA_OTHER']);
const COMBINATORS = new Set<string>([KEYWORD_CODES.anyOf!, KEYWORD_CODES.oneOf!]);
const within = (path: string, outer: string) => path === outer || path.startsWith(`${outer}/`);

/**
 * The rule an issue reports, as a label. A semantic or digest issue is its code at its path. A
 * schema issue is its schema location (one location failing at several items is one rule), and a
 * failure inside a branch of a failed anyOf/oneOf is that combinator's: ajv reports every
 * branch's failure to explain why the one combinator failed.
 */
function ruleOf(issue: Issue, all: readonly Issue[]): string {
  if (!SCHEMA_CODES.has(issue.code)) return `${issue.code} ${issue.path}`;
  let outer = issue;
  for (const c of all)
    if (
      COMBINATORS.has(c.code) &&
      issue.rule.startsWith(`${c.rule}/`) &&
      within(issue.path, c.path) &&
      c.rule.length < outer.rule.length
    )
      outer = c;
  return `${outer.code} ${outer.rule}`;
}

const show = (issues: readonly Issue[]) => issues.map((i) => `${i.code} ${i.path}`).join('\n');

describe('golden fixtures', () => {
  it('the corpus is not empty and every fixture contract is supported', () => {
    expect(fixtures.length).toBeGreaterThan(0);
    for (const f of fixtures) expect(SUPPORTED_CONTRACTS, f.path).toContain(f.contract);
  });

  for (const f of fixtures) {
    const label = `${f.contract}/${f.kind}/${f.name}`;
    if (f.kind === 'valid') {
      it(`${label} is valid`, () => {
        const result = validate(f.document);
        expect(result.ok ? [] : result.issues).toEqual([]);
        expect(result.contract).toBe(f.contract);
      });
    } else {
      const expected = f.expected;
      const codeOf = (e: { keyword?: string; code?: string }) =>
        e.keyword ? KEYWORD_CODES[e.keyword] : e.code;
      const code = expected && codeOf(expected as { keyword?: string; code?: string });
      it(`${label} fails with ${code} at "${expected?.instancePath}" and breaks no other rule`, () => {
        expect(expected, 'no .expected.json beside the fixture').toBeDefined();
        expect(code, `no issue code for ${JSON.stringify(expected)}`).toBeDefined();
        // Validate as the fixture's contract, so a wrong schemaVersion is judged by the schema.
        const result = validate(f.document, { contract: f.contract });
        expect(result.ok).toBe(false);
        if (result.ok) return;
        const { issues } = result;
        const named = issues.find((i) => i.code === code && i.path === expected!.instancePath);
        expect(
          named,
          `${code} at "${expected!.instancePath}" is not reported:\n${show(issues)}`,
        ).toBeDefined();
        const also = (expected!.alsoReports ?? []).map((a: { instancePath: string; because: string }) => {
          const alsoCode = codeOf(a as { keyword?: string; code?: string });
          expect(a.because, `alsoReports ${alsoCode} at "${a.instancePath}" gives no reason`).toMatch(/\S/);
          const hit = issues.find((i) => i.code === alsoCode && i.path === a.instancePath);
          expect(
            hit,
            `alsoReports ${alsoCode} at "${a.instancePath}" is not reported:\n${show(issues)}`,
          ).toBeDefined();
          return hit!;
        });
        const declared = [named!, ...also].map((i) => ruleOf(i, issues));
        expect(new Set(declared).size, `alsoReports repeats a rule: ${declared.join(', ')}`).toBe(
          declared.length,
        );
        // Every issue belongs to the named rule or to one the .expected.json allows, with its reason.
        expect([...new Set(issues.map((i) => ruleOf(i, issues)))].sort(), show(issues)).toEqual(
          [...declared].sort(),
        );
      });
    }
  }
});
