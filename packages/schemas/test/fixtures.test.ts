// @module-tag unit
import { describe, expect, it } from 'vitest';
import { CONTRACTS } from '../src/index.ts';
import { ajvFor, cfworkerFor, judge, listFixtures } from './helpers.ts';

const fixtures = listFixtures();

describe('golden fixtures', () => {
  it('every contract has at least 3 valid and 5 schema-invalid fixtures', () => {
    for (const c of CONTRACTS) {
      const mine = fixtures.filter((f) => f.contract === c.name);
      expect(mine.filter((f) => f.kind === 'valid').length, c.name).toBeGreaterThanOrEqual(3);
      expect(mine.filter((f) => f.expected?.layer === 'schema').length, c.name).toBeGreaterThanOrEqual(5);
    }
  });

  it('every fixture folder names a contract of the catalogue', () => {
    const names = new Set(CONTRACTS.map((c) => c.name));
    for (const f of fixtures) expect(names.has(f.contract), f.path).toBe(true);
  });

  for (const f of fixtures) {
    const label = `${f.contract}/${f.kind}/${f.name}`;
    if (f.kind === 'valid') {
      it(`${label} is accepted by ajv (schema + digests) and by @cfworker/json-schema`, () => {
        const verdict = judge(f);
        expect(verdict.ok, `${verdict.detail} ${JSON.stringify(verdict.errors?.slice(0, 3) ?? [])}`).toBe(
          true,
        );
        const cf = cfworkerFor(f.contract).validate(f.document);
        expect(cf.valid, JSON.stringify(cf.errors.slice(0, 3))).toBe(true);
        expect((f.document as { schemaVersion?: unknown }).schemaVersion).toBe(f.contract);
      });
    } else if (f.expected?.layer === 'semantic') {
      it(`${label} passes the schema in ajv and @cfworker/json-schema (it breaks only ${f.expected.code})`, () => {
        const verdict = judge(f);
        expect(verdict.ok, `${verdict.detail} ${JSON.stringify(verdict.errors ?? [])}`).toBe(true);
        expect(cfworkerFor(f.contract).validate(f.document).valid).toBe(true);
      });
    } else {
      it(`${label} is rejected with ${f.expected?.keyword} at "${f.expected?.instancePath}" by ajv, and by @cfworker/json-schema`, () => {
        const verdict = judge(f);
        expect(verdict.ok, `${verdict.detail} ${JSON.stringify(verdict.errors ?? [])}`).toBe(true);
        expect(ajvFor(f.contract)(f.document)).toBe(false);
        expect(cfworkerFor(f.contract).validate(f.document).valid).toBe(false);
      });
    }
  }
});
