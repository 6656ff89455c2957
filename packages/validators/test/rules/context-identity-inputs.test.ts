// @module-tag unit
// CONTEXT_IDENTITY_INPUTS_MISMATCH reads the plan's fields in place and builds the derivation only
// for a member that does not agree with them: it must report exactly the members whose JCS text
// differs from deriveContextPlanIdentityInputs's (what it reported when it always built the
// derivation), and fail where canonicalising fails, on every plan fixture and on plans whose
// identityInputs or whose fields were changed, reordered, extended or made odd.
import { canonicalize } from '@agent-contracts/digest';
import { type ContextReadPlanV2, deriveContextPlanIdentityInputs } from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import {
  CONTEXT_ACQUISITION_RULES,
  IDENTITY_INPUTS_MEMBERS,
} from '../../src/rules/context-acquisition/index.ts';
import { listFixtures } from '../helpers.ts';

// biome-ignore lint/suspicious/noExplicitAny: variants of unchecked plans
type Loose = Record<string, any>;

const rule = CONTEXT_ACQUISITION_RULES.find(
  (r) => r.contract === 'ContextReadPlanV2' && r.code === 'CONTEXT_IDENTITY_INPUTS_MISMATCH',
)!;

/** The members the rule reports, by the definition: JCS texts of the member and its derivation differ. */
function reference(plan: Loose): string[] {
  const want = deriveContextPlanIdentityInputs(plan as ContextReadPlanV2) as unknown as Loose;
  const have = plan.identityInputs as Loose;
  return Object.keys(want)
    .filter((m) => canonicalize(have[m] ?? null) !== canonicalize(want[m]))
    .map((m) => `/identityInputs/${m}`);
}

const outcome = (f: () => string[]) => {
  try {
    return { paths: f() };
  } catch (err) {
    return { error: String(err) };
  }
};

const ODD = 'caf\u00e9 "quoted" \\ \ud83d\ude00';

/** Plans with one thing changed each. */
function variants(doc: Loose): Loose[] {
  const out: Loose[] = [];
  const edit = (f: (p: Loose, ii: Loose) => void) => {
    const copy = structuredClone(doc);
    f(copy, copy.identityInputs);
    out.push(copy);
  };
  // identityInputs changed, members and leaves
  for (const member of Object.keys(doc.identityInputs)) {
    edit((_, ii) => {
      ii[member] = null;
    });
    edit((_, ii) => {
      delete ii[member];
    });
    edit((_, ii) => {
      ii[member] = [ii[member]];
    });
    const value = doc.identityInputs[member];
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const key of Object.keys(value)) {
        edit((_, ii) => {
          ii[member][key] = ODD;
        });
        edit((_, ii) => {
          delete ii[member][key];
        });
        edit((_, ii) => {
          const v = ii[member][key];
          ii[member][key] = Array.isArray(v) ? [...v].reverse().concat(v) : [v];
        });
      }
      edit((_, ii) => {
        ii[member].extra = true;
      });
      // keys in another order: the same JSON data
      edit((_, ii) => {
        ii[member] = Object.fromEntries(Object.entries(ii[member]).reverse());
      });
      edit((_, ii) => {
        ii[member] = Object.assign(Object.create(null), ii[member]);
      });
    }
  }
  edit((_, ii) => {
    ii.intent.actionEnvelope.extra = 1;
  });
  edit((_, ii) => {
    ii.intent.actionEnvelope.mutationExpected = !ii.intent.actionEnvelope.mutationExpected;
  });
  edit((_, ii) => {
    ii.sources.reverse();
  });
  edit((_, ii) => {
    ii.sources = ii.sources.map((s: Loose) => Object.fromEntries(Object.entries(s).reverse()));
  });
  edit((_, ii) => {
    ii.sources.at(-1).metadataDigests.push('0'.repeat(64));
  });
  edit((_, ii) => {
    ii.sources[0].mandatory = !ii.sources[0].mandatory;
  });
  edit((_, ii) => {
    ii.sources[1].extra = null;
  });
  edit((_, ii) => {
    ii.sources[0] = null;
  });
  // the plan's fields changed without re-deriving identityInputs
  edit((p) => {
    p.localSourcesRequested = !p.localSourcesRequested;
  });
  edit((p) => {
    p.identity.intentSeed.confidence = p.identity.intentSeed.confidence < 0.6 ? 0.9 : 0.1;
  });
  edit((p) => {
    p.identity.planner = 'other@9';
  });
  edit((p) => {
    p.identity.host = ODD;
  });
  edit((p) => {
    p.changeTypes.reverse();
    p.actionEnvelope.allowedActionClasses.reverse();
    p.mandatorySourceIds.reverse();
    p.triggeredEscalations.reverse();
  });
  edit((p) => {
    p.changeTypes = [...p.changeTypes, ...p.changeTypes];
    p.mandatorySourceIds = [...p.mandatorySourceIds, 'profile:zz'];
  });
  edit((p) => {
    p.changeTypes = [3, ...p.changeTypes];
  });
  for (const bucket of ['baselineSources', 'selectedSources', 'excludedSources', 'unclassifiedSources']) {
    if (doc[bucket].length === 0) continue;
    edit((p) => {
      p[bucket].reverse();
    });
    edit((p) => {
      p[bucket][0].mandatory = !p[bucket][0].mandatory;
    });
    edit((p) => {
      p[bucket][0].sourceRefs[0].metadataDigest = 'f'.repeat(64);
    });
    edit((p) => {
      p[bucket][0].sourceRefs.push(p[bucket][0].sourceRefs[0]);
    });
    edit((p) => {
      p[bucket][0].reasonCode = ODD;
      p[bucket][0].sourceLayer = 'x+y';
    });
    edit((p) => {
      p[bucket][0].sourceId = p.baselineSources[0].sourceId;
    });
    edit((p) => {
      p[bucket][0].sourceId = 12;
    });
    edit((p) => {
      p[bucket][0].requiredToExist = undefined;
    });
    // a source moved to another bucket
    edit((p) => {
      const [s] = p[bucket].splice(0, 1);
      (bucket === 'excludedSources' ? p.selectedSources : p.excludedSources).push(s);
    });
  }
  edit((p) => {
    p.identity.activeRoot = '\ud800';
  });
  edit((_, ii) => {
    ii.target.activeRoot = '\udc00';
  });
  return out;
}

describe('CONTEXT_IDENTITY_INPUTS_MISMATCH', () => {
  const all = listFixtures().filter((f) => f.contract === 'ContextReadPlanV2');
  // every valid plan and a dozen invalid ones (each has a hundred variants)
  const plans = [
    ...all.filter((f) => f.kind === 'valid'),
    ...all.filter((f) => f.kind === 'invalid').filter((_, i) => i % 4 === 0),
  ].map((f) => f.document as Loose);

  it('checks in place exactly the members the derivation has, in its order', () => {
    for (const plan of plans) {
      expect(IDENTITY_INPUTS_MEMBERS).toEqual(
        Object.keys(deriveContextPlanIdentityInputs(plan as ContextReadPlanV2)),
      );
    }
  });

  it('reports the members whose JCS text differs from the derivation, and fails where that fails', () => {
    expect(plans.length).toBeGreaterThan(12);
    let reported = 0;
    let agreeing = 0;
    let failed = 0;
    for (const plan of plans) {
      for (const p of [plan, ...variants(plan)]) {
        const want = outcome(() => reference(p));
        const got = outcome(() => rule.check(p as never).map((i) => i.path));
        expect(got).toEqual(want);
        if (want.error !== undefined) failed++;
        else if (want.paths.length > 0) reported++;
        else agreeing++;
      }
    }
    // every kind of outcome occurs, the agreeing ones on reordered keys and buckets too
    expect(reported).toBeGreaterThan(plans.length * 40);
    expect(agreeing).toBeGreaterThan(plans.length * 5);
    expect(failed).toBeGreaterThan(plans.length);
  });
});
