// @module-tag unit
// With the default rules, the fail-fast pass leaves the patterns of the fields the digest and
// semantic rules recompute to those rules (scripts/fast-pass.ts, DEFERRED_PATTERNS): validate()
// trusts the pass only when every rule reports nothing, and runs the strict pass and ajv whenever
// one reports or throws. Held here to the strict route (validate with a copy of the registry,
// which never defers and never takes a walk) on every fixture of those contracts, on each deferred
// field of every valid fixture broken in several ways, and on the named rules.
import { DIGEST_RULES, deriveContextPlanIdentityInputs } from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import { DEFERRED_PATTERNS, instancePattern } from '../scripts/fast-pass.ts';
import {
  FAST_DEFERRED_HELD,
  FAST_DEFERS,
  FAST_VALIDATORS,
  STRUCTURAL_VALIDATORS,
} from '../src/generated/structural.generated.ts';
import { SEMANTIC_RULES, validate } from '../src/index.ts';
import { CLEAN_WALKS } from '../src/rules/index.ts';
import { TRACE_WALK_COVERS } from '../src/rules/local-task-trace-walk.ts';
import { listFixtures } from './helpers.ts';

type Json = Record<string, unknown>;

// A copy of the registry: validate() defers patterns (and takes a walk) for the registry itself only.
const STRICT = { rules: [...SEMANTIC_RULES] };

/** Every instance of the pointer pattern `/a/*\/b` in `doc` (`*`: any index), as key paths. */
function instances(doc: unknown, pattern: string): string[][] {
  let found: Array<[string[], unknown]> = [[[], doc]];
  for (const step of pattern.split('/').slice(1)) {
    const next: Array<[string[], unknown]> = [];
    for (const [path, value] of found) {
      if (value === null || typeof value !== 'object') continue;
      if (step === '*') {
        if (Array.isArray(value))
          for (let i = 0; i < value.length; i++) next.push([[...path, String(i)], value[i]]);
      } else if (Object.hasOwn(value, step)) next.push([[...path, step], (value as Json)[step]]);
    }
    found = next;
  }
  return found.map(([path]) => path);
}

function set(doc: unknown, path: readonly string[], value: unknown): void {
  let at = doc as Json;
  for (const key of path.slice(0, -1)) at = at[key] as Json;
  at[path.at(-1)!] = value;
}

const get = (doc: unknown, path: readonly string[]) =>
  path.reduce<unknown>((at, key) => (at as Json)[key], doc);

/** Another value of the same pattern (a derived id or SHA-256 hex ends in a hex digit). */
const other = (value: string) => `${value.slice(0, -1)}${value.endsWith('0') ? '1' : '0'}`;

/** Strings that break a derived id's or a SHA-256 hex field's pattern, made from its value. */
function breaks(value: string): string[] {
  return [
    value.toUpperCase(),
    value.slice(0, -1),
    `${value}0`,
    `${value.slice(0, -1)}g`,
    '',
    `"${value}`,
  ].filter((v) => v !== value);
}

/** At most three instances of each pattern (first, middle, last): a trace has one eventId per event. */
const some = (paths: string[][]) =>
  paths.length <= 3 ? paths : [paths[0]!, paths[paths.length >> 1]!, paths.at(-1)!];

const pointer = (path: readonly string[]) => `/${path.join('/')}`;

/**
 * `doc` with every field a digest rule recomputes set to its recomputation (and a plan's
 * identityInputs derived again), except `keep`: a deferred field whose rule only covered it
 * (hashed it into another field) instead of comparing it would then break its pattern with every
 * rule silent.
 */
function restamp(contract: string, doc: unknown, keep: string): void {
  for (let pass = 0; pass < 3; pass++) {
    // A plan's identityInputs are derived from its other fields (CONTEXT_IDENTITY_INPUTS_MISMATCH).
    if (contract === 'ContextReadPlanV2' && !keep.startsWith('/identityInputs/'))
      (doc as Json).identityInputs = deriveContextPlanIdentityInputs(doc as never);
    // and a cache decision's key is its planContentId (CONTEXT_CACHE_DECISION_INVALID).
    const cache = (doc as Json).cacheDecision as Json | null | undefined;
    if (contract === 'ContextReadPlanV2' && typeof cache?.cacheKey === 'string')
      cache.cacheKey = (doc as Json).planContentId;
    for (const rule of DIGEST_RULES.filter((r) => r.contract === contract)) {
      let entries: ReadonlyArray<{ pointer: string; expected: string | null }>;
      try {
        entries = rule.compute(doc);
      } catch {
        continue;
      }
      for (const { pointer: at, expected } of entries)
        if (at !== keep && expected !== null) set(doc, at.split('/').slice(1), expected);
    }
  }
}

describe('deferred patterns', () => {
  it('are the generated table, named by location, for contracts with a fail-fast pass', () => {
    expect(Object.keys(FAST_DEFERS).sort()).toEqual(Object.keys(DEFERRED_PATTERNS).sort());
    expect(Object.keys(FAST_DEFERRED_HELD).sort()).toEqual(Object.keys(DEFERRED_PATTERNS).sort());
    for (const [contract, locations] of Object.entries(DEFERRED_PATTERNS)) {
      expect(FAST_VALIDATORS[contract], contract).toBeDefined();
      expect(FAST_DEFERS[contract]).toEqual(Object.keys(locations).map(instancePattern));
    }
    expect(instancePattern('#/properties/events/items/properties/eventId')).toBe('/events/*/eventId');
    expect(instancePattern('#/properties/items/items/anyOf/1/properties/properties')).toBe(
      '/items/*/properties',
    );
  });

  it('each name the default rule that compares the field, which a walk stands for when there is one', () => {
    for (const [contract, locations] of Object.entries(DEFERRED_PATTERNS)) {
      const digests = new Set(DIGEST_RULES.filter((r) => r.contract === contract).map((r) => r.pointer));
      const codes = new Set(SEMANTIC_RULES.filter((r) => r.contract === contract).map((r) => r.code));
      for (const [location, by] of Object.entries(locations)) {
        expect(by.digest !== undefined || by.rule !== undefined, location).toBe(true);
        if (by.digest !== undefined) expect(digests, `${contract} ${location}`).toContain(by.digest);
        if (by.rule !== undefined) expect(codes, `${contract} ${location}`).toContain(by.rule);
        if (CLEAN_WALKS.has(contract)) {
          expect(contract).toBe('LocalTaskTraceV1');
          if (by.digest !== undefined) expect(TRACE_WALK_COVERS.digests).toContain(by.digest);
          if (by.rule !== undefined) expect(TRACE_WALK_COVERS.rules).toContain(by.rule);
        }
      }
    }
  });

  for (const contract of Object.keys(DEFERRED_PATTERNS)) {
    const fixtures = listFixtures().filter((f) => f.contract === contract);
    const valid = fixtures.filter((f) => f.kind === 'valid');
    const patterns = FAST_DEFERS[contract]!;
    const fast = FAST_VALIDATORS[contract]!;
    const held = FAST_DEFERRED_HELD[contract]!;
    /** The deferring pass and the deferred patterns together are the strict pass. */
    const strictPass = (doc: unknown) => fast(doc, true) && held(doc);

    describe(contract, () => {
      it('answers as the strict route on every fixture', () => {
        expect(valid.length).toBeGreaterThan(0);
        for (const f of fixtures) {
          expect(validate(f.document), f.name).toEqual(validate(f.document, STRICT));
          expect(strictPass(f.document), f.name).toBe(fast(f.document));
        }
      });

      it('each deferred field is pinned by a rule: another value of its pattern, all else restamped, is refused', () => {
        let pinned = 0;
        for (const f of valid)
          for (const pattern of patterns)
            for (const path of some(instances(f.document, pattern))) {
              const value = get(f.document, path);
              if (typeof value !== 'string') continue;
              const doc = structuredClone(f.document);
              set(doc, path, other(value));
              restamp(contract, doc, pointer(path));
              const result = validate(doc);
              const codes = result.ok ? [] : result.issues.map((i) => i.code);
              expect(codes.length, `${f.name} ${pointer(path)}`).toBeGreaterThan(0);
              expect(
                codes.filter((c) => c.startsWith('SCHEMA_')),
                `${f.name} ${pointer(path)}`,
              ).toEqual([]);
              expect(result).toEqual(validate(doc, STRICT));
              pinned++;
            }
        expect(pinned).toBeGreaterThanOrEqual(patterns.length);
      });

      it('answers as the strict route, a pattern issue, with any deferred field broken', () => {
        let broken = 0;
        let refusedAnyway = 0; // a restamped copy (a cache key) breaks a pattern that is not deferred
        for (const f of valid)
          for (const pattern of patterns)
            for (const path of some(instances(f.document, pattern))) {
              const value = get(f.document, path);
              if (typeof value !== 'string') continue;
              for (const bad of breaks(value))
                for (const restamped of [false, true]) {
                  const doc = structuredClone(f.document);
                  set(doc, path, bad);
                  if (restamped) restamp(contract, doc, pointer(path));
                  const what = `${f.name} ${pointer(path)} = ${bad}${restamped ? ', restamped' : ''}`;
                  const strict = validate(doc, STRICT);
                  expect(strict.ok, what).toBe(false);
                  if (!strict.ok)
                    expect(
                      strict.issues.map((i) => `${i.code} ${i.path}`),
                      what,
                    ).toContain(`SCHEMA_PATTERN ${pointer(path)}`);
                  expect(validate(doc), what).toEqual(strict);
                  expect(fast(doc), what).toBe(false);
                  expect(strictPass(doc), what).toBe(false);
                  if (fast(doc, true)) expect(held(doc), what).toBe(false);
                  else refusedAnyway++;
                  broken++;
                }
            }
        expect(broken).toBeGreaterThan(valid.length);
        expect(refusedAnyway).toBeLessThan(broken / 2);
      });

      it('answers as the strict route when a field and the copy a rule compares it with are broken alike', () => {
        let broken = 0;
        for (const f of valid)
          for (const [location, by] of Object.entries(DEFERRED_PATTERNS[contract]!)) {
            if (by.via === undefined || by.via.includes('*')) continue;
            const paths = [
              ...instances(f.document, instancePattern(location)),
              ...instances(f.document, by.via),
            ];
            const value = get(f.document, paths[0]!);
            if (typeof value !== 'string') continue;
            for (const bad of breaks(value)) {
              const doc = structuredClone(f.document);
              for (const path of paths) set(doc, path, bad);
              expect(validate(doc), `${f.name} ${location} = ${bad}`).toEqual(validate(doc, STRICT));
              broken++;
            }
          }
        if (Object.values(DEFERRED_PATTERNS[contract]!).some((by) => by.via && !by.via.includes('*')))
          expect(broken).toBeGreaterThan(0);
      });
    });
  }

  it('restamps completely: a field the rules only hash, changed and restamped, is valid again', () => {
    // The control for the pinning test above: were restamp() to leave a derived field stale, a
    // field no rule compares would look pinned.
    const changes: Record<string, (doc: Json) => void> = {
      ContextReadPlanV2: (doc) => {
        const identity = (doc.baselineSources as Json[])[0]!.contentIdentity as Json;
        identity.digest = other(identity.digest as string);
      },
      LocalTaskTraceV1: (doc) => {
        const event = (doc.events as Json[])[0]!;
        event.occurrenceKey = `${event.occurrenceKey as string}-again`;
      },
    };
    expect(Object.keys(changes).sort()).toEqual(Object.keys(DEFERRED_PATTERNS).sort());
    for (const [contract, change] of Object.entries(changes)) {
      const f = listFixtures().find(
        (x) =>
          x.contract === contract &&
          x.kind === 'valid' &&
          ((x.document as Json).baselineSources ?? (x.document as Json).events) !== undefined &&
          ((((x.document as Json).baselineSources ?? (x.document as Json).events) as unknown[]).length ?? 0) >
            0,
      )!;
      const doc = structuredClone(f.document) as Json;
      change(doc);
      expect(validate(doc).ok, `${f.name} changed`).toBe(false);
      restamp(contract, doc, '');
      expect(validate(doc), `${f.name} changed and restamped`).toMatchObject({ ok: true });
    }
  });

  it('answers as the strict route when a rule throws on a document whose deferred field is broken', () => {
    // A payload nested beyond the stack: the trace rules' size count throws a RangeError, which
    // validate() reports as DOCUMENT_TOO_DEEP for an otherwise conforming trace, while a broken
    // eventId is a structural issue first.
    const f = listFixtures().find((x) => x.contract === 'LocalTaskTraceV1' && x.kind === 'valid')!;
    let deep: unknown = 0;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const doc = structuredClone(f.document) as { events: Json[] };
    doc.events[0]!.payload = { deep };
    const deepOnly = validate(doc);
    expect(deepOnly.ok ? [] : deepOnly.issues.map((i) => i.code)).toEqual(['DOCUMENT_TOO_DEEP']);
    expect(deepOnly).toEqual(validate(doc, STRICT));
    doc.events[0]!.eventId = String(doc.events[0]!.eventId).toUpperCase();
    expect(STRUCTURAL_VALIDATORS.LocalTaskTraceV1!(doc)).toBe(false);
    const strict = validate(doc, STRICT);
    expect(strict.ok ? [] : strict.issues.map((i) => `${i.code} ${i.path}`)).toContain(
      'SCHEMA_PATTERN /events/0/eventId',
    );
    expect(validate(doc)).toEqual(strict);
  });
});
