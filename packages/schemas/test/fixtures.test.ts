import { describe, expect, it } from 'vitest';
import { CONTRACTS, DIGEST_RULES } from '../src/index.ts';
import { ajvFor, cfworkerFor, listFixtures } from './helpers.ts';

const fixtures = listFixtures();

describe('golden fixtures', () => {
  it('every contract has at least 3 valid and 5 schema-invalid fixtures', () => {
    for (const c of CONTRACTS) {
      const mine = fixtures.filter((f) => f.contract === c.name);
      expect(mine.filter((f) => f.kind === 'valid').length, c.name).toBeGreaterThanOrEqual(3);
      expect(mine.filter((f) => f.kind === 'invalid').length, c.name).toBeGreaterThanOrEqual(5);
    }
  });

  it('every fixture folder names a contract of the catalogue', () => {
    const names = new Set(CONTRACTS.map((c) => c.name));
    for (const f of fixtures) expect(names.has(f.contract), f.path).toBe(true);
  });

  for (const f of fixtures) {
    const label = `${f.contract}/${f.kind}/${f.name}`;
    if (f.kind === 'valid') {
      it(`${label} is accepted by ajv and by @cfworker/json-schema`, () => {
        const ajv = ajvFor(f.contract);
        expect(ajv(f.document), JSON.stringify(ajv.errors)).toBe(true);
        const cf = cfworkerFor(f.contract).validate(f.document);
        expect(cf.valid, JSON.stringify(cf.errors.slice(0, 3))).toBe(true);
        expect((f.document as { schemaVersion?: unknown }).schemaVersion).toBe(f.contract);
      });
      const rules = DIGEST_RULES.filter((r) => r.contract === f.contract);
      if (rules.length) {
        it(`${label} carries digests that recompute per the spec`, () => {
          for (const rule of rules) {
            for (const { pointer, expected } of rule.compute(f.document)) {
              const actual = pointer
                .split('/')
                .slice(1)
                .reduce<unknown>((node, token) => (node as Record<string, unknown> | undefined)?.[token.replace(/~1/g, '/').replace(/~0/g, '~')], f.document);
              expect(actual, `${pointer} (${rule.covers})`).toBe(expected);
            }
          }
        });
      }
    } else {
      it(`${label} is rejected with ${f.expected?.keyword} at "${f.expected?.instancePath}"`, () => {
        expect(f.expected, 'invalid fixtures need a .expected.json').toBeDefined();
        const ajv = ajvFor(f.contract);
        expect(ajv(f.document)).toBe(false);
        const hits = (ajv.errors ?? []).filter(
          (e) => e.keyword === f.expected!.keyword && e.instancePath === f.expected!.instancePath,
        );
        expect(hits, JSON.stringify(ajv.errors)).not.toHaveLength(0);
        expect(cfworkerFor(f.contract).validate(f.document).valid).toBe(false);
      });
    }
  }
});
