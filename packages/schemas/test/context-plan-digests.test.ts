// @module-tag unit
// contextPlanBaselineDigest writes the JCS text it hashes straight from the plan instead of
// building the input object: it must give digestOf of the object its `covers` describes, and
// throw what that throws, on every plan fixture and on plans whose ids, refs and buckets are out
// of order, odd or missing.
import { digestOf } from '@agent-contracts/digest';
import { describe, expect, it } from 'vitest';
import { contextPlanBaselineDigest } from '../src/index.ts';
import { listFixtures } from './helpers.ts';

// biome-ignore lint/suspicious/noExplicitAny: variants of unchecked plans
type Loose = Record<string, any>;

const byId = (a: { sourceId: string }, b: { sourceId: string }) =>
  a.sourceId < b.sourceId ? -1 : a.sourceId > b.sourceId ? 1 : 0;
const digests = (s: Loose) => (s.sourceRefs as Loose[]).map((r) => r.metadataDigest);

/** The baseline input object as the rule's `covers` states it, hashed by digestOf. */
function objectForm(plan: unknown): string {
  const p = plan as Loose;
  const candidates = [
    ...(p.selectedSources as Loose[]).filter((s) => s.kind !== 'memory'),
    ...(p.excludedSources as Loose[]),
    ...(p.unclassifiedSources as Loose[]),
  ]
    .map((s) => ({ sourceId: s.sourceId, requiredToExist: s.requiredToExist, metadataDigests: digests(s) }))
    .sort(byId);
  const baseline = (p.baselineSources as Loose[])
    .map((s) => ({ sourceId: s.sourceId, contentIdentity: s.contentIdentity, metadataDigests: digests(s) }))
    .sort(byId);
  return digestOf({
    activeRoot: p.identity.activeRoot,
    project: p.identity.project,
    baseline,
    cataloguedIds: [...p.candidateCoverage.cataloguedIds].sort(),
    inventoryIds: [...p.candidateCoverage.inventoryIds].sort(),
    candidates,
  });
}

const outcome = (f: () => string) => {
  try {
    return { digest: f() };
  } catch (err) {
    return { error: String(err), path: (err as { path?: unknown }).path };
  }
};

const ODD = 'caf\u00e9 "quoted" \\ \u2028 \ud83d\ude00';

/** Plans with one thing changed each. */
function variants(doc: Loose): Loose[] {
  const out: Loose[] = [];
  const edit = (f: (p: Loose) => void) => {
    const copy = structuredClone(doc);
    f(copy);
    out.push(copy);
  };
  const everySource = (p: Loose, f: (s: Loose, bucket: string) => void) => {
    for (const bucket of ['baselineSources', 'selectedSources', 'excludedSources', 'unclassifiedSources'])
      for (const s of p[bucket] as Loose[]) f(s, bucket);
  };
  edit((p) => {
    p.identity.activeRoot = ODD;
    p.identity.project = `${ODD}\u0001`;
  });
  edit((p) =>
    everySource(p, (s) => {
      for (const r of s.sourceRefs) r.metadataDigest = ODD;
    }),
  );
  edit((p) =>
    everySource(p, (s) => {
      s.sourceId = `${ODD}${s.sourceId}`;
    }),
  );
  // out of order and repeated ids: the sort is stable, ties keep bucket order
  edit((p) => {
    for (const bucket of ['baselineSources', 'selectedSources', 'excludedSources']) p[bucket].reverse();
    everySource(p, (s, bucket) => {
      if (bucket !== 'baselineSources') s.sourceId = 'profile:same';
    });
    p.candidateCoverage.cataloguedIds.reverse();
    p.candidateCoverage.inventoryIds = [...p.candidateCoverage.inventoryIds, 'profile:a', 'profile:a'];
  });
  edit((p) => {
    p.candidateCoverage.cataloguedIds = Array.from({ length: 40 }, (_, i) => `profile:${(i * 7) % 40}`);
  });
  edit((p) => {
    for (const s of p.selectedSources) s.kind = 'memory';
  });
  edit((p) => {
    for (const s of p.baselineSources) s.contentIdentity = { z: [1, -0, 1e21, null], a: { y: true, b: ODD } };
  });
  edit((p) => {
    everySource(p, (s) => (s.requiredToExist = 'yes'));
  });
  // what the general path refuses or trips on, each with its own error
  edit((p) => {
    p.selectedSources.at(-1).sourceId = 7;
  });
  edit((p) => {
    p.baselineSources[0].sourceId = null;
  });
  edit((p) => {
    delete p.excludedSources.concat(p.selectedSources).at(-1).requiredToExist;
  });
  edit((p) => {
    delete p.baselineSources[1].sourceRefs[0].metadataDigest;
  });
  edit((p) => {
    delete p.baselineSources[0].contentIdentity;
  });
  edit((p) => {
    p.selectedSources[0].sourceRefs = 'not refs';
  });
  edit((p) => {
    p.selectedSources[0].sourceRefs = [];
    p.selectedSources[0].sourceRefs[1] = { metadataDigest: 'a' };
  });
  edit((p) => {
    p.baselineSources[0].sourceRefs[0] = null;
  });
  edit((p) => {
    p.baselineSources[0].sourceId = '\ud800';
  });
  edit((p) => {
    p.baselineSources[0].sourceRefs[0].metadataDigest = '\udc00x';
  });
  edit((p) => {
    p.candidateCoverage.cataloguedIds = ['profile:b', 3, 'profile:a'];
  });
  edit((p) => {
    p.candidateCoverage.inventoryIds = ['profile:b', undefined, 'profile:a'];
  });
  edit((p) => {
    p.candidateCoverage.inventoryIds = 'profile:a';
  });
  edit((p) => {
    p.unclassifiedSources = null;
  });
  edit((p) => {
    p.excludedSources = { length: 1, 0: {} };
  });
  edit((p) => {
    p.selectedSources[0] = null;
  });
  edit((p) => {
    delete p.identity;
  });
  edit((p) => {
    p.identity.project = Number.NaN;
  });
  edit((p) => {
    p.identity.activeRoot = undefined;
  });
  return out;
}

describe('contextPlanBaselineDigest', () => {
  const plans = listFixtures()
    .filter((f) => f.contract === 'ContextReadPlanV2')
    .map((f) => f.document as Loose);

  it('is digestOf of the input object the spec describes, on every plan fixture', () => {
    expect(plans.length).toBeGreaterThan(40);
    let agreeing = 0;
    for (const plan of plans) {
      const want = outcome(() => objectForm(plan));
      expect(outcome(() => contextPlanBaselineDigest(plan as never))).toEqual(want);
      if (want.digest !== undefined && want.digest === plan.baselineDigest) agreeing++;
    }
    // most fixtures carry their true baselineDigest: the comparison is not between two wrong answers
    expect(agreeing).toBeGreaterThan(plans.length / 2);
  });

  it('gives the same digest or the same error on odd, unsorted and broken plans', () => {
    const valid = plans.filter((p) => outcome(() => objectForm(p)).digest === p.baselineDigest).slice(0, 5);
    expect(valid.length).toBe(5);
    let errors = 0;
    let changed = 0;
    for (const plan of valid) {
      for (const variant of variants(plan)) {
        const want = outcome(() => objectForm(variant));
        if (want.error !== undefined) errors++;
        else if (want.digest !== plan.baselineDigest) changed++;
        expect(outcome(() => contextPlanBaselineDigest(variant as never))).toEqual(want);
      }
    }
    // both kinds of variant occur on every plan: new digests and refusals
    expect(errors).toBeGreaterThanOrEqual(5 * 10);
    expect(changed).toBeGreaterThanOrEqual(5 * 6);
  });
});
