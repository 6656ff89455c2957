// @module-tag unit
// The AgentRoutingGate rules: each semantic fixture breaks exactly its rule, the valid fixtures
// break none, and the edges the page settles (the route a step degrades from, which modes need a
// confirmation, a mode-only downgrade may be silent, the seed bundle's copies).
import { digestOf } from '@agent-contracts/digest';
import type { AgentRouteDecisionV1, IntentSeedV1 } from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import { confirmationNeed, degradesFrom, validateBundle } from '../../src/index.ts';
import { describeSemanticFixtures, issuesOf, listFixtures, restamp } from '../helpers.ts';

const CONTRACT = 'AgentRouteDecisionV1';
const fixtures = listFixtures().filter((f) => f.contract === CONTRACT);
const valid = fixtures.filter((f) => f.kind === 'valid');

const base = () =>
  structuredClone(
    valid.find((f) => f.name === 'fix-auto-mode-user-confirmed')!.document,
  ) as AgentRouteDecisionV1;
const issues = (doc: AgentRouteDecisionV1) => issuesOf(restamp(CONTRACT, doc));

describeSemanticFixtures(CONTRACT, 12);

describe('rule details', () => {
  it('each step degrades from the route in force: the chosen route, then the latest route step', () => {
    const d = base();
    expect(degradesFrom(d).map((r) => r.mode)).toEqual(['auto', 'interactive', 'plan-only']);
  });

  it('a step after an ask-user still degrades from the last route step (and is refused as after-terminal)', () => {
    const d = base();
    d.degradation = [
      { when: 'timeout', to: { kind: 'ask-user' }, announced: true },
      {
        when: 'tool-unavailable',
        to: { kind: 'route', route: { kind: 'skill', name: 'bug-fix', mode: 'plan-only' } },
        announced: true,
      },
    ];
    expect(degradesFrom(d).map((r) => r.mode)).toEqual(['auto', 'auto']);
    expect(issues(d)).toEqual(['ROUTE_DEGRADATION_AFTER_TERMINAL /degradation/1']);
  });

  it('auto needs a confirmation for high or critical risk and for confidence below 0.6; other modes never', () => {
    const d = base();
    const need = (
      mode: AgentRouteDecisionV1['route']['mode'],
      riskHint: IntentSeedV1['riskHint'],
      confidence: number,
    ) =>
      confirmationNeed({
        route: { ...d.route, mode },
        input: { ...d.input, intentSeed: { ...d.input.intentSeed, riskHint, confidence } },
      });
    expect(need('auto', 'normal', 0.6)).toBe('none');
    expect(need('auto', 'normal', 0.59)).toBe('any');
    expect(need('auto', 'high', 0.99)).toBe('any');
    expect(need('auto', 'critical', 0.99)).toBe('user');
    expect(need('interactive', 'critical', 0.1)).toBe('none');
  });

  it('a critical seed in auto mode is not confirmed by a host policy', () => {
    const d = base();
    d.input.intentSeed.riskHint = 'critical';
    d.confirmation = { by: 'host-policy', ref: 'policy:auto-fix' };
    expect(issues(d)).toEqual(['ROUTE_MODE_CONFIRMATION_MISSING /confirmation/by']);
    d.confirmation = { by: 'user', ref: 'trace:evt-1' };
    expect(issues(d)).toEqual([]);
  });

  it('a low-confidence normal-risk seed in auto mode needs a confirmation, and a host policy gives it', () => {
    const d = base();
    d.input.intentSeed.riskHint = 'normal';
    d.input.intentSeed.confidence = 0.4;
    d.confirmation = null;
    expect(issues(d)).toEqual(['ROUTE_MODE_CONFIRMATION_MISSING /confirmation']);
    d.confirmation = { by: 'host-policy', ref: 'policy:auto-when-unsure' };
    expect(issues(d)).toEqual([]);
  });

  it('a silent step is allowed only for a mode-only downgrade of the same skill', () => {
    const d = base();
    d.degradation = [
      {
        when: 'permission-denied',
        to: { kind: 'route', route: { kind: 'workflow', name: 'bug-fix', mode: 'interactive' } },
        announced: false,
      },
    ];
    expect(issues(d)).toEqual(['ROUTE_DEGRADATION_UNANNOUNCED /degradation/0/announced']);
    d.degradation = [{ when: 'timeout', to: { kind: 'refuse' }, announced: false }];
    expect(issues(d)).toEqual(['ROUTE_DEGRADATION_UNANNOUNCED /degradation/0/announced']);
  });

  it('continuation as reason needs the seed continuationHint', () => {
    const d = base();
    d.reason = { code: 'continuation', note: 'continues the task' };
    expect(issues(d)).toEqual(['ROUTE_REASON_UNSUPPORTED /reason/code']);
  });

  it('a step back to the chosen route that also repeats an earlier one is reported by both rules', () => {
    const d = base();
    const back = { kind: 'route' as const, route: { ...d.route } };
    d.degradation = [
      { when: 'timeout', to: back, announced: true },
      { when: 'tool-unavailable', to: structuredClone(back), announced: true },
    ];
    expect(issues(d).sort()).toEqual([
      'ROUTE_DEGRADATION_CYCLE /degradation/1/to',
      'ROUTE_DEGRADATION_RETURNS_TO_CHOSEN /degradation/0/to',
      'ROUTE_DEGRADATION_RETURNS_TO_CHOSEN /degradation/1/to',
    ]);
  });
});

describe('the intent-route bundle', () => {
  const seed: IntentSeedV1 = {
    schemaVersion: 'IntentSeedV1',
    contextEpoch: 'ctx-5e21c07a9d3b48f1a602',
    semantic: 'fix',
    targetHint: 'ledger-service',
    continuationHint: false,
    riskHint: 'high',
    confidence: 0.88,
    createdAt: '2026-11-30T14:02:11.204Z',
  };

  it('accepts the decision with the seed it routes', () => {
    expect(base().input.intentSeed.seedDigest).toBe(digestOf(seed));
    expect(validateBundle({ kind: 'intent-route', documents: [base(), seed] })).toMatchObject({ ok: true });
  });

  it('refuses a copied confidence that differs from the seed, at the copied field', () => {
    const d = base();
    d.input.intentSeed.confidence = 0.9;
    const r = validateBundle({ kind: 'intent-route', documents: [restamp(CONTRACT, d), seed] });
    expect(r.ok ? [] : r.issues.map((i) => `${i.code} ${i.path}`)).toEqual([
      'ROUTE_SEED_REF_MISMATCH /documents/0/input/intentSeed/confidence',
    ]);
  });

  it('refuses the documents in the other order', () => {
    const r = validateBundle({ kind: 'intent-route', documents: [seed, base()] });
    expect(r.ok ? [] : r.issues.map((i) => `${i.code} ${i.path}`)).toEqual([
      'ROUTE_SEED_REF_MISMATCH /documents',
    ]);
  });
});
