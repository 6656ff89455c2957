// Semantic rules of CapabilitySurfaceEvidenceV1 (invariants C2-C6 of its section of
// docs/spec/ai-agent-system-architecture-gate.md); C1 is a DigestRule in @agent-contracts/schemas.
import {
  CAPABILITY_ASPECTS,
  type CapabilityAspectBase,
  type CapabilityAspectName,
  type CapabilitySurfaceEvidenceV1,
} from '@agent-contracts/schemas';
import { contractRules } from '../kit.js';
import type { SemanticRule } from '../types.js';
import { describeKinds, hasDirect, issue, SURFACE, SURFACE_INVARIANTS } from './shared.js';

type Aspect = CapabilityAspectBase & { readonly value: unknown; readonly limitMs?: number | null };
const aspects = (d: CapabilitySurfaceEvidenceV1) =>
  CAPABILITY_ASPECTS.map((name) => [name, d[name] as Aspect] as const);

const { rule: surfaceRule } = contractRules<CapabilitySurfaceEvidenceV1>(SURFACE, SURFACE_INVARIANTS);
const perAspect = (
  code: string,
  member: 'status' | 'basis' | 'value',
  description: string,
  broken: (a: Aspect) => boolean,
  message: (name: CapabilityAspectName, a: Aspect, d: CapabilitySurfaceEvidenceV1) => string,
) =>
  surfaceRule(code, description, (d) =>
    aspects(d)
      .filter(([, a]) => broken(a))
      .map(([name, a]) => issue(code, `/${name}/${member}`, message(name, a, d), SURFACE_INVARIANTS)),
  );

/** Semantic rules of CapabilitySurfaceEvidenceV1 (one per code), in spec order. */
export const SURFACE_RULES: readonly SemanticRule[] = [
  perAspect(
    'CAPABILITY_SURFACE_NOT_DIRECT',
    'status',
    'An aspect marked verified has at least one direct evidence entry (hook, runtime, replay, tests); report and memory entries never verify it (C2).',
    (a) => a.status === 'verified' && !hasDirect(a.evidence),
    (name, a, d) =>
      `${name} of "${d.surface}" is verified on ${describeKinds(a.evidence)} only; mark it unverified, or capture hook, runtime, replay or tests evidence of it.`,
  ),
  perAspect(
    'CAPABILITY_SURFACE_INFERRED',
    'basis',
    'An aspect marked verified has basis direct-observation; a value taken from a declaration, a name or a similar capability stays unverified (C3).',
    (a) => a.status === 'verified' && a.basis !== 'direct-observation',
    (name, a, d) =>
      `${name} of "${d.surface}" is verified on basis "${a.basis}"; a ${a.basis === 'name' ? 'name' : a.basis === 'similar-capability' ? 'similar capability' : a.basis} is no evidence of behaviour: mark it unverified, or observe it directly.`,
  ),
  perAspect(
    'CAPABILITY_SURFACE_BASIS_INCONSISTENT',
    'basis',
    'basis is none exactly when the value is null: a stated value names where it comes from, an unknown one claims no basis (C4).',
    (a) => (a.basis === 'none') !== (a.value === null),
    (name, a, d) =>
      a.value === null
        ? `${name} of "${d.surface}" has basis "${a.basis}" but no value; state the value it gives, or set basis none.`
        : `${name} of "${d.surface}" states a value with basis none; name where the value comes from (direct-observation, declaration, name, similar-capability).`,
  ),
  surfaceRule(
    'CAPABILITY_SURFACE_TIMEOUT_INCONSISTENT',
    'timeout.limitMs is non-null exactly when timeout.value is bounded (C5).',
    (d) =>
      (d.timeout.limitMs !== null) === (d.timeout.value === 'bounded')
        ? []
        : [
            issue(
              'CAPABILITY_SURFACE_TIMEOUT_INCONSISTENT',
              '/timeout/limitMs',
              d.timeout.value === 'bounded'
                ? `timeout of "${d.surface}" is bounded without limitMs; give the limit in milliseconds.`
                : `timeout of "${d.surface}" is ${d.timeout.value ?? 'unknown'} but carries limitMs ${d.timeout.limitMs}; drop it (null), or set value bounded.`,
              SURFACE_INVARIANTS,
            ),
          ],
  ),
  surfaceRule(
    'CAPABILITY_SURFACE_STATUS_INCONSISTENT',
    'evidenceStatus is verified exactly when every one of the ten aspects is verified (C6).',
    (d) => {
      const unverified = aspects(d)
        .filter(([, a]) => a.status === 'unverified')
        .map(([n]) => n);
      const derived = unverified.length === 0 ? 'verified' : 'unverified';
      if (d.evidenceStatus === derived) return [];
      return [
        issue(
          'CAPABILITY_SURFACE_STATUS_INCONSISTENT',
          '/evidenceStatus',
          unverified.length
            ? `"${d.surface}" is ${d.evidenceStatus} but ${unverified.length} aspect(s) are unverified (${unverified.join(', ')}); set evidenceStatus unverified.`
            : `"${d.surface}" is unverified although every aspect is verified; set evidenceStatus verified.`,
          SURFACE_INVARIANTS,
        ),
      ];
    },
  ),
];
