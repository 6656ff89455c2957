// @module-tag unit
// Every golden fixture through the reference validator: valid ones pass (schema, digests,
// rules); invalid ones fail with the code of the keyword their .expected.json records, at the
// recorded JSON Pointer.
import { describe, expect, it } from 'vitest';
import { KEYWORD_CODES, SUPPORTED_CONTRACTS, validate } from '../src/index.ts';
import { listFixtures } from './helpers.ts';

const fixtures = listFixtures();

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
      const code =
        expected?.layer === 'schema'
          ? KEYWORD_CODES[expected.keyword]
          : (expected as { code?: string } | undefined)?.code;
      it(`${label} fails with ${code} at "${expected?.instancePath}"`, () => {
        expect(expected, 'no .expected.json beside the fixture').toBeDefined();
        expect(code, `no issue code for ${JSON.stringify(expected)}`).toBeDefined();
        // Validate as the fixture's contract, so a wrong schemaVersion is judged by the schema.
        const result = validate(f.document, { contract: f.contract });
        expect(result.ok).toBe(false);
        if (result.ok) return;
        const hits = result.issues.filter((i) => i.code === code && i.path === expected!.instancePath);
        expect(hits, JSON.stringify(result.issues, null, 1)).not.toEqual([]);
      });
    }
  }
});
