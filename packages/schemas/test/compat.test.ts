// @module-tag unit
// @module-tag slow
// compareSchemas: each keyword rule on small schemas, then on the published schemas with one
// mutation at a time, where a change it calls compatible must keep every golden document that
// was valid valid (checked with ajv on both versions).
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareSchemas, getSchema, SCHEMA_NAMES } from '../src/index.ts';
import { listFixtures } from './helpers.ts';

const verdict = (a: unknown, b: unknown) => compareSchemas(a, b).compatibility;
const kinds = (a: unknown, b: unknown) => compareSchemas(a, b).changes.map((c) => `${c.kind} ${c.path}`);

// ajv-formats is CommonJS: its default export is the module object under NodeNext.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

describe('compareSchemas on small schemas', () => {
  it.each([
    ['identical', { type: 'string' }, { type: 'string' }, 'identical'],
    [
      'description only',
      { type: 'string', description: 'a' },
      { type: 'string', description: 'b' },
      'editorial',
    ],
    ['maxLength added', { type: 'string' }, { type: 'string', maxLength: 3 }, 'breaking'],
    ['maxLength raised', { type: 'string', maxLength: 3 }, { type: 'string', maxLength: 4 }, 'compatible'],
    ['maxLength lowered', { type: 'string', maxLength: 4 }, { type: 'string', maxLength: 3 }, 'breaking'],
    ['minimum lowered', { type: 'integer', minimum: 1 }, { type: 'integer', minimum: 0 }, 'compatible'],
    ['minimum raised', { type: 'integer', minimum: 0 }, { type: 'integer', minimum: 1 }, 'breaking'],
    ['type widened', { type: 'string' }, { type: ['string', 'null'] }, 'compatible'],
    ['integer to number', { type: 'integer' }, { type: 'number' }, 'compatible'],
    ['number to integer', { type: 'number' }, { type: 'integer' }, 'breaking'],
    ['enum value added', { enum: ['a'] }, { enum: ['a', 'b'] }, 'compatible'],
    ['enum value removed', { enum: ['a', 'b'] }, { enum: ['a'] }, 'breaking'],
    ['enum reordered', { enum: ['a', 'b'] }, { enum: ['b', 'a'] }, 'identical'],
    ['pattern added', { type: 'string' }, { type: 'string', pattern: '^a' }, 'breaking'],
    ['pattern removed', { type: 'string', pattern: '^a' }, { type: 'string' }, 'compatible'],
    ['pattern changed', { type: 'string', pattern: '^a' }, { type: 'string', pattern: '^b' }, 'breaking'],
    ['const changed', { const: 'a' }, { const: 'b' }, 'breaking'],
    ['required added', { type: 'object', required: [] }, { type: 'object', required: ['x'] }, 'breaking'],
    ['required removed', { type: 'object', required: ['x'] }, { type: 'object', required: [] }, 'compatible'],
    [
      'optional property added to a closed object',
      { type: 'object', properties: {}, additionalProperties: false },
      { type: 'object', properties: { x: { type: 'string' } }, additionalProperties: false },
      'compatible',
    ],
    [
      'property removed from a closed object',
      { type: 'object', properties: { x: { type: 'string' } }, additionalProperties: false },
      { type: 'object', properties: {}, additionalProperties: false },
      'breaking',
    ],
    [
      'property added to an open object',
      { type: 'object', properties: {} },
      { type: 'object', properties: { x: { type: 'string' } } },
      'breaking',
    ],
    ['object opened', { type: 'object', additionalProperties: false }, { type: 'object' }, 'compatible'],
    ['object closed', { type: 'object' }, { type: 'object', additionalProperties: false }, 'breaking'],
    [
      'items narrowed',
      { type: 'array', items: { type: 'string' } },
      { type: 'array', items: { enum: ['a'] } },
      'breaking',
    ],
    [
      'anyOf branch added',
      { anyOf: [{ type: 'string' }] },
      { anyOf: [{ type: 'string' }, { type: 'null' }] },
      'compatible',
    ],
    [
      'anyOf branch removed',
      { anyOf: [{ type: 'string' }, { type: 'null' }] },
      { anyOf: [{ type: 'null' }] },
      'breaking',
    ],
    [
      'allOf conjunct added',
      { allOf: [{ type: 'string' }] },
      { allOf: [{ type: 'string' }, { maxLength: 2 }] },
      'breaking',
    ],
    ['$ref changed', { $ref: '#/definitions/a' }, { $ref: '#/definitions/b' }, 'breaking'],
    ['$id changed', { $id: 'https://x/a' }, { $id: 'https://x/b' }, 'breaking'],
    [
      'an unmodelled keyword',
      { type: 'string' },
      { type: 'string', contentMediaType: 'text/plain' },
      'breaking',
    ],
    ['uniqueItems required', { type: 'array' }, { type: 'array', uniqueItems: true }, 'breaking'],
  ] as const)('%s: %s', (_name, a, b, expected) => {
    expect(verdict(a, b)).toBe(expected);
  });

  it('points at the change, with a message a maintainer can act on', () => {
    const a = {
      type: 'object',
      properties: { s: { type: 'string', enum: ['x', 'y'] } },
      additionalProperties: false,
    };
    const b = {
      type: 'object',
      properties: { s: { type: 'string', enum: ['x'] } },
      additionalProperties: false,
    };
    expect(compareSchemas(a, b).changes).toEqual([
      { path: '/properties/s/enum', kind: 'narrowing', message: 'enum no longer allows "y"' },
    ]);
    expect(
      kinds({ properties: { 'a/b~c': { type: 'string' } } }, { properties: { 'a/b~c': { type: 'number' } } }),
    ).toEqual(['narrowing /properties/a~1b~0c/type']);
  });

  it('finds nothing between every published schema and itself, and a description edit is editorial', () => {
    for (const name of SCHEMA_NAMES) {
      const s = getSchema(name)!;
      expect(verdict(s, structuredClone(s)), name).toBe('identical');
      expect(verdict(s, { ...structuredClone(s), description: `${String(s.description)} (edited)` })).toBe(
        'editorial',
      );
    }
  });
});

// --- soundness on the published schemas --------------------------------------------------------

type Json = Record<string, unknown>;
type Mutation = { kind: string; expect: 'compatible' | 'breaking' | 'editorial'; apply: (s: Json) => void };

/** Every object subschema of a schema, with a setter-friendly reference. */
function subschemas(node: unknown, out: Json[] = []): Json[] {
  if (Array.isArray(node)) for (const n of node) subschemas(n, out);
  else if (node && typeof node === 'object') {
    out.push(node as Json);
    for (const [k, v] of Object.entries(node))
      if (!['enum', 'const', 'required', 'examples', 'default'].includes(k)) subschemas(v, out);
  }
  return out;
}

function mutationsOf(s: Json): Mutation[] {
  const out: Mutation[] = [];
  if (typeof s.description === 'string')
    out.push({
      kind: 'description',
      expect: 'editorial',
      apply: (t) => {
        t.description = `${t.description}!`;
      },
    });
  if (Array.isArray(s.required) && s.required.length)
    out.push({ kind: 'unrequire', expect: 'compatible', apply: (t) => void (t.required as unknown[]).pop() });
  if (s.properties && typeof s.properties === 'object') {
    const optional = Object.keys(s.properties).filter(
      (p) => !(s.required as string[] | undefined)?.includes(p),
    );
    if (optional.length)
      out.push({
        kind: 'require',
        expect: 'breaking',
        apply: (t) => {
          t.required = [...((t.required as string[] | undefined) ?? []), optional[0]!];
        },
      });
  }
  if (Array.isArray(s.enum)) {
    out.push({
      kind: 'enum+',
      expect: 'compatible',
      apply: (t) => void (t.enum as unknown[]).push('zz-new-value'),
    });
    if (s.enum.length > 1)
      out.push({ kind: 'enum-', expect: 'breaking', apply: (t) => void (t.enum as unknown[]).shift() });
  }
  if (typeof s.maxLength === 'number') {
    out.push({
      kind: 'maxLength+',
      expect: 'compatible',
      apply: (t) => {
        t.maxLength = (t.maxLength as number) + 1;
      },
    });
    out.push({
      kind: 'maxLength-',
      expect: 'breaking',
      apply: (t) => {
        t.maxLength = 0;
      },
    });
  }
  if (typeof s.pattern === 'string')
    out.push({ kind: 'pattern-', expect: 'compatible', apply: (t) => void delete t.pattern });
  if (s.type === 'string' && s.pattern === undefined && s.enum === undefined && s.const === undefined)
    out.push({
      kind: 'pattern+',
      expect: 'breaking',
      apply: (t) => {
        t.pattern = '^zz-only$';
      },
    });
  if (s.additionalProperties === false)
    out.push({ kind: 'open', expect: 'compatible', apply: (t) => void delete t.additionalProperties });
  if (typeof s.type === 'string' && s.type !== 'null')
    out.push({
      kind: 'nullable',
      expect: 'compatible',
      apply: (t) => {
        t.type = [t.type as string, 'null'];
      },
    });
  return out;
}

describe('compareSchemas on the published schemas, one mutation at a time', () => {
  const fixtures = listFixtures();
  const compile = (schema: Json) => {
    const ajv = new Ajv({ strict: false, allErrors: false });
    addFormats(ajv);
    const { $id: _id, ...rest } = schema;
    return ajv.compile(rest);
  };

  it('classifies each mutation as it is built, and a compatible one keeps every valid document valid', () => {
    const names = SCHEMA_NAMES.filter((n) => fixtures.some((f) => f.contract === n));
    let compatibleChecked = 0;
    fc.assert(
      fc.property(fc.constantFrom(...names), fc.nat(), fc.nat(), (name, pickNode, pickMutation) => {
        const before = structuredClone(getSchema(name)!) as Json;
        const after = structuredClone(before);
        const nodes = subschemas(after);
        const candidates = nodes.flatMap((node) => mutationsOf(node).map((m) => ({ node, m })));
        fc.pre(candidates.length > 0);
        const { node, m } = candidates[(pickNode + pickMutation) % candidates.length]!;
        m.apply(node);
        const result = compareSchemas(before, after);
        expect(result.compatibility, `${name} ${m.kind}: ${JSON.stringify(result.changes)}`).toBe(m.expect);
        if (m.expect !== 'breaking') {
          const old = compile(before);
          const next = compile(after);
          for (const f of fixtures.filter((x) => x.contract === name))
            if (old(f.document)) expect(next(f.document), `${name} ${m.kind} ${f.name}`).toBe(true);
          compatibleChecked++;
        }
      }),
      { numRuns: 80 },
    );
    expect(compatibleChecked).toBeGreaterThan(0);
  }, 120_000);
});
