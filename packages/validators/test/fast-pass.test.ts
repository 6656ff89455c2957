// @module-tag unit
// The fail-fast validity pass (scripts/fast-pass.ts) may only say "conforms" when ajv's full
// check does; validate() relies on it to skip ajv for conforming documents.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FAST_VALIDATORS, STRUCTURAL_VALIDATORS } from '../src/generated/structural.generated.ts';
import { listFixtures } from './helpers.ts';

type Json = Record<string, unknown>;

/** JSON values a mutation puts in place of one value. */
const REPLACEMENTS: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  2 ** 53,
  '',
  'x',
  'a'.repeat(257),
  '\ud83d\ude00'.repeat(129),
  'trace-0123456789abcdef01234567',
  'event-0123456789abcdef01234567',
  'e'.repeat(64),
  '2026-11-30T06:00:00.000Z',
  '2026-11-30T06:00:00Z',
  '2026-02-30T06:00:00.000Z',
  '2026-11-30T23:59:60Z',
  '2026-11-30t06:00:00.000z',
  '2026-11-30T06:00:00.0000000000Z',
  'PreToolUse',
  'TurnTerminal',
  'complete',
  'observed',
  [],
  [{}],
  {},
  Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, i])),
];

/** Every container of `doc` with the path to it. */
function containers(doc: unknown, at: string[] = []): Array<[string[], Json | unknown[]]> {
  if (doc === null || typeof doc !== 'object') return [];
  const out: Array<[string[], Json | unknown[]]> = [[at, doc as Json]];
  for (const [k, v] of Object.entries(doc)) out.push(...containers(v, [...at, k]));
  return out;
}

function at(doc: unknown, path: string[]): Json {
  return path.reduce<unknown>((x, k) => (x as Json)[k], doc) as Json;
}

/**
 * One-edit JSON mutations of `doc`: every value replaced (by every replacement, or by `perValue`
 * of them in turn for a large document), every key removed, one key added.
 */
function* mutations(doc: unknown, perValue = REPLACEMENTS.length): Generator<unknown> {
  let turn = 0;
  for (const [path, container] of containers(doc)) {
    const keys = Object.keys(container);
    for (const key of keys) {
      for (let r = 0; r < perValue; r++) {
        const value = REPLACEMENTS[turn++ % REPLACEMENTS.length];
        const copy = structuredClone(doc);
        at(copy, path)[key] = structuredClone(value);
        yield copy;
      }
      if (!Array.isArray(container)) {
        const copy = structuredClone(doc);
        delete at(copy, path)[key];
        yield copy;
      }
    }
    if (!Array.isArray(container)) {
      const copy = structuredClone(doc);
      at(copy, path).unexpected = 1;
      yield copy;
    }
  }
}

/** Edits no JSON text can express: the pass may refuse them, but never accept what ajv refuses. */
function* hostile(doc: unknown): Generator<unknown> {
  for (const [path, container] of containers(doc)) {
    if (Array.isArray(container)) continue;
    for (const key of Object.keys(container)) {
      const hidden = structuredClone(doc);
      const target = at(hidden, path);
      Object.defineProperty(target, key, { value: target[key], enumerable: false });
      yield hidden;
      const undef = structuredClone(doc);
      at(undef, path)[key] = undefined;
      yield undef;
      const inherited = structuredClone(doc);
      const own = at(inherited, path);
      const value = own[key];
      delete own[key];
      Object.setPrototypeOf(own, { [key]: value });
      yield inherited;
    }
  }
}

const contracts = Object.keys(FAST_VALIDATORS);

describe('fail-fast validity pass', () => {
  it('exists for the trace contract', () => {
    expect(contracts).toContain('LocalTaskTraceV1');
  });

  for (const contract of contracts) {
    const fast = FAST_VALIDATORS[contract]!;
    const full = STRUCTURAL_VALIDATORS[contract]!;
    const fixtures = listFixtures().filter((f) => f.contract === contract);
    const valid = fixtures.filter((f) => f.kind === 'valid');
    // The edits below are per value: the small fixtures have every shape, the large ones only more events.
    const size = (f: { document: unknown }) => JSON.stringify(f.document).length;
    const smallest = [...valid].sort((a, b) => size(a) - size(b)).slice(0, 1);
    const large = !valid.some((f) => size(f) < 8000);
    const small = large ? smallest : valid.filter((f) => size(f) < 8000);

    describe(contract, () => {
      it('accepts every valid fixture and answers as ajv on every fixture', () => {
        expect(valid.length).toBeGreaterThan(0);
        for (const f of valid) expect(fast(f.document), f.name).toBe(true);
        for (const f of fixtures) expect(fast(f.document), f.name).toBe(full(f.document));
      });

      it('answers as ajv on every one-edit mutation of the valid fixtures', () => {
        let accepted = 0;
        let refused = 0;
        for (const f of small)
          for (const doc of mutations(f.document, large ? 2 : undefined)) {
            const expected = full(doc);
            expect(fast(doc), `${f.name}: ${JSON.stringify(doc)}`).toBe(expected);
            if (expected) accepted++;
            else refused++;
          }
        // Both answers occur, so the comparison is not vacuous.
        expect(accepted).toBeGreaterThan(0);
        expect(refused).toBeGreaterThan(0);
      });

      it('never accepts what ajv refuses: hidden, undefined and inherited properties', () => {
        let refusedByAjv = 0;
        for (const f of small)
          for (const doc of hostile(f.document)) {
            if (fast(doc)) expect(full(doc), `${f.name}`).toBe(true);
            if (!full(doc)) refusedByAjv++;
          }
        expect(refusedByAjv).toBeGreaterThan(0);
      });

      it('never accepts what ajv refuses: random edits of a valid fixture', () => {
        const base = small.at(-1)!.document as Json;
        const keys = [...new Set(containers(base).flatMap(([, c]) => Object.keys(c))), 'extra'];
        const value = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(...REPLACEMENTS));
        fc.assert(
          fc.property(
            fc.array(fc.tuple(fc.nat(), fc.constantFrom(...keys), value), { minLength: 1, maxLength: 4 }),
            (edits) => {
              const doc = structuredClone(base);
              for (const [i, key, v] of edits) {
                const objects = containers(doc).filter(([, c]) => !Array.isArray(c)) as Array<
                  [string[], Json]
                >;
                objects[i % objects.length]![1][key] = structuredClone(v);
              }
              expect(fast(doc)).toBe(full(doc));
            },
          ),
          { numRuns: large ? 200 : 2000, seed: 0x25 },
        );
      });
    });
  }
});
