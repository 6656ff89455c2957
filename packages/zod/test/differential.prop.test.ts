// @module-tag unit
// @module-tag slow
// ajv (strict, ajv-formats full, compiled from the published schema) and the generated zod
// schema must agree on accept/reject for every contract: on the golden fixtures, on generated
// valid documents and on targeted mutations of them.
import { getSchema, SCHEMA_NAMES } from '@agent-contracts/schemas';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ajvFor, listFixtures, makeAjv } from '../../../scripts/lib/fixture-corpus.ts';
import { isRfc3339DateTime, zodSchemaFor } from '../src/index.ts';
import { arbitraryFor, mutationOf } from './json-schema-arbitrary.ts';

// 2-core CI budget: the whole file stays well under 20 s.
const VALID_RUNS = 40;
const MUTATION_RUNS = 120;

function verdicts(contract: string, doc: unknown): { ajv: boolean; zod: boolean } {
  const zod = zodSchemaFor(contract);
  if (!zod) throw new Error(`no zod schema for ${contract}`);
  return { ajv: ajvFor(contract)(doc) as boolean, zod: zod.safeParse(doc).success };
}

describe('ajv and zod agree on every golden fixture', () => {
  const fixtures = listFixtures();
  it('there are fixtures to compare', () => {
    expect(fixtures.length).toBeGreaterThan(0);
  });
  for (const f of fixtures) {
    if (!getSchema(f.contract)) continue;
    it(`${f.contract}/${f.kind}/${f.name}`, () => {
      const v = verdicts(f.contract, f.document);
      expect(v.zod, `ajv says ${v.ajv}`).toBe(v.ajv);
    });
  }
});

describe.each(SCHEMA_NAMES.map((name) => [name]))('%s', (name) => {
  const schema = getSchema(name)!;

  it('accepts every generated valid document, as ajv does', () => {
    fc.assert(
      fc.property(arbitraryFor(schema), (doc) => {
        const v = verdicts(name, doc);
        // The generator must produce valid documents, or this property proves little.
        expect(v.ajv, `ajv rejected a generated document: ${JSON.stringify(ajvFor(name).errors)}`).toBe(true);
        expect(v.zod).toBe(true);
      }),
      { numRuns: VALID_RUNS },
    );
  });

  it('agrees with ajv on mutated documents', () => {
    let rejected = 0;
    fc.assert(
      fc.property(mutationOf(schema), ({ doc }) => {
        const v = verdicts(name, doc);
        if (!v.ajv) rejected++;
        expect(v.zod, `ajv says ${v.ajv}`).toBe(v.ajv);
      }),
      { numRuns: MUTATION_RUNS },
    );
    // Mutations that never break anything would make the agreement vacuous.
    expect(rejected).toBeGreaterThan(MUTATION_RUNS / 3);
  });
});

describe('date-time: the zod check and ajv-formats (full) agree', () => {
  const ajvDateTime = makeAjv().compile({ type: 'string', format: 'date-time' });
  const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
  const candidate = fc
    .tuple(
      fc.oneof(
        fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0')),
        fc.constantFrom('1900', '2000', '2024', '2023', '123'),
      ),
      two(13),
      two(32),
      fc.constantFrom('T', 't', ' ', 'x', 'TT', '\t'),
      two(25),
      two(61),
      two(61),
      fc.constantFrom('', '.', '.5', '.123456789', '.1234567890'),
      fc.constantFrom('Z', 'z', '', '+00:00', '-01:30', '+0130', '+24:00', '+23:60', '+01', 'Zt', ' '),
    )
    .map(([y, mo, d, sep, h, mi, s, frac, off]) => `${y}-${mo}-${d}${sep}${h}:${mi}:${s}${frac}${off}`);

  it('on date-time-shaped strings, valid and not', () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.oneof(candidate, fc.string({ maxLength: 30 })), (value) => {
        const ajv = ajvDateTime(value) as boolean;
        if (ajv) accepted++;
        expect(isRfc3339DateTime(value), value).toBe(ajv);
      }),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(30);
  });

  it('on the edge cases by name', () => {
    for (const [value, ok] of [
      ['2024-02-29T00:00:00Z', true],
      ['2023-02-29T00:00:00Z', false],
      ['1900-02-29T00:00:00Z', false],
      ['2000-02-29T00:00:00Z', true],
      ['2024-04-31T00:00:00Z', false],
      ['2024-12-31T23:59:60Z', true],
      ['2024-12-31T22:59:60Z', false],
      ['2024-12-31T23:59:60+01:00', false],
      ['2025-01-01T00:59:60+01:00', true],
      ['2024-01-01T24:00:00Z', false],
      ['2024-01-01T00:00:00', false],
    ] as const) {
      expect(isRfc3339DateTime(value), value).toBe(ok);
      expect(ajvDateTime(value), value).toBe(ok);
    }
  });
});
