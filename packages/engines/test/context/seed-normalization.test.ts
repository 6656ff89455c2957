// @module-tag unit
// Producing an IntentSeedV1 (docs/spec/context-acquisition-gate.md, "Producing a seed", CAG-002,
// CAG-003): the accepted keys, the intent and its alias, the defaults, the normalized target hint,
// the derived context epoch, and the code and path of each refusal.
import { digestOf } from '@agent-contracts/digest';
import { describe, expect, it } from 'vitest';
import { formIntentSeed, ManualClock } from '../../src/index.ts';

const NOW = '2026-12-02T05:00:00.000Z';
const form = (input: unknown) => formIntentSeed(input, new ManualClock(Date.parse(NOW)));
const seed = (input: object) => {
  const r = form({ semantic: 'fix', ...input });
  if (!r.ok) throw new Error(`${r.code} at ${r.path}: ${r.message}`);
  return r.seed;
};
const refused = (input: unknown) => {
  const r = form(input);
  return r.ok ? 'formed' : [r.code, r.path];
};

describe('the seed input record', () => {
  it.each([
    ['null', null],
    ['a string', 'fix'],
    ['a number', 3],
    ['an array', ['fix']],
  ])('%s is not an input record: CONTEXT_INTENT_REQUIRED', (_name, input) => {
    expect(refused(input)).toEqual(['CONTEXT_INTENT_REQUIRED', '']);
  });
  it('a key outside the accepted nine is CONTEXT_PLAN_INVALID at that key', () => {
    expect(refused({ semantic: 'fix', planId: 'plan-x' })).toEqual(['CONTEXT_PLAN_INVALID', '/planId']);
  });
  it('schemaVersion, when given, is IntentSeedV1', () => {
    expect(seed({ schemaVersion: 'IntentSeedV1' }).schemaVersion).toBe('IntentSeedV1');
    expect(refused({ semantic: 'fix', schemaVersion: 'IntentSeedV2' })).toEqual([
      'CONTEXT_PLAN_INVALID',
      '/schemaVersion',
    ]);
  });
});

describe('the intent (CAG-003)', () => {
  it('intent is an alias of semantic: equal values are one intent, different ones are refused', () => {
    expect(seed({ semantic: 'audit', intent: 'audit' }).semantic).toBe('audit');
    expect(seed({ semantic: undefined, intent: 'resume' })).not.toHaveProperty('intent');
    expect(refused({ semantic: 'fix', intent: 'dev' })).toEqual(['CONTEXT_INTENT_INVALID', '/intent']);
  });
  it.each([
    [{}, '/semantic'],
    [{ semantic: null }, '/semantic'],
    [{ semantic: '' }, '/semantic'],
    [{ intent: '' }, '/semantic'],
    [{ intent: null }, '/semantic'],
  ])('%j has no intent: CONTEXT_INTENT_REQUIRED', (input, path) => {
    expect(refused(input)).toEqual(['CONTEXT_INTENT_REQUIRED', path]);
  });
  it.each([
    [{ semantic: 'refactor' }, '/semantic'],
    [{ semantic: 7 }, '/semantic'],
    [{ intent: 'Fix' }, '/intent'],
  ])('%j is outside the enumeration: CONTEXT_INTENT_INVALID at the key given', (input, path) => {
    expect(refused(input)).toEqual(['CONTEXT_INTENT_INVALID', path]);
  });
  it.each([
    [{ semantic: 'fix', intent: null }, 'fix'],
    [{ semantic: 'fix', intent: '' }, 'fix'],
    [{ semantic: null, intent: 'audit' }, 'audit'],
    [{ semantic: '', intent: 'audit' }, 'audit'],
  ])('%j: a null or empty key is no intent given, so nothing differs (D-CTX-55)', (input, semantic) => {
    const r = form(input);
    expect(r.ok && r.seed.semantic).toBe(semantic);
  });
  it.each([
    [{ semantic: null, intent: 'Fix' }, '/intent'],
    [{ semantic: '', intent: 7 }, '/intent'],
    [{ semantic: 'Fix', intent: null }, '/semantic'],
  ])('%j: an invalid intent beside one not given is refused at the key given', (input, path) => {
    expect(refused(input)).toEqual(['CONTEXT_INTENT_INVALID', path]);
  });
  it('schemaVersion is checked before the intent (D-CTX-55)', () => {
    expect(refused({ semantic: 'refactor', schemaVersion: 'IntentSeedV2' })).toEqual([
      'CONTEXT_PLAN_INVALID',
      '/schemaVersion',
    ]);
    expect(refused({ schemaVersion: 'IntentSeedV2' })).toEqual(['CONTEXT_PLAN_INVALID', '/schemaVersion']);
  });
});

describe('defaults and values', () => {
  it('defaults: riskHint normal, confidence 1, continuationHint false, targetHint null, createdAt now', () => {
    const s = seed({});
    expect([s.riskHint, s.confidence, s.continuationHint, s.targetHint, s.createdAt]).toEqual([
      'normal',
      1,
      false,
      null,
      NOW,
    ]);
  });
  it('a key given as null takes its default (D-CTX-55)', () => {
    const s = seed({ riskHint: null, confidence: null, continuationHint: null, createdAt: null });
    expect([s.riskHint, s.confidence, s.continuationHint, s.createdAt]).toEqual(['normal', 1, false, NOW]);
    expect(seed({ contextEpoch: null }).contextEpoch).toMatch(/^ctx-[0-9a-f]{20}$/);
  });
  it('a boolean is not a confidence (D-CTX-55)', () => {
    for (const confidence of [true, false])
      expect(refused({ semantic: 'fix', confidence }), String(confidence)).toEqual([
        'CONTEXT_PLAN_INVALID',
        '/confidence',
      ]);
  });
  it('only the boolean true sets continuationHint', () => {
    expect(seed({ continuationHint: true }).continuationHint).toBe(true);
    expect(seed({ continuationHint: 'yes' }).continuationHint).toBe(false);
  });
  it('riskHint is one of normal, high, critical', () => {
    expect(seed({ riskHint: 'critical' }).riskHint).toBe('critical');
    for (const riskHint of ['extreme', 2, ['high']])
      expect(refused({ semantic: 'fix', riskHint }), String(riskHint)).toEqual([
        'CONTEXT_PLAN_INVALID',
        '/riskHint',
      ]);
  });
  it('confidence is a number from 0 to 1, both ends included', () => {
    for (const confidence of [0, 0.5, 1]) expect(seed({ confidence }).confidence).toBe(confidence);
    for (const confidence of [-0.1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '0.5'])
      expect(refused({ semantic: 'fix', confidence }), String(confidence)).toEqual([
        'CONTEXT_PLAN_INVALID',
        '/confidence',
      ]);
  });
  it('targetHint is trimmed, null when empty or absent, at most 256 characters', () => {
    expect(seed({ targetHint: '  acme ' }).targetHint).toBe('acme');
    expect(seed({ targetHint: ' \t ' }).targetHint).toBeNull();
    expect(seed({ targetHint: '' }).targetHint).toBeNull();
    expect(seed({ targetHint: null }).targetHint).toBeNull();
    expect(seed({ targetHint: ` ${'t'.repeat(256)} ` }).targetHint).toHaveLength(256);
    expect(refused({ semantic: 'fix', targetHint: 't'.repeat(257) })).toEqual([
      'CONTEXT_PLAN_INVALID',
      '/targetHint',
    ]);
    expect(refused({ semantic: 'fix', targetHint: 7 })).toEqual(['CONTEXT_PLAN_INVALID', '/targetHint']);
  });
  it('createdAt is an RFC 3339 UTC timestamp string', () => {
    expect(seed({ createdAt: '2026-12-01T10:00:00.123456Z' }).createdAt).toBe('2026-12-01T10:00:00.123456Z');
    for (const createdAt of [
      '2026-12-01',
      '2026-12-01T10:00:00+01:00',
      'yesterday',
      '2026-13-45T10:00:00Z',
      0,
      [NOW],
    ])
      expect(refused({ semantic: 'fix', createdAt }), String(createdAt)).toEqual([
        'CONTEXT_PLAN_INVALID',
        '/createdAt',
      ]);
  });
  it('contextEpoch is the host’s, 1-256 characters without whitespace', () => {
    expect(seed({ contextEpoch: 'epoch-7' }).contextEpoch).toBe('epoch-7');
    expect(seed({ contextEpoch: 'e'.repeat(256) }).contextEpoch).toHaveLength(256);
    for (const contextEpoch of ['', 'ctx one', 'e'.repeat(257), 7, ['ctx-one']])
      expect(refused({ semantic: 'fix', contextEpoch }), String(contextEpoch)).toEqual([
        'CONTEXT_PLAN_INVALID',
        '/contextEpoch',
      ]);
  });
  it('without a host epoch it is ctx- and the first 20 hex of digestOf({semantic, targetHint, createdAt})', () => {
    const s = seed({ semantic: 'dev', targetHint: ' acme ' });
    expect(s.contextEpoch).toBe(
      `ctx-${digestOf({ semantic: 'dev', targetHint: 'acme', createdAt: NOW }).slice(0, 20)}`,
    );
    expect(s.contextEpoch).toMatch(/^ctx-[0-9a-f]{20}$/);
    expect(seed({ semantic: 'fix', targetHint: 'acme' }).contextEpoch).not.toBe(s.contextEpoch);
  });
  it('the seed holds exactly its eight fields', () => {
    expect(
      seed({
        intent: 'fix',
        semantic: undefined,
        contextEpoch: 'ctx-one',
        riskHint: 'high',
        confidence: 0.7,
      }),
    ).toEqual({
      schemaVersion: 'IntentSeedV1',
      contextEpoch: 'ctx-one',
      semantic: 'fix',
      targetHint: null,
      continuationHint: false,
      riskHint: 'high',
      confidence: 0.7,
      createdAt: NOW,
    });
  });
});
