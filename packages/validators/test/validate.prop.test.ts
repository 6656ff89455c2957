// @module-tag unit
// @module-tag slow
import { DIGEST_RULES, getSchema, SCHEMA_NAMES } from '@agent-contracts/schemas';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUNDLE_RULES, ISSUE_CODES, SEMANTIC_RULES, validate } from '../src/index.ts';

const NEVER = new Set(['VALIDATOR_INTERNAL_ERROR', 'RULE_FAILED', 'SCHEMA_OTHER']);
/** Every code the validator documents (docs/rules.md is generated from the same registries). */
const DOCUMENTED = new Set<string>([
  ...Object.keys(ISSUE_CODES),
  ...SEMANTIC_RULES.map((r) => r.code),
  ...BUNDLE_RULES.map((r) => r.code),
  ...DIGEST_RULES.flatMap((r) => (r.code ? [r.code] : [])),
]);
const POINTER = /^(\/([^~/]|~[01])*)*$/;

function assertWellFormed(doc: unknown): void {
  const r = validate(doc);
  if (r.ok) {
    expect(typeof r.contract).toBe('string');
    return;
  }
  expect(r.issues.length).toBeGreaterThan(0);
  for (const issue of r.issues) {
    expect(NEVER.has(issue.code), issue.message).toBe(false);
    expect(DOCUMENTED.has(issue.code), issue.code).toBe(true);
    expect(issue.path).toMatch(POINTER);
    expect(['error', 'warning']).toContain(issue.severity);
    expect(typeof issue.message).toBe('string');
  }
}

// Objects that reach the structural validators: a known schemaVersion and properties drawn from
// the contract's own property names (plus hostile ones) with arbitrary values.
const contractLike = fc.constantFrom(...SCHEMA_NAMES).chain((name) => {
  const props = Object.keys((getSchema(name)?.properties as object | undefined) ?? {});
  const key = fc.oneof(fc.constantFrom(...props, '__proto__', 'constructor', 'toString'), fc.string());
  return fc
    .dictionary(key, fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.anything({ maxDepth: 2 })), { maxKeys: 12 })
    .map((rest) => ({ ...rest, schemaVersion: name }));
});

describe('validate never throws', () => {
  it('on any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => assertWellFormed(v)),
      { numRuns: 500 },
    );
  });

  it('on any JavaScript value', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBigInt: true,
          withDate: true,
          withMap: true,
          withSet: true,
          withNullPrototype: true,
          withObjectString: true,
          withTypedArray: true,
          withSparseArray: true,
          withBoxedValues: true,
        }),
        (v) => assertWellFormed(v),
      ),
      { numRuns: 500 },
    );
  });

  it('on contract-like objects with arbitrary properties', () => {
    fc.assert(
      fc.property(contractLike, (v) => assertWellFormed(v)),
      { numRuns: 1000 },
    );
  });

  it('on JSON text with __proto__ keys, as JSON.parse produces them', () => {
    fc.assert(
      fc.property(contractLike, fc.jsonValue({ maxDepth: 2 }), (doc, payload) => {
        // A function replacement: a payload containing `$'` or `$&` must not be read as a pattern.
        const text = JSON.stringify(doc).replace(/^\{/, () => `{"__proto__":${JSON.stringify(payload)},`);
        assertWellFormed(JSON.parse(text));
        expect(({} as Record<string, unknown>).schemaVersion).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });
});
