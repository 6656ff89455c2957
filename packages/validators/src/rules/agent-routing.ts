// Semantic and bundle rules of AgentRouteDecisionV1 (docs/spec/agent-routing-gate.md). Identity
// and digest (invariants 1 and 2) are DigestRules with their own codes in @agent-contracts/schemas;
// invariants 3-12 are below, one rule per code; the bundle rule checks the seed reference.
import { digestOf } from '@agent-contracts/digest';
import {
  type AgentRouteDecisionV1,
  type DegradationStep,
  ROUTE_MODE_ORDER,
  type RouteTarget,
} from '@agent-contracts/schemas';
import type { Issue } from '../issues.js';
import { bundleRule, contractRules } from './kit.js';
import type { BundleRule, ContractDocument, SemanticRule } from './types.js';

const CONTRACT = 'AgentRouteDecisionV1';
const PAGE = 'docs/spec/agent-routing-gate.md';
const INVARIANTS = `${PAGE}#invariants`;
const { issue, rule } = contractRules<AgentRouteDecisionV1>(CONTRACT, INVARIANTS);
const BUNDLE = `${PAGE}#bundle-intent-route`;

/** Below this seed confidence the intent is low confidence (as IntentSeedV1 defines it). */
export const ROUTE_LOW_CONFIDENCE = 0.6;

const rank = (t: RouteTarget) => ROUTE_MODE_ORDER.indexOf(t.mode);
const sameTarget = (a: RouteTarget, b: RouteTarget) =>
  a.kind === b.kind && a.name === b.name && a.mode === b.mode;
const show = (t: RouteTarget) => `${t.kind} ${t.name} (${t.mode})`;

/**
 * The route each step degrades from: the chosen route for the first step, else the target of the
 * latest earlier step that degrades to a route (the route in force when the step's condition arises).
 *
 * @example
 * degradesFrom(decision)[0] === decision.route; // true
 */
export function degradesFrom(d: Pick<AgentRouteDecisionV1, 'route' | 'degradation'>): RouteTarget[] {
  const out: RouteTarget[] = [];
  let current = d.route;
  for (const step of d.degradation) {
    out.push(current);
    if (step.to.kind === 'route') current = step.to.route;
  }
  return out;
}

/** Whether the chosen mode needs a confirmation (invariant 6), and whether only a user's will do. */
export function confirmationNeed(d: Pick<AgentRouteDecisionV1, 'route' | 'input'>): 'none' | 'any' | 'user' {
  if (d.route.mode !== 'auto') return 'none';
  const seed = d.input.intentSeed;
  if (seed.riskHint === 'critical') return 'user';
  return seed.riskHint === 'high' || seed.confidence < ROUTE_LOW_CONFIDENCE ? 'any' : 'none';
}

const isEnd = (s: DegradationStep) => s.to.kind !== 'route';

/** Semantic rules of this area's contracts (one per code), in spec order. */
export const AGENT_ROUTING_RULES: readonly SemanticRule[] = [
  rule(
    'ROUTE_INTENT_FROM_KEYWORDS',
    'The canonical intent is taken from the IntentSeedV1, never from keyword signals (invariant 3).',
    (d) =>
      d.intent.source === 'intent-seed'
        ? []
        : [
            issue(
              'ROUTE_INTENT_FROM_KEYWORDS',
              '/intent/source',
              'the canonical intent was taken from a keyword signal; keywords are signals, not the intent. Route on the IntentSeedV1 semantic (intent.source "intent-seed").',
            ),
          ],
  ),
  rule(
    'ROUTE_INTENT_SEED_MISMATCH',
    "intent.canonical equals the seed's semantic, input.intentSeed.semantic (invariant 4).",
    (d) =>
      d.intent.canonical === d.input.intentSeed.semantic
        ? []
        : [
            issue(
              'ROUTE_INTENT_SEED_MISMATCH',
              '/intent/canonical',
              `intent.canonical "${d.intent.canonical}" differs from the seed's semantic "${d.input.intentSeed.semantic}"; route the seed's intent, or form a new seed for a new intent.`,
            ),
          ],
  ),
  rule(
    'ROUTE_REASON_UNSUPPORTED',
    'Reason explicit-command needs an explicit-command signal; reason continuation needs the seed continuationHint (invariant 5).',
    (d) => {
      if (d.reason.code === 'explicit-command' && !d.input.signals.some((s) => s.kind === 'explicit-command'))
        return [
          issue(
            'ROUTE_REASON_UNSUPPORTED',
            '/reason/code',
            'reason "explicit-command" but the input has no explicit-command signal; record the command as a signal, or give the reason that applies.',
          ),
        ];
      if (d.reason.code === 'continuation' && !d.input.intentSeed.continuationHint)
        return [
          issue(
            'ROUTE_REASON_UNSUPPORTED',
            '/reason/code',
            'reason "continuation" but the seed has continuationHint false; a continuation is observed, never inferred. Give the reason that applies.',
          ),
        ];
      return [];
    },
  ),
  rule(
    'ROUTE_MODE_CONFIRMATION_MISSING',
    'Mode auto with a high or critical risk seed or a low-confidence seed has a confirmation; with a critical seed, the user’s (invariant 6).',
    (d) => {
      const need = confirmationNeed(d);
      if (need === 'none') return [];
      if (d.confirmation === null)
        return [
          issue(
            'ROUTE_MODE_CONFIRMATION_MISSING',
            '/confirmation',
            `mode "auto" for a ${d.input.intentSeed.riskHint}-risk seed with confidence ${d.input.intentSeed.confidence} needs a confirmation; ask ${need === 'user' ? 'the user' : 'the user or a host policy'}, or choose the interactive mode.`,
          ),
        ];
      if (need === 'user' && d.confirmation.by !== 'user')
        return [
          issue(
            'ROUTE_MODE_CONFIRMATION_MISSING',
            '/confirmation/by',
            'mode "auto" for a critical-risk seed needs the user’s confirmation; a host policy cannot waive it. Ask the user, or choose the interactive mode.',
          ),
        ];
      return [];
    },
  ),
  rule(
    'ROUTE_DEGRADATION_CONDITION_MISSING',
    'Every degradation step names the condition code under which it applies (invariant 7).',
    (d) =>
      d.degradation.flatMap((s, i) =>
        s.when === null
          ? [
              issue(
                'ROUTE_DEGRADATION_CONDITION_MISSING',
                `/degradation/${i}/when`,
                `degradation step ${i} has no condition; name the condition code under which it applies.`,
              ),
            ]
          : [],
      ),
  ),
  rule(
    'ROUTE_DEGRADATION_AFTER_TERMINAL',
    'ask-user and refuse end the path: no step follows them (invariant 8).',
    (d) => {
      const end = d.degradation.findIndex(isEnd);
      if (end < 0) return [];
      return d.degradation
        .slice(end + 1)
        .map((_, k) =>
          issue(
            'ROUTE_DEGRADATION_AFTER_TERMINAL',
            `/degradation/${end + 1 + k}`,
            `degradation step ${end + 1 + k} follows step ${end} ("${d.degradation[end]!.to.kind}"), which ends the path; remove it or move it before.`,
          ),
        );
    },
  ),
  rule(
    'ROUTE_DEGRADATION_RETURNS_TO_CHOSEN',
    'No degradation step degrades to the chosen route itself (same kind, name and mode) (invariant 9).',
    (d) =>
      d.degradation.flatMap((s, i) =>
        s.to.kind === 'route' && sameTarget(s.to.route, d.route)
          ? [
              issue(
                'ROUTE_DEGRADATION_RETURNS_TO_CHOSEN',
                `/degradation/${i}/to`,
                `degradation step ${i} goes back to the chosen route ${show(d.route)}; degrade to another route, a lower mode, ask-user or refuse.`,
              ),
            ]
          : [],
      ),
  ),
  rule(
    'ROUTE_DEGRADATION_CYCLE',
    'No degradation step degrades to a route an earlier step already degraded to (invariant 10).',
    (d) =>
      d.degradation.flatMap((s, i) => {
        if (s.to.kind !== 'route') return [];
        const target = s.to.route;
        const j = d.degradation.findIndex(
          (e, k) => k < i && e.to.kind === 'route' && sameTarget(e.to.route, target),
        );
        return j < 0
          ? []
          : [
              issue(
                'ROUTE_DEGRADATION_CYCLE',
                `/degradation/${i}/to`,
                `degradation step ${i} degrades to ${show(target)} again (step ${j} already did): the path would cycle. Remove the step or degrade further.`,
              ),
            ];
      }),
  ),
  rule(
    'ROUTE_DEGRADATION_ESCALATES',
    'A degradation step never moves to a mode of higher authority than the route it degrades from (invariant 11).',
    (d) => {
      const from = degradesFrom(d);
      return d.degradation.flatMap((s, i) =>
        s.to.kind === 'route' && rank(s.to.route) > rank(from[i]!)
          ? [
              issue(
                'ROUTE_DEGRADATION_ESCALATES',
                `/degradation/${i}/to/route/mode`,
                `degradation step ${i} moves from mode "${from[i]!.mode}" to "${s.to.route.mode}", which has more authority; a degradation keeps or lowers the mode.`,
              ),
            ]
          : [],
      );
    },
  ),
  rule(
    'ROUTE_DEGRADATION_UNANNOUNCED',
    'A degradation step is announced to the user unless it keeps the same skill or workflow and only lowers its mode (invariant 12).',
    (d) => {
      const from = degradesFrom(d);
      return d.degradation.flatMap((s, i) => {
        if (s.announced) return [];
        const f = from[i]!;
        const modeOnly =
          s.to.kind === 'route' &&
          s.to.route.kind === f.kind &&
          s.to.route.name === f.name &&
          rank(s.to.route) < rank(f);
        return modeOnly
          ? []
          : [
              issue(
                'ROUTE_DEGRADATION_UNANNOUNCED',
                `/degradation/${i}/announced`,
                `degradation step ${i} (to ${s.to.kind === 'route' ? show(s.to.route) : s.to.kind}) changes what the user gets without telling them; announce it.`,
              ),
            ];
      });
    },
  ),
];

/** The seed fields a decision copies into `input.intentSeed`, checked against the seed in a bundle. */
const COPIED = ['contextEpoch', 'semantic', 'riskHint', 'confidence', 'continuationHint'] as const;

/** Cross-document rules of this area: the decision's seed reference resolves to the seed. */
export const AGENT_ROUTING_BUNDLE_RULES: readonly BundleRule[] = [
  bundleRule(
    'ROUTE_SEED_REF_MISMATCH',
    'intent-route',
    BUNDLE,
    "Documents [AgentRouteDecisionV1, IntentSeedV1]: the decision's seedDigest is digestOf(the seed) and its copied seed fields equal the seed's.",
    (docs: readonly ContractDocument[]) => {
      const [decision, seed] = docs;
      if (
        docs.length !== 2 ||
        seed?.schemaVersion !== 'IntentSeedV1' ||
        decision?.schemaVersion !== 'AgentRouteDecisionV1'
      )
        return [
          issue(
            'ROUTE_SEED_REF_MISMATCH',
            '/documents',
            'an intent-route bundle is exactly [AgentRouteDecisionV1, IntentSeedV1].',
            BUNDLE,
          ),
        ];
      const ref = (decision as unknown as AgentRouteDecisionV1).input.intentSeed;
      const out: Issue[] = [];
      if (ref.seedDigest !== digestOf(seed))
        out.push(
          issue(
            'ROUTE_SEED_REF_MISMATCH',
            '/documents/0/input/intentSeed/seedDigest',
            'seedDigest is not digestOf(the seed of the bundle); the decision routes another seed, or the seed changed after routing. Route the seed again.',
            BUNDLE,
          ),
        );
      for (const field of COPIED)
        if (ref[field] !== seed[field])
          out.push(
            issue(
              'ROUTE_SEED_REF_MISMATCH',
              `/documents/0/input/intentSeed/${field}`,
              `input.intentSeed.${field} differs from the seed's ${field}; copy it from the seed the decision routes.`,
              BUNDLE,
            ),
          );
      return out;
    },
  ),
];
