// @module-tag unit
// The ContextAcquisitionGate seed/plan rules beyond the golden fixtures: each rule on hand-made
// mutations (edge cases the one-per-code fixtures do not reach), the registry against the spec
// page's error tables, and properties over the valid plans: every valid fixture passes, a
// semantic mutation with every digest resealed is caught by the rule that owns the field, and a
// raw single-leaf mutation of any field the spec does not leave free is caught.
//
// Documents are judged by the same pipeline as `validate` (ahead-of-time structural check, then
// the DIGEST_RULES, then this area's rules) without loading the whole rule registry, so these
// tests do not depend on other areas' rule files.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type ContextReadPlanV1,
  type ContextReadPlanV2,
  contextPlanBaselineDigest,
  contextPlanContentId,
  contextPlanId,
  contextPlanV1BaselineDigest,
  contextPlanV1Id,
  DIGEST_RULES,
  deriveContextPlanIdentityInputs,
} from '@agent-contracts/schemas';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { digestIssues } from '../../src/digests.ts';
import { STRUCTURAL_VALIDATORS } from '../../src/generated/structural.generated.ts';
import type { Issue } from '../../src/issues.ts';
import {
  CONTEXT_ACQUISITION_BUNDLE_RULES,
  CONTEXT_ACQUISITION_RULES,
} from '../../src/rules/context-acquisition/index.ts';
import { listFixtures, repoRoot } from '../helpers.ts';

const CONTRACTS = [
  'IntentSeedV1',
  'ContentIdentityV1',
  'ContextReadPlanV2',
  'ContextReadPlanV1',
  'ContextReadBindingV1',
];
const fixtures = listFixtures().filter((f) => CONTRACTS.includes(f.contract));
const validOf = <T>(contract: string) =>
  fixtures.filter((f) => f.contract === contract && f.kind === 'valid').map((f) => f.document as T);
const clone = <T>(v: T): T => structuredClone(v);

/** Structural check, digest rules, then this area's semantic rules; `SCHEMA` stands for any schema issue. */
function judge(doc: unknown): Issue[] {
  const contract = (doc as { schemaVersion: string }).schemaVersion;
  const structural = STRUCTURAL_VALIDATORS[contract]!;
  if (!structural(doc)) return [{ code: 'SCHEMA', path: '', message: '', rule: 'schema', severity: 'error' }];
  return [
    ...digestIssues(contract, doc),
    ...CONTEXT_ACQUISITION_RULES.filter((r) => r.contract === contract).flatMap((r) => r.check(doc as never)),
  ];
}
const codes = (doc: unknown) => [...new Set(judge(doc).map((i) => i.code))].sort();
const at = (doc: unknown) => judge(doc).map((i) => `${i.code} ${i.path}`);

/** Recompute every derived id and digest of a V2 plan (what a correct writer would do after an edit). */
function resealV2(p: ContextReadPlanV2): ContextReadPlanV2 {
  p.baselineDigest = contextPlanBaselineDigest(p);
  p.identityInputs = deriveContextPlanIdentityInputs(p);
  p.planContentId = contextPlanContentId(p.identityInputs);
  p.cacheDecision.cacheKey = p.planContentId;
  p.planId = contextPlanId(p.planContentId, p.identity.contextEpoch, p.identity.invocationNonce);
  p.contextBinding = {
    ...p.contextBinding,
    contextEpoch: p.identity.contextEpoch,
    planId: p.planId,
    planContentId: p.planContentId,
    activeRoot: p.identity.activeRoot,
    project: p.identity.project,
  };
  return p;
}
function resealV1(p: ContextReadPlanV1): ContextReadPlanV1 {
  const { baselineDigest: _d, ...rest } = p.baselineContext;
  p.baselineContext.baselineDigest = contextPlanV1BaselineDigest(rest);
  p.planId = contextPlanV1Id(p);
  return p;
}

const plansV2 = validOf<ContextReadPlanV2>('ContextReadPlanV2');
const plansV1 = validOf<ContextReadPlanV1>('ContextReadPlanV1');
const byIntent = (intent: string) => plansV2.find((p) => p.identity.finalIntent === intent)!;
const dev = byIntent('dev');
const audit = byIntent('audit');
const resume = byIntent('resume');
const lowConfidence = plansV2.find((p) => p.identity.intentSeed.confidence < 0.6)!;
const chat = byIntent('chat');
const v1Dev = plansV1.find((p) => p.identity.finalIntent === 'dev')!;
const v1Audit = plansV1.find((p) => p.identity.finalIntent === 'audit')!;

/** A V2 plan edited by `edit` and resealed. */
const v2 = (base: ContextReadPlanV2, edit: (p: ContextReadPlanV2) => void) => {
  const p = clone(base);
  edit(p);
  return resealV2(p);
};
const v1 = (base: ContextReadPlanV1, edit: (p: ContextReadPlanV1) => void) => {
  const p = clone(base);
  edit(p);
  return resealV1(p);
};
const idx = (xs: Array<{ sourceId: string }>, id: string) => {
  const i = xs.findIndex((s) => s.sourceId === id);
  if (i < 0) throw new Error(`no ${id}`);
  return i;
};

describe('fixture corpus of the seed and plan contracts', () => {
  it('covers every contract with valid plans of each shape the rules branch on', () => {
    expect([dev, audit, resume, lowConfidence, chat, v1Dev, v1Audit].every(Boolean)).toBe(true);
  });

  for (const f of fixtures.filter((x) => x.kind === 'valid')) {
    it(`${f.contract}/valid/${f.name} passes the schema, every digest rule and every rule`, () => {
      expect(judge(f.document)).toEqual([]);
    });
  }

  for (const f of fixtures.filter((x) => x.expected?.layer === 'semantic')) {
    const e = f.expected as { code: string; instancePath: string };
    it(`${f.contract}/invalid/${f.name} breaks exactly ${e.code} at ${e.instancePath}`, () => {
      const issues = judge(f.document);
      expect(issues.map((i) => `${i.code} ${i.path}`)).toContain(`${e.code} ${e.instancePath}`);
      // "breaks exactly one rule": no other code fires on the fixture.
      expect(codes(f.document)).toEqual([e.code]);
    });
  }
});

describe('registry against docs/spec/context-acquisition-gate.md', () => {
  const page = readFileSync(join(repoRoot, 'docs/spec/context-acquisition-gate.md'), 'utf8');
  /** Slugs of the page's headings as GitHub renders them (duplicates get -1, -2, ...). */
  const anchors = (() => {
    const seen = new Map<string, number>();
    const out = new Set<string>();
    for (const m of page.matchAll(/^#{1,6} (.+)$/gm)) {
      const base = m[1]!
        .toLowerCase()
        .replace(/[^\w\- ]/g, '')
        .replace(/ /g, '-');
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      out.add(n ? `${base}-${n}` : base);
    }
    return out;
  })();
  /** The page text from `## <contract>` to the next `## `. */
  const section = (heading: string) => {
    const start = page.indexOf(`\n## ${heading}`);
    const end = page.indexOf('\n## ', start + 1);
    return page.slice(start, end === -1 ? undefined : end);
  };
  const semanticCodes = (heading: string) =>
    [...section(heading).matchAll(/^\| `([A-Z0-9_]+)` \| semantic/gm)].map((m) => m[1]!);
  const implemented = (contract: string) =>
    new Set([
      ...CONTEXT_ACQUISITION_RULES.filter((r) => r.contract === contract).map((r) => r.code),
      ...DIGEST_RULES.filter((r) => r.contract === contract && r.code).map((r) => r.code!),
    ]);

  it('every rule names an existing section of the page and has one code per contract', () => {
    for (const r of CONTEXT_ACQUISITION_RULES) {
      const [file, anchor] = r.specSection.split('#');
      expect(file).toBe('docs/spec/context-acquisition-gate.md');
      expect(anchors.has(anchor!), `${r.code}: #${anchor}`).toBe(true);
    }
    const keys = CONTEXT_ACQUISITION_RULES.map((r) => `${r.contract}:${r.code}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(CONTEXT_ACQUISITION_BUNDLE_RULES).toEqual([]);
  });

  it('every semantic code of ContentIdentityV1 and ContextReadPlanV2 is a rule or a digest code', () => {
    const ci = semanticCodes('ContentIdentityV1');
    expect(ci).toEqual(['CONTENT_SOURCE_KEY_NOT_NORMALIZED']);
    expect(ci.filter((c) => !implemented('ContentIdentityV1').has(c))).toEqual([]);
    const v2Codes = semanticCodes('ContextReadPlanV2');
    expect(v2Codes.length).toBe(25);
    expect(v2Codes.filter((c) => !implemented('ContextReadPlanV2').has(c))).toEqual([]);
  });

  it('every code the V1 invariants name is a V1 rule or digest code', () => {
    const list = section('ContextReadPlanV1 (compatibility)');
    const inv = list.slice(list.indexOf('### Invariants'), list.indexOf('### Error codes'));
    const named = [...new Set([...inv.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!))];
    expect(named.length).toBeGreaterThanOrEqual(13);
    expect(named.filter((c) => !implemented('ContextReadPlanV1').has(c))).toEqual([]);
  });

  it('IntentSeedV1 and ContextReadBindingV1 have no single-document semantic code', () => {
    expect(semanticCodes('IntentSeedV1')).toEqual([]);
    // The binding's only semantic code (CONTEXT_BINDING_MISMATCH) is judged on a plan + binding
    // bundle, and on the plan's own contextBinding by its digest rule.
    expect(semanticCodes('ContextReadBindingV1')).toEqual(['CONTEXT_BINDING_MISMATCH']);
    expect(
      CONTEXT_ACQUISITION_RULES.filter((r) => ['IntentSeedV1', 'ContextReadBindingV1'].includes(r.contract)),
    ).toEqual([]);
  });
});

describe('ContentIdentityV1', () => {
  const [identity] = validOf<{ sourceKey: string; schemaVersion: string }>('ContentIdentityV1');
  it.each([
    ['ligature', 'profile://acme/ﬁle.md'],
    ['full-width digit', 'profile://acme/notes-１.md'],
    ['decomposed accent (NFD)', 'profile://acme/cafe\u0301.md'],
  ])('refuses a key that is not NFKC: %s', (_, key) => {
    expect(at({ ...identity, sourceKey: key })).toEqual(['CONTENT_SOURCE_KEY_NOT_NORMALIZED /sourceKey']);
  });
  it('accepts an NFKC key with non-ASCII characters', () => {
    expect(judge({ ...identity, sourceKey: 'profile://acme/café-日本.md' })).toEqual([]);
  });
});

describe('ContextReadPlanV2 rules on hand-made mutations', () => {
  it('chronology compares sub-millisecond fractions and accepts equal times', () => {
    const seedAt = dev.identity.intentSeed.createdAt; // 2026-11-30T05:53:08.112Z
    expect(
      codes(
        v2(dev, (p) => {
          p.plannedAt = seedAt;
        }),
      ),
    ).toEqual([]);
    expect(
      codes(
        v2(dev, (p) => {
          p.plannedAt = seedAt.replace('.112Z', '.1120001Z');
        }),
      ),
    ).toEqual([]);
    expect(
      at(
        v2(dev, (p) => {
          p.plannedAt = seedAt.replace('.112Z', '.11Z');
        }),
      ),
    ).toEqual(['CONTEXT_PLAN_CHRONOLOGY_INVALID /plannedAt']);
  });

  it('changeTypes may be empty for chat, resume and full reads only', () => {
    expect(resume.changeTypes).toEqual([]);
    expect(chat.changeTypes).toEqual([]);
    expect(codes(resume)).toEqual([]);
  });

  it('reports an unsorted bucket and a duplicated source ref as not canonical', () => {
    const unsorted = v2(dev, (p) => void p.excludedSources.reverse());
    expect(at(unsorted)).toContain('CONTEXT_PLAN_NOT_CANONICAL /excludedSources/1/sourceId');
    const a = idx(dev.selectedSources, 'profile:architecture.md');
    const dup = v2(dev, (p) => {
      const s = p.selectedSources[a]!;
      s.sourceRefs = [s.sourceRefs[0]!, s.sourceRefs[0]!];
    });
    expect(at(dup)).toEqual([`CONTEXT_PLAN_NOT_CANONICAL /selectedSources/${a}/sourceRefs/1`]);
  });

  it('derives the envelope for each intent: analyze gets workflow-closeout but no docs-mutation, chat no test-execution', () => {
    const analyze = v2(dev, (p) => {
      p.identity.intentSeed.semantic = 'analyze';
      p.identity.finalIntent = 'analyze';
      p.changeTypes = ['docs', 'source-code'];
    });
    const issues = at(analyze);
    expect(issues).toEqual(['CONTEXT_ACTION_ENVELOPE_MISMATCH /actionEnvelope/allowedActionClasses']);
    const fixed = v2(analyze, (p) => {
      p.actionEnvelope.allowedActionClasses = [
        'analysis-read',
        'context-read',
        'test-execution',
        'workflow-closeout',
      ];
    });
    expect(codes(fixed)).toEqual([]);
    expect(chat.actionEnvelope).toEqual({
      allowedActionClasses: ['analysis-read', 'context-read'],
      mutationExpected: false,
      riskCeiling: 'normal',
    });
    expect(
      at(
        v2(chat, (p) => {
          p.actionEnvelope.mutationExpected = true;
        }),
      ),
    ).toEqual(['CONTEXT_ACTION_ENVELOPE_MISMATCH /actionEnvelope/mutationExpected']);
    expect(
      at(
        v2(dev, (p) => {
          p.actionEnvelope.riskCeiling = 'high';
        }),
      ),
    ).toEqual(['CONTEXT_ACTION_ENVELOPE_MISMATCH /actionEnvelope/riskCeiling']);
  });

  it('coverage: a catalogued candidate in no bucket, a catalogued unclassified id, a wrong authority', () => {
    const docs = idx(dev.excludedSources, 'profile:docs.md');
    const dropped = v2(dev, (p) => void p.excludedSources.splice(docs, 1));
    const catIndex = dev.candidateCoverage.cataloguedIds.indexOf('profile:docs.md');
    expect(at(dropped)).toEqual([
      `CONTEXT_CANDIDATE_COVERAGE_INVALID /candidateCoverage/cataloguedIds/${catIndex}`,
    ]);

    const catalogued = v2(resume, (p) => {
      p.candidateCoverage.cataloguedIds = [
        ...p.candidateCoverage.cataloguedIds,
        'profile:migration-notes.md',
      ].sort();
    });
    expect(at(catalogued)).toEqual(['CONTEXT_CANDIDATE_COVERAGE_INVALID /unclassifiedSources/0/sourceId']);

    const a = idx(dev.selectedSources, 'profile:architecture.md');
    expect(
      at(
        v2(dev, (p) => {
          p.selectedSources[a]!.authority = 'profile-inventory';
        }),
      ),
    ).toEqual([`CONTEXT_CANDIDATE_COVERAGE_INVALID /selectedSources/${a}/authority`]);
  });

  it('an inventory-only document may be explicitly selected or excluded as metadata-only', () => {
    const explicit = v2(resume, (p) => {
      const [u] = p.unclassifiedSources.splice(0, 1);
      p.selectedSources.push({
        ...u!,
        mandatory: true,
        authority: 'profile-inventory',
        reason: 'The user asked to read the migration notes.',
        reasonCode: 'explicit-selector',
      } as never);
      p.selectedSources.sort((x, y) => (x.sourceId < y.sourceId ? -1 : 1));
      p.mandatorySourceIds = [...p.mandatorySourceIds, u!.sourceId].sort();
      p.triggeredEscalations = p.triggeredEscalations.filter((t) => t !== 'profile-catalog-drift');
      p.exitCondition = 'relevant-complete';
    });
    expect(codes(explicit)).toEqual([]);
  });

  it('baseline: two index sources', () => {
    const twice = v2(dev, (p) => {
      p.baselineSources[1] = {
        ...p.baselineSources[1]!,
        reasonCode: 'baseline-readme',
        authority: 'lossless-plan-baseline',
      };
    });
    expect(at(twice)).toEqual(['CONTEXT_BASELINE_INCOMPLETE /baselineSources/1/reasonCode']);
  });

  it('descriptors: a memory ref for another project, a memory reason on a Profile document', () => {
    const m = idx(dev.selectedSources, 'memory:status');
    const other = v2(dev, (p) => {
      const r = p.selectedSources[m]!.sourceRefs[0]!;
      r.path = 'memory://acme-payments/status';
      r.metadataDigest = digestOfRef(r);
    });
    expect(at(other)).toEqual([`CONTEXT_SOURCE_DESCRIPTOR_INVALID /selectedSources/${m}/sourceRefs`]);
    const a = idx(dev.selectedSources, 'profile:architecture.md');
    expect(
      at(
        v2(dev, (p) => {
          p.selectedSources[a]!.reasonCode = 'memory-status';
        }),
      ),
    ).toEqual([`CONTEXT_SOURCE_DESCRIPTOR_INVALID /selectedSources/${a}/reasonCode`]);
    expect(
      at(
        v2(dev, (p) => {
          p.selectedSources[a]!.kind = 'memory';
        }),
      ),
    ).toEqual([`CONTEXT_SOURCE_DESCRIPTOR_INVALID /selectedSources/${a}/kind`]);
  });

  it('memory queries: summary is optional on resume; session is never selected outside resume', () => {
    const s = idx(resume.selectedSources, 'memory:summary');
    const mandatorySummary = v2(resume, (p) => {
      p.selectedSources[s]!.mandatory = true;
      p.mandatorySourceIds = [...p.mandatorySourceIds, 'memory:summary'].sort();
    });
    expect(at(mandatorySummary)).toEqual([`CONTEXT_MEMORY_QUERIES_INVALID /selectedSources/${s}/mandatory`]);
    const session = resume.selectedSources[idx(resume.selectedSources, 'memory:session')]!;
    const devWithSession = v2(dev, (p) => {
      p.selectedSources.push(clone(session));
      p.selectedSources.sort((x, y) => (x.sourceId < y.sourceId ? -1 : 1));
      p.mandatorySourceIds = [...p.mandatorySourceIds, 'memory:session'].sort();
    });
    expect(codes(devWithSession)).toEqual(['CONTEXT_MEMORY_QUERIES_INVALID']);
  });

  it('mandatory: a selected Profile document is always mandatory', () => {
    const a = idx(dev.selectedSources, 'profile:architecture.md');
    const optional = v2(dev, (p) => {
      p.selectedSources[a]!.mandatory = false;
      p.mandatorySourceIds = p.mandatorySourceIds.filter((id) => id !== 'profile:architecture.md');
    });
    expect(at(optional)).toEqual([`CONTEXT_MANDATORY_SOURCES_MISMATCH /selectedSources/${a}/mandatory`]);
  });

  it('full read: a fullReadNote on a targeted plan makes it an explicit full read', () => {
    const noted = v2(dev, (p) => {
      p.fullReadNote = 'Please read everything first.';
    });
    expect(codes(noted)).toEqual(
      expect.arrayContaining([
        'CONTEXT_FULL_READ_MISMATCH',
        'CONTEXT_FULL_REASON_REQUIRED',
        'CONTEXT_ESCALATIONS_MISMATCH',
      ]),
    );
    // precedence: explicit-request wins over audit-intent
    const auditExplicit = v2(audit, (p) => {
      p.fullReadNote = 'Audit everything, including drafts.';
    });
    expect(at(auditExplicit)).toEqual([
      'CONTEXT_FULL_READ_MISMATCH /fullReadReason',
      'CONTEXT_FULL_REASON_REQUIRED /fullReadNote',
    ]);
  });

  it('selection: a targeted chat plan selects Profile documents only explicitly; a full read excludes only metadata-only files', () => {
    const targetedChat = v2(chat, (p) => {
      p.fullReadNote = null;
      p.fullReadReason = null;
      p.fullRead = false;
      p.exitCondition = 'relevant-complete';
      p.triggeredEscalations = p.triggeredEscalations.filter((t) => t !== 'explicit-full');
      for (const s of p.selectedSources) if (s.kind === 'profile') s.reasonCode = 'intent-change-type';
    });
    // intent-change-type without change types is a descriptor error as well; the chat rule fires per document
    expect(codes(targetedChat)).toEqual(['CONTEXT_SELECTION_INVALID', 'CONTEXT_SOURCE_DESCRIPTOR_INVALID']);
    const explicitOnly = v2(targetedChat, (p) => {
      for (const s of p.selectedSources) if (s.kind === 'profile') s.reasonCode = 'explicit-selector';
    });
    expect(codes(explicitOnly)).toEqual([]);
    const docs = idx(audit.excludedSources, 'profile:glossary.csv');
    const excluded = v2(audit, (p) => {
      p.excludedSources[docs]!.reasonCode = 'excluded-no-match';
    });
    expect(at(excluded)).toEqual([`CONTEXT_SELECTION_INVALID /excludedSources/${docs}/reasonCode`]);
  });

  it('local sources: excluded-local-policy is for profile-local candidates only', () => {
    const docs = idx(dev.excludedSources, 'profile:docs.md');
    expect(
      at(
        v2(dev, (p) => {
          p.excludedSources[docs]!.reasonCode = 'excluded-local-policy';
        }),
      ),
    ).toEqual([`CONTEXT_LOCAL_SOURCE_NOT_REQUESTED /excludedSources/${docs}/reasonCode`]);
  });

  it.each(['not needed', 'NOT NEEDED', '  not needed  ', '暂不需要', ' 暂不需要'])(
    'skipReason %j is refused',
    (text) => {
      const docs = idx(dev.excludedSources, 'profile:docs.md');
      expect(
        at(
          v2(dev, (p) => {
            p.excludedSources[docs]!.skipReason = text;
          }),
        ),
      ).toEqual([`CONTEXT_SKIP_REASON_INVALID /excludedSources/${docs}/skipReason`]);
    },
  );
  it('skipReason that explains is accepted even when it contains the words', () => {
    const docs = idx(dev.excludedSources, 'profile:docs.md');
    expect(
      codes(
        v2(dev, (p) => {
          p.excludedSources[docs]!.skipReason = 'Not needed: no docs change.';
        }),
      ),
    ).toEqual([]);
  });

  it('escalations: an extra derived trigger is refused, caller-supplied triggers are free', () => {
    expect(
      at(
        v2(dev, (p) => {
          p.triggeredEscalations = ['release'];
        }),
      ),
    ).toEqual(['CONTEXT_ESCALATIONS_MISMATCH /triggeredEscalations']);
    expect(
      codes(
        v2(dev, (p) => {
          p.triggeredEscalations = ['compact', 'profile-drift'];
        }),
      ),
    ).toEqual([]);
  });

  it('cache decision: cacheKey is the plan content id; a miss reuses nothing', () => {
    const key = clone(dev);
    key.cacheDecision.cacheKey = audit.planContentId;
    expect(at(key)).toEqual(['CONTEXT_CACHE_DECISION_INVALID /cacheDecision/cacheKey']);
    const miss = clone(dev);
    miss.cacheDecision = { ...miss.cacheDecision, status: 'miss', reusedArtifacts: ['identity-inputs'] };
    expect(at(miss)).toEqual(['CONTEXT_CACHE_DECISION_INVALID /cacheDecision/reusedArtifacts']);
  });

  it('identity inputs: a field changed without re-deriving identityInputs is reported at the member', () => {
    const stale = clone(dev);
    stale.localSourcesRequested = true; // without re-deriving identityInputs
    expect(at(stale)).toEqual(['CONTEXT_IDENTITY_INPUTS_MISMATCH /identityInputs/resolution']);
  });

  it('digest fields report the spec codes', () => {
    const forged = clone(dev);
    forged.contextBinding.activeRoot = '/srv/other';
    expect(at(forged)).toEqual(['CONTEXT_BINDING_MISMATCH /contextBinding/activeRoot']);
    const nonce = clone(dev);
    nonce.identity.invocationNonce = 'ffffffff-0000-4000-8000-000000000000';
    expect(at(nonce)).toEqual(['CONTEXT_PLAN_ID_MISMATCH /planId']);
  });
});

describe('ContextReadPlanV1 rules on hand-made mutations', () => {
  it('every valid V1 plan passes and a V1 memory query keeps its tool name', () => {
    for (const p of plansV1) expect(judge(p)).toEqual([]);
    expect(v1Dev.selectedSources.some((s) => s.sourceId === 'memory:memory_status')).toBe(true);
  });

  it('the baseline sources must be present', () => {
    const r = idx(v1Dev.selectedSources, 'profile:config.json');
    const missing = v1(v1Dev, (p) => {
      p.selectedSources.splice(r, 1);
      p.mandatorySourceIds = p.mandatorySourceIds.filter((id) => id !== 'profile:config.json');
    });
    expect(at(missing)).toEqual(['CONTEXT_BASELINE_INCOMPLETE /selectedSources']);
  });

  it('catalogue entries are named by file, else name, else selector', () => {
    const renamed = v1(v1Dev, (p) => {
      p.baselineContext.catalog = p.baselineContext.catalog.map(({ file, ...rest }) => ({
        ...rest,
        name: file,
      }));
    });
    expect(codes(renamed)).toEqual([]);
    const unknown = v1(v1Dev, (p) => {
      p.baselineContext.inventory = [...p.baselineContext.inventory, { selector: 'runbook.md' }];
    });
    expect(at(unknown)).toEqual(['CONTEXT_CANDIDATE_COVERAGE_INVALID /catalogCoverage']);
  });

  it('an unclassified candidate requires blocked; a targeted plan is never escalated-full', () => {
    expect(
      at(
        v1(v1Dev, (p) => {
          p.exitCondition = 'escalated-full';
        }),
      ),
    ).toEqual(['CONTEXT_EXIT_CONDITION_MISMATCH /exitCondition']);
    expect(
      codes(
        v1(v1Audit, (p) => {
          p.exitCondition = 'blocked';
        }),
      ),
    ).toEqual([]);
  });

  it('a selected local configuration requires configLocalRequested', () => {
    const local = v1(v1Dev, (p) => {
      p.selectedSources.push({
        sourceId: 'profile:config.local.json',
        kind: 'profile-local',
        selector: 'config.local.json',
        mandatory: true,
        authority: 'profile-catalog',
        reason: 'Local overrides.',
        sourceLayer: 'profile-local',
        sourceRefs: [p.selectedSources[0]!.sourceRefs[0]!],
      });
      p.selectedSources.sort((x, y) => (x.sourceId < y.sourceId ? -1 : 1));
      p.mandatorySourceIds = p.selectedSources.filter((s) => s.mandatory).map((s) => s.sourceId);
      p.profile.selectedFiles = [...p.profile.selectedFiles, 'config.local.json'].sort();
    });
    const i = idx(local.selectedSources, 'profile:config.local.json');
    expect(at(local)).toEqual([`CONTEXT_SELECTION_INVALID /selectedSources/${i}`]);
    expect(
      codes(
        v1(local, (p) => {
          p.profile.configLocalRequested = true;
        }),
      ),
    ).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

function digestOfRef(r: {
  path: string;
  layer: string;
  exists: boolean;
  size: number | null;
  mtimeMs: number | null;
}) {
  const rule = DIGEST_RULES.find(
    (d) => d.contract === 'ContextReadPlanV2' && d.pointer.startsWith('/selectedSources/'),
  )!;
  const [{ expected }] = rule.compute({ selectedSources: [{ sourceRefs: [r] }] }) as unknown as [
    { expected: string },
  ];
  return expected;
}

/** Semantic edits of one field each, with the code that owns the field. Each applies to every valid V2 plan. */
const SEMANTIC_EDITS: Array<[string, string, (p: ContextReadPlanV2) => void]> = [
  [
    'flip fullRead',
    'CONTEXT_FULL_READ_MISMATCH',
    (p) => {
      p.fullRead = !p.fullRead;
    },
  ],
  [
    'change exitCondition',
    'CONTEXT_EXIT_CONDITION_MISMATCH',
    (p) => {
      p.exitCondition = p.exitCondition === 'blocked' ? 'relevant-complete' : 'blocked';
    },
  ],
  [
    'toggle a derived trigger',
    'CONTEXT_ESCALATIONS_MISMATCH',
    (p) => {
      const t = 'destructive';
      p.triggeredEscalations = p.triggeredEscalations.includes(t)
        ? p.triggeredEscalations.filter((x) => x !== t)
        : ([...p.triggeredEscalations, t].sort() as ContextReadPlanV2['triggeredEscalations']);
    },
  ],
  ['drop a mandatory id', 'CONTEXT_MANDATORY_SOURCES_MISMATCH', (p) => void p.mandatorySourceIds.pop()],
  [
    'widen the envelope',
    'CONTEXT_ACTION_ENVELOPE_MISMATCH',
    (p) => {
      const extra = p.actionEnvelope.allowedActionClasses.includes('dangerous')
        ? 'context-read'
        : 'dangerous';
      p.actionEnvelope.allowedActionClasses = p.actionEnvelope.allowedActionClasses
        .filter((c) => c !== extra)
        .concat(extra === 'dangerous' ? ['dangerous'] : [])
        .sort();
    },
  ],
  [
    'another epoch',
    'CONTEXT_EPOCH_MISMATCH',
    (p) => {
      p.identity.contextEpoch = `${p.identity.contextEpoch}-x`;
    },
  ],
  [
    'another final intent',
    'CONTEXT_INTENT_MISMATCH',
    (p) => {
      p.identity.finalIntent = p.identity.finalIntent === 'other' ? 'self-fix' : 'other';
    },
  ],
  [
    'drop memory:status',
    'CONTEXT_MEMORY_QUERIES_INVALID',
    (p) => {
      p.selectedSources = p.selectedSources.filter((s) => s.sourceId !== 'memory:status');
      p.mandatorySourceIds = p.mandatorySourceIds.filter((id) => id !== 'memory:status');
    },
  ],
  [
    'a source in two buckets',
    'CONTEXT_CANDIDATE_COVERAGE_INVALID',
    (p) => {
      const b = p.baselineSources[0]!;
      p.unclassifiedSources = [
        ...p.unclassifiedSources,
        {
          sourceId: b.sourceId,
          kind: 'profile' as const,
          authority: 'profile-inventory' as const,
          reasonCode: 'unclassified-uncatalogued' as const,
          sourceLayer: b.sourceLayer,
          requiredToExist: false,
          sourceRefs: b.sourceRefs,
        },
      ].sort((x, y) => (x.sourceId < y.sourceId ? -1 : 1));
    },
  ],
];

describe('properties', () => {
  it('a resealed single-field semantic edit is caught by the rule that owns the field', () => {
    fc.assert(
      fc.property(fc.constantFrom(...plansV2), fc.constantFrom(...SEMANTIC_EDITS), (plan, [, code, edit]) => {
        const issues = judge(v2(plan, edit));
        expect(issues.map((i) => i.code)).toContain(code);
        expect(issues.every((i) => i.code.startsWith('CONTEXT_'))).toBe(true);
      }),
      { numRuns: 120 },
    );
  });

  /** Leaves the spec deliberately leaves out of every identity and derivation of a lone plan. */
  const FREE_V2 = [
    /\/reason$/,
    /\/skipReason$/,
    /^\/fullReadNote$/,
    /^\/budget\//,
    /^\/planningTelemetry\//,
    /^\/cacheDecision\/reasonCode$/,
    /^\/cacheDecision\/reusedArtifacts\/\d+$/,
    // The seed is checked verbatim against the IntentSeedV1 only in the chain bundle.
    /^\/identity\/intentSeed\/(targetHint|continuationHint)$/,
  ];
  const FREE_V1 = [/^\/planningTelemetry\//];

  function leaves(v: unknown, path = ''): Array<[string, unknown]> {
    if (Array.isArray(v)) return v.flatMap((x, i) => leaves(x, `${path}/${i}`));
    if (v !== null && typeof v === 'object')
      return Object.entries(v).flatMap(([k, x]) => leaves(x, `${path}/${k}`));
    return [[path, v]];
  }
  function setAt(doc: unknown, path: string, value: unknown): void {
    const keys = path.slice(1).split('/');
    let node = doc as Record<string, unknown>;
    for (const k of keys.slice(0, -1)) node = node[k] as Record<string, unknown>;
    node[keys.at(-1)!] = value;
  }
  const nudge = (v: unknown) =>
    typeof v === 'string' ? `${v}x` : typeof v === 'number' ? v + 1 : typeof v === 'boolean' ? !v : undefined;

  it.each([
    ['ContextReadPlanV2', plansV2 as unknown[], FREE_V2],
    ['ContextReadPlanV1', plansV1 as unknown[], FREE_V1],
  ] as const)('%s: every single-leaf change outside the free fields is caught', (_, plans, free) => {
    let checked = 0;
    for (const plan of plans) {
      for (const [path, value] of leaves(plan)) {
        const next = nudge(value);
        if (next === undefined || path === '/schemaVersion' || free.some((re) => re.test(path))) continue;
        const doc = clone(plan);
        setAt(doc, path, next);
        checked++;
        expect(
          judge(doc).length,
          `${path} ${JSON.stringify(value)} -> ${JSON.stringify(next)}`,
        ).toBeGreaterThan(0);
      }
    }
    expect(checked).toBeGreaterThan(300);
  });

  it('changes to the free fields alone never make a valid plan invalid', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...plansV2),
        fc
          .string({ minLength: 1, maxLength: 40 })
          .filter((s) => s.trim().length > 0 && !/not needed|暂不需要/i.test(s)),
        fc.nat({ max: 10_000 }),
        (plan, text, n) => {
          const p = clone(plan);
          for (const s of p.selectedSources) s.reason = text;
          for (const s of p.excludedSources) s.skipReason = text;
          if (p.fullReadNote !== null) p.fullReadNote = text;
          p.planningTelemetry.inputBytes = n;
          p.budget.tokens = n;
          expect(judge(p)).toEqual([]);
        },
      ),
      { numRuns: 60 },
    );
  });
});
