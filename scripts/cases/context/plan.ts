// context.plan scenarios: intents, target hints, seeds, the planner's contract and the cache.
import { CONTEXT_ROOT, contextCatalogueWithRefs, contextRef } from '@agent-contracts/harness/explore';
import type { Scenario } from './model.ts';
import { planParams, T0 } from './names.ts';

export const PLAN_SCENARIOS: readonly Scenario[] = [
  {
    family: 'plan',
    name: 'plan/fix-testing',
    title:
      'a fix of the tests is planned from the seed the implementation forms: the baseline, memory:status and the testing document, the seed embedded verbatim',
    anchor: 'contextreadplanv2',
    requirements: ['CAG-001', 'CAG-002', 'CAG-006', 'CAG-026', 'PROTO-010'],
    run: (m) => void m.plan(planParams()),
  },
  {
    family: 'plan',
    name: 'plan/keyword-intent-refused',
    title: 'a keyword of the message ("refactor") is never an intent: the seed is refused, no plan is made',
    anchor: 'producing-a-seed',
    requirements: ['CAG-002', 'CAG-004', 'PROTO-008'],
    run: (m) => void m.plan(planParams({}, { semantic: 'refactor' }), 'CONTEXT_INTENT_INVALID'),
  },
  {
    family: 'plan',
    name: 'plan/intent-differs-from-semantic',
    title: 'an intent alias that differs from the semantic intent is refused',
    anchor: 'producing-a-seed',
    requirements: ['CAG-002', 'CAG-003', 'PROTO-008'],
    run: (m) => void m.plan(planParams({}, { semantic: 'fix', intent: 'chat' }), 'CONTEXT_INTENT_INVALID'),
  },
  {
    family: 'plan',
    name: 'plan/intent-null-beside-semantic',
    title:
      'an intent alias given as null beside the semantic intent is no intent given (D-CTX-55): the plan is made for the semantic intent',
    anchor: 'producing-a-seed',
    requirements: ['CAG-002', 'CAG-003', 'PROTO-010'],
    run: (m) => void m.plan(planParams({}, { semantic: 'fix', intent: null })),
  },
  {
    family: 'plan',
    name: 'plan/semantic-empty-beside-intent',
    title:
      'an empty semantic intent beside the intent alias is no intent given (D-CTX-55): the plan is made for the alias',
    anchor: 'producing-a-seed',
    requirements: ['CAG-002', 'CAG-003', 'PROTO-010'],
    run: (m) => void m.plan(planParams({}, { semantic: '', intent: 'fix' })),
  },
  {
    family: 'plan',
    name: 'plan/schema-version-before-intent',
    title:
      'a seed input of another schemaVersion is refused as that before its intent is read (D-CTX-55): CONTEXT_PLAN_INVALID, not CONTEXT_INTENT_INVALID',
    anchor: 'producing-a-seed',
    requirements: ['CAG-002', 'PROTO-008'],
    run: (m) =>
      void m.plan(
        planParams({}, { semantic: 'refactor', schemaVersion: 'IntentSeedV2' }),
        'CONTEXT_PLAN_INVALID',
      ),
  },
  {
    family: 'plan',
    name: 'plan/target-hint-of-another-project',
    title:
      'a seed whose target hint names another project than the catalogue is refused (D-CTX-56): CONTEXT_ACTIVE_TARGET_MISMATCH, checked before the change types',
    anchor: 'planning-through-the-protocol',
    requirements: ['CAG-006', 'PROTO-010'],
    run: (m) =>
      void m.plan(
        planParams({ changeTypes: [] }, { targetHint: 'other-project' }),
        'CONTEXT_ACTIVE_TARGET_MISMATCH',
      ),
  },
  {
    family: 'plan',
    name: 'plan/target-hint-trimmed-is-the-project',
    title:
      "a seed whose target hint, trimmed, is the catalogue's project is planned (D-CTX-56): the seed keeps the trimmed hint",
    anchor: 'planning-through-the-protocol',
    requirements: ['CAG-002', 'CAG-006', 'PROTO-010'],
    run: (m) => void m.plan(planParams({}, { targetHint: '  acme  ', continuationHint: true })),
  },
  {
    family: 'plan',
    name: 'plan/seed-created-after-planning',
    title:
      'a seed created after the planning time is refused before its target hint and the read trace are read (D-CTX-56): CONTEXT_PLAN_CHRONOLOGY_INVALID, not CONTEXT_SEED_AFTER_CONTEXT_READ',
    anchor: 'planning-through-the-protocol',
    requirements: ['CAG-005', 'PROTO-009', 'PROTO-010'],
    run: (m) =>
      void m.plan(
        planParams(
          { readTrace: [{ sourceId: 'profile:README.md', readAt: T0 }] },
          { createdAt: '2026-12-02T06:00:00.000Z', targetHint: 'other-project' },
        ),
        'CONTEXT_PLAN_CHRONOLOGY_INVALID',
      ),
  },
  {
    family: 'plan',
    name: 'plan/no-intent',
    title: 'a seed input without an intent is refused: classify the message first',
    anchor: 'producing-a-seed',
    requirements: ['CAG-002', 'PROTO-008'],
    run: (m) => void m.plan(planParams({}, { semantic: null }), 'CONTEXT_INTENT_REQUIRED'),
  },
  {
    family: 'plan',
    name: 'plan/hidden-full-read',
    title:
      'a body other than the two baseline sources read while planning (the testing document) is a hidden full read: refused',
    anchor: 'invariants-2',
    requirements: ['CAG-011', 'PROTO-009'],
    run: (m) =>
      void m.plan(
        planParams({ readTrace: [{ sourceId: 'profile:testing.md', readAt: T0 }] }),
        'CONTEXT_HIDDEN_FULL_READ',
      ),
  },
  {
    family: 'plan',
    name: 'plan/baseline-read-while-planning',
    title: 'reading the two baseline bodies while planning is no hidden full read: the plan is made',
    anchor: 'invariants-2',
    requirements: ['CAG-011', 'PROTO-009'],
    run: (m) =>
      void m.plan(
        planParams({
          readTrace: [
            { sourceId: 'profile:README.md', readAt: T0 },
            { sourceId: 'profile:config.json', readAt: T0 },
          ],
        }),
      ),
  },
  {
    family: 'plan',
    name: 'plan/seed-after-context-read',
    title: 'a Profile body read before the seed existed means the seed came after context: refused',
    anchor: 'invariants',
    requirements: ['CAG-005', 'PROTO-009'],
    run: (m) => {
      m.advance(60_000);
      m.plan(
        planParams(
          { readTrace: [{ sourceId: 'profile:README.md', readAt: T0 }] },
          { createdAt: '2026-12-02T05:00:30.000Z' },
        ),
        'CONTEXT_SEED_AFTER_CONTEXT_READ',
      );
    },
  },
  {
    family: 'plan',
    name: 'plan/v1-write-forbidden',
    title: 'a plan is never written as ContextReadPlanV1 (read-only): refused',
    anchor: 'contextreadplanv1-compatibility',
    requirements: ['CAG-013'],
    run: (m) => void m.plan(planParams({ contract: 'ContextReadPlanV1' }), 'CONTEXT_PLAN_V1_WRITE_FORBIDDEN'),
  },
  {
    family: 'plan',
    name: 'plan/contract-other-than-v2',
    title:
      'a plan contract other than ContextReadPlanV2 (here an unknown ContextReadPlanV3) is refused as a V1 write is (D-CTX-57): only V2 is ever written',
    anchor: 'contextreadplanv1-compatibility',
    requirements: ['CAG-013'],
    run: (m) => void m.plan(planParams({ contract: 'ContextReadPlanV3' }), 'CONTEXT_PLAN_V1_WRITE_FORBIDDEN'),
  },
  {
    family: 'plan',
    name: 'plan/planner-before-change-types',
    title:
      'a planner name without its major version is refused before the change types are read (D-CTX-57): CONTEXT_PLAN_INVALID, not CONTEXT_CHANGE_TYPES_REQUIRED',
    anchor: 'planning-through-the-protocol',
    requirements: ['CAG-026', 'PROTO-010'],
    run: (m) => void m.plan(planParams({ planner: 'acme-planner', changeTypes: [] }), 'CONTEXT_PLAN_INVALID'),
  },
  {
    family: 'plan',
    name: 'plan/explicit-selector-unknown',
    title:
      'an explicit selector naming no document of the catalogue or the inventory is refused (D-CTX-57): CONTEXT_SOURCE_DESCRIPTOR_INVALID, no plan is made',
    anchor: 'planning-through-the-protocol',
    requirements: ['CAG-026', 'PROTO-010'],
    run: (m) =>
      void m.plan(planParams({ explicitSelectors: ['missing.md'] }), 'CONTEXT_SOURCE_DESCRIPTOR_INVALID'),
  },
  {
    family: 'plan',
    name: 'plan/seed-before-contract',
    title:
      'the seed is formed before the contract asked for is read (D-CTX-57): a seed of another schemaVersion asking for a V1 plan is CONTEXT_PLAN_INVALID',
    anchor: 'planning-through-the-protocol',
    requirements: ['CAG-002', 'CAG-013'],
    run: (m) =>
      void m.plan(
        planParams({ contract: 'ContextReadPlanV1' }, { schemaVersion: 'IntentSeedV2' }),
        'CONTEXT_PLAN_INVALID',
      ),
  },
  {
    family: 'plan',
    name: 'plan/cache-artifact-name-invalid',
    title:
      'a cache artifact named outside the artifact pattern ("artifact:summary") is refused: no plan is written that its own contract refuses',
    anchor: 'receipts-through-the-protocol',
    requirements: ['CAG-027', 'PROTO-010'],
    run: (m) => void m.plan(planParams({ cacheArtifacts: ['artifact:summary'] }), 'CONTEXT_PLAN_INVALID'),
  },
  {
    family: 'plan',
    name: 'plan/cache-hit',
    title:
      'cache artifacts make a computation-cache hit: status hit, content-identity-match, the artifacts sorted and unique',
    anchor: 'receipts-through-the-protocol',
    requirements: ['CAG-027', 'PROTO-010'],
    run: (m) =>
      void m.plan(planParams({ cacheArtifacts: ['summary-index', 'profile-digest', 'summary-index'] })),
  },
  {
    family: 'plan',
    name: 'plan/low-confidence-full-read',
    title:
      'a low-confidence seed (0.4) is planned as a full read: every readable catalogued document is selected',
    anchor: 'invariants',
    requirements: ['CAG-007', 'CAG-026', 'PROTO-010'],
    run: (m) => void m.plan(planParams({}, { confidence: 0.4 })),
  },
  {
    family: 'plan',
    name: 'plan/fractional-mtime-truncated',
    title:
      'a catalogued ref whose modification time has a fraction of a millisecond is planned with it truncated to whole milliseconds, and its metadataDigest hashes the truncated time',
    anchor: 'receipts-through-the-protocol',
    requirements: ['CAG-026', 'PROTO-010'],
    run: (m) =>
      void m.plan(
        planParams({
          catalogue: contextCatalogueWithRefs('testing.md', {
            ...contextRef('testing.md'),
            path: `${CONTEXT_ROOT}/.agent/shared/testing.md`,
            layer: 'profile-shared',
            mtimeMs: 1795770410000.875,
          }),
        }),
      ),
  },
  {
    family: 'plan',
    name: 'plan/duplicate-ref-first-kept',
    title:
      'a document whose refs list one place twice, with other metadata the second time, is planned with that place once, from its first listing (D-CTX-54)',
    anchor: 'receipts-through-the-protocol',
    requirements: ['CAG-026', 'PROTO-010'],
    run: (m) =>
      void m.plan(
        planParams({
          catalogue: contextCatalogueWithRefs('testing.md', {
            ...contextRef('testing.md'),
            size: 4096,
            mtimeMs: 1795770499000,
          }),
        }),
      ),
  },
];
