// @module-tag unit
import { CONTRACTS, SCHEMA_NAMES } from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import { listFixtures } from '../../../scripts/lib/fixture-corpus.ts';
import { generateZodModule, UnsupportedSchemaError } from '../scripts/codegen.ts';
import { hasUniqueItems, jsonEqual, propertyCountWithin } from '../src/checks.ts';
import { ZOD_CONTRACT_NAMES, ZOD_SCHEMAS, zodSchemaFor } from '../src/index.ts';

describe('registry', () => {
  it('has a zod schema for every contract of the catalogue', () => {
    for (const c of CONTRACTS) expect(zodSchemaFor(c.name), c.name).toBeDefined();
  });

  it('has exactly the published schemas, in spec order (regenerate with `pnpm zod:generate`)', () => {
    expect(ZOD_CONTRACT_NAMES).toEqual(SCHEMA_NAMES);
    expect(Object.keys(ZOD_SCHEMAS)).toEqual(SCHEMA_NAMES);
  });

  it('knows no other names', () => {
    expect(zodSchemaFor('NoSuchContractV1')).toBeUndefined();
    expect(zodSchemaFor('__proto__')).toBeUndefined();
    expect(zodSchemaFor('toString')).toBeUndefined();
  });
});

describe('valid golden fixtures', () => {
  const valid = listFixtures().filter((f) => f.kind === 'valid');
  it('exist', () => {
    expect(valid.length).toBeGreaterThan(0);
  });
  for (const f of valid) {
    it(`${f.contract}/${f.name} parses to a value deep-equal to its input`, () => {
      const result = zodSchemaFor(f.contract)!.safeParse(f.document);
      expect(result.error?.issues).toBeUndefined();
      expect(result.data).toStrictEqual(f.document);
    });
  }
});

describe('generator', () => {
  const base = { type: 'object', additionalProperties: false, required: ['x'] };
  const gen = (x: Record<string, unknown>) =>
    generateZodModule([{ name: 'ExampleV1', schema: { ...base, properties: { x } } }]);

  it.each([
    [{ type: 'number', multipleOf: 2 }, /keyword "multipleOf" is not supported/],
    [{ $ref: '#/definitions/a' }, /keyword "\$ref" is not supported/],
    [{ type: 'string', format: 'email' }, /format "email"/],
    [{ type: 'array', items: [{ type: 'string' }] }, /tuple "items"/],
    [{ type: 'string', anyOf: [{ minLength: 1 }] }, /anyOf beside/],
    [{ type: 'string', minimum: 1 }, /"minimum" does not apply to type string/],
    [{ type: 'date' }, /type "date"/],
    [{ minLength: 1 }, /without "type"/],
    [{ type: 'string', enum: ['a'], pattern: 'a' }, /enum\/const beside pattern/],
    [{ const: { a: 1 } }, /enum\/const of an object/],
    [{ type: 'string', pattern: '(' }, /not a valid Unicode RegExp/],
    [
      { type: 'object', properties: {}, required: ['y'], additionalProperties: false },
      /required "y" is not in properties/,
    ],
  ])('refuses %j loudly', (x, message) => {
    expect(() => gen(x)).toThrow(UnsupportedSchemaError);
    expect(() => gen(x)).toThrow(message);
  });

  it('names the JSON Pointer of the offending schema', () => {
    expect(() => gen({ type: 'array', items: { type: 'number', multipleOf: 3 } })).toThrow(
      /^ExampleV1\/properties\/x\/items: /,
    );
  });

  it('emits type unions, nullable scalars, enums and optional keys', () => {
    const text = generateZodModule([
      {
        name: 'ExampleV1',
        schema: {
          type: 'object',
          additionalProperties: false,
          required: ['a', 'b'],
          properties: {
            a: { type: ['null', 'string'], pattern: '^x$' },
            b: { enum: ['p', 'q'], type: 'string' },
            c: { type: ['integer', 'string'], minimum: 0, maximum: 10 },
            d: { type: 'integer' },
          },
        },
      },
    ]);
    expect(text).toContain(`a: z.string().regex(new RegExp("^x$", 'u')).nullable(),`);
    expect(text).toContain('b: z.enum(["p", "q"]),');
    expect(text).toContain('c: z.union([z.int().gte(0).lte(10), z.string()]).exactOptional(),');
    // Without bounds an integer may exceed 2^53, which z.int() would refuse.
    expect(text).toContain(
      "d: z.number().refine(Number.isInteger, { error: 'must be an integer' }).exactOptional(),",
    );
    expect(text).toContain('ExampleV1: ExampleV1Schema,');
  });
});

describe('keyword checks', () => {
  it('uniqueItems compares JSON values structurally', () => {
    expect(
      hasUniqueItems([
        { a: 1, b: [1, 2] },
        { b: [1, 2], a: 1 },
      ]),
    ).toBe(false);
    expect(hasUniqueItems([{ a: 1 }, { a: 1, b: 1 }, [1], [1, 1], 1, '1', null])).toBe(true);
    expect(jsonEqual({ a: undefined }, { b: undefined })).toBe(false);
  });

  it('property counts include an own __proto__ key', () => {
    const doc = JSON.parse('{"__proto__": 1, "a": 2}');
    expect(propertyCountWithin(doc, 0, 1)).toBe(false);
    expect(propertyCountWithin(doc, 0, 2)).toBe(true);
    expect(propertyCountWithin('not an object', 0, 0)).toBe(true);
  });
});
