import { DIGEST_RULES } from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import { listFixtures } from '../../../scripts/lib/fixture-corpus.ts';
import type { Issue } from '../src/index.ts';
import { validate } from '../src/index.ts';

export { type FixtureFile, listFixtures, repoRoot } from '../../../scripts/lib/fixture-corpus.ts';

/** A copy of `doc` with every top-level digest and derived id recomputed through the spec's DigestRules. */
export function restamp<T>(contract: string, doc: T): T {
  const out = structuredClone(doc) as unknown as Record<string, unknown>;
  for (const rule of DIGEST_RULES.filter((r) => r.contract === contract))
    for (const { pointer, expected } of rule.compute(out)) out[pointer.slice(1)] = expected;
  return out as unknown as T;
}

/** `code path` of every issue `validate` reports for `doc`; empty when it is accepted. */
export function issuesOf(doc: unknown): string[] {
  const r = validate(doc);
  return r.ok ? [] : r.issues.map((i) => `${i.code} ${i.path}`);
}

/**
 * The fixture suite every rule file of a contract starts with: there is one semantic fixture per
 * code, each breaks exactly its rule (one error, its code at its path, and `also` for what the
 * file checks of that issue besides), and the valid fixtures break none.
 */
export function describeSemanticFixtures(
  contract: string,
  codes: number,
  also?: (issue: Issue, expected: { readonly code: string; readonly instancePath: string }) => void,
): void {
  const fixtures = listFixtures().filter((f) => f.contract === contract);
  const semantic = fixtures.filter((f) => f.expected?.layer === 'semantic');
  describe('semantic fixtures break exactly their rule', () => {
    it(`there is one per code of the page (${codes} codes)`, () => {
      expect(new Set(semantic.map((f) => (f.expected as { code: string }).code)).size).toBe(codes);
    });
    for (const f of semantic) {
      const expected = f.expected as { code: string; instancePath: string };
      it(`${f.name}: ${expected.code} at "${expected.instancePath}" and nothing else`, () => {
        const r = validate(f.document);
        expect(r.ok).toBe(false);
        if (r.ok) return;
        expect(r.issues.map((i) => `${i.code} ${i.path}`)).toEqual([
          `${expected.code} ${expected.instancePath}`,
        ]);
        expect(r.issues[0]!.severity).toBe('error');
        also?.(r.issues[0]!, expected);
      });
    }
    it('the valid fixtures break no rule', () => {
      const valid = fixtures.filter((f) => f.kind === 'valid');
      expect(valid.length).toBeGreaterThanOrEqual(3);
      for (const f of valid) expect(validate(f.document), f.name).toMatchObject({ ok: true });
    });
  });
}
