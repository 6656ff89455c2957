// Data provenance of one run (PermissionPolicyGate, "How a policy engine decides"): every
// untrusted observation taints the run from then on. Pure: a new value per observation.
import type { PolicyDataProvenance, PolicyTaintSource } from '@agent-contracts/schemas';

/** The most taint sources a run records (the schema's `maxItems`); the run stays tainted beyond them. */
export const MAX_TAINT_SOURCES = 64;

/** The provenance of a run that has read nothing untrusted. */
export const CLEAN_PROVENANCE: PolicyDataProvenance = { tainted: false, taintSources: [] };

/**
 * The provenance after one more untrusted observation: tainted, with the source recorded unless
 * its observation id is already recorded or the record is full.
 *
 * @example
 * const p = observeUntrusted(CLEAN_PROVENANCE, { observationId: 'obs-1', kind: 'web-page', origin: 'https://a.example' });
 * p.tainted; // true
 */
export function observeUntrusted(
  provenance: PolicyDataProvenance,
  source: PolicyTaintSource,
): PolicyDataProvenance {
  const known = provenance.taintSources.some((s) => s.observationId === source.observationId);
  const full = provenance.taintSources.length >= MAX_TAINT_SOURCES;
  const taintSources =
    known || full
      ? provenance.taintSources
      : [
          ...provenance.taintSources,
          { observationId: source.observationId, kind: source.kind, origin: source.origin },
        ];
  return { tainted: true, taintSources };
}
