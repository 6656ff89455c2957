// @module-tag unit
// The TurnLivenessRecoveryGate rules on their fixtures: every semantic fixture breaks exactly its
// rule (no other issue fires), every valid fixture passes, and each bundle kind judges its sets.
import { describe, expect, it } from 'vitest';
import { TURN_LIVENESS_BUNDLES, TURN_LIVENESS_FIXTURES } from '../../../../scripts/fixtures/turn-liveness.ts';
import { validate, validateBundle } from '../../src/index.ts';
import { TURN_LIVENESS_BUNDLE_RULES, TURN_LIVENESS_RULES } from '../../src/rules/turn-liveness/index.ts';

describe('turn-liveness semantic rules', () => {
  for (const set of TURN_LIVENESS_FIXTURES) {
    for (const [name, doc] of Object.entries(set.valid)) {
      it(`${set.contract}/valid/${name} passes every rule`, () => {
        const r = validate(doc);
        expect(r.ok ? [] : r.issues).toEqual([]);
      });
    }
    for (const f of set.semantic ?? []) {
      it(`${set.contract}/${f.name} -> only ${f.expect.code} at ${f.expect.path}`, () => {
        const r = validate(f.document);
        expect(r.ok).toBe(false);
        if (r.ok) return;
        expect(r.issues.map((i) => `${i.code} ${i.path}`)).toEqual([`${f.expect.code} ${f.expect.path}`]);
        expect(r.issues[0]!.message.length).toBeGreaterThan(20);
      });
    }
  }

  it('every rule code has a fixture that produces it', () => {
    const produced = new Set(
      TURN_LIVENESS_FIXTURES.flatMap((s) => (s.semantic ?? []).map((f) => `${s.contract}:${f.expect.code}`)),
    );
    for (const rule of TURN_LIVENESS_RULES)
      expect(produced, rule.code).toContain(`${rule.contract}:${rule.code}`);
    const bundled = new Set(
      TURN_LIVENESS_BUNDLES.flatMap((b) => b.invalid.map((f) => `${b.kind}:${f.expect.code}`)),
    );
    for (const rule of TURN_LIVENESS_BUNDLE_RULES)
      expect(bundled, rule.code).toContain(`${rule.bundle}:${rule.code}`);
  });

  it('each rule names its spec section and a description', () => {
    for (const rule of [...TURN_LIVENESS_RULES, ...TURN_LIVENESS_BUNDLE_RULES]) {
      expect(rule.specSection).toMatch(/^docs\/spec\/turn-liveness-recovery-gate\.md#[a-z0-9-]+$/);
      expect(rule.description.length).toBeGreaterThan(20);
    }
  });
});

describe('turn-liveness bundle rules', () => {
  for (const b of TURN_LIVENESS_BUNDLES) {
    for (const [name, documents] of Object.entries(b.valid)) {
      it(`${b.kind}/valid/${name}`, () => {
        const r = validateBundle({ kind: b.kind, documents });
        expect(r.ok ? [] : r.issues).toEqual([]);
      });
    }
    for (const f of b.invalid) {
      it(`${b.kind}/${f.name} -> ${f.expect.code} at ${f.expect.path}`, () => {
        const r = validateBundle({ kind: b.kind, documents: f.documents });
        expect(r.ok).toBe(false);
        if (r.ok) return;
        expect(new Set(r.issues.map((i) => i.code))).toEqual(new Set([f.expect.code]));
        expect(r.issues.map((i) => i.path)).toContain(f.expect.path);
      });
    }
  }
});
