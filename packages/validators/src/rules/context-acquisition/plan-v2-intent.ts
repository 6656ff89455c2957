import type { ContextReadPlanV2 } from '@agent-contracts/schemas';
import { describeValue } from '../../pointer.js';
import { reportingRule } from '../kit.js';
import type { SemanticRule } from '../types.js';
import { BUCKETS, derivedFullRead, sourcesOf } from './plan-v2-derive.js';
import { checkActionEnvelope, timeKey, V2, V2_INVARIANTS } from './shared.js';

/** Semantic rules of ContextReadPlanV2, invariants 1 to 7, in invariant order. */
export const PLAN_V2_INTENT_RULES: readonly SemanticRule[] = [
  reportingRule<ContextReadPlanV2>(
    'CONTEXT_EPOCH_MISMATCH',
    V2,
    V2_INVARIANTS,
    'Invariant 1: identity.contextEpoch equals identity.intentSeed.contextEpoch.',
    (p, report) => {
      if (p.identity.contextEpoch !== p.identity.intentSeed.contextEpoch)
        report(
          '/identity/contextEpoch',
          `identity.contextEpoch ${describeValue(p.identity.contextEpoch)} differs from the embedded seed's contextEpoch ${describeValue(p.identity.intentSeed.contextEpoch)}; plan again from the current seed.`,
        );
    },
  ),
  reportingRule<ContextReadPlanV2>(
    'CONTEXT_INTENT_MISMATCH',
    V2,
    V2_INVARIANTS,
    'Invariant 2: identity.finalIntent equals identity.intentSeed.semantic (D-CTX-11).',
    (p, report) => {
      if (p.identity.finalIntent !== p.identity.intentSeed.semantic)
        report(
          '/identity/finalIntent',
          `finalIntent ${JSON.stringify(p.identity.finalIntent)} differs from the seed's semantic ${JSON.stringify(p.identity.intentSeed.semantic)}; form a new seed for the new intent, then plan.`,
        );
    },
  ),
  reportingRule<ContextReadPlanV2>(
    'CONTEXT_PLAN_CHRONOLOGY_INVALID',
    V2,
    V2_INVARIANTS,
    'Invariant 3: plannedAt is not before identity.intentSeed.createdAt.',
    (p, report) => {
      if (timeKey(p.plannedAt) < timeKey(p.identity.intentSeed.createdAt))
        report(
          '/plannedAt',
          `plannedAt ${p.plannedAt} is before the seed's createdAt ${p.identity.intentSeed.createdAt}; form the seed first, then plan again.`,
        );
    },
  ),
  reportingRule<ContextReadPlanV2>(
    'CONTEXT_CHANGE_TYPES_REQUIRED',
    V2,
    V2_INVARIANTS,
    'Invariant 4: changeTypes is non-empty unless finalIntent is chat or resume, or the plan is (by derivation) a full read.',
    (p, report) => {
      const exempt = p.identity.finalIntent === 'chat' || p.identity.finalIntent === 'resume';
      if (p.changeTypes.length === 0 && !exempt && !derivedFullRead(p))
        report(
          '/changeTypes',
          `changeTypes is empty on a targeted ${JSON.stringify(p.identity.finalIntent)} plan; provide the change types the message asks for, or an explicit full-read request.`,
        );
    },
  ),
  reportingRule<ContextReadPlanV2>(
    'CONTEXT_PLAN_NOT_CANONICAL',
    V2,
    V2_INVARIANTS,
    'Invariant 5: the id and enumeration arrays are sorted and unique, each bucket is sorted by sourceId, and each sourceRefs array is sorted and unique by layer + ":" + path.',
    (p, report) => {
      const strict = (path: string, xs: readonly string[]) => {
        for (let i = 1; i < xs.length; i++) {
          if (!(xs[i - 1]! < xs[i]!)) {
            report(
              `${path}/${i}`,
              `${path} must be sorted ascending (UTF-16 code units) and unique, but item ${i} ${describeValue(xs[i])} ${xs[i - 1] === xs[i] ? 'repeats' : 'sorts before'} item ${i - 1} ${describeValue(xs[i - 1])}; sort and de-duplicate it, then recompute the ids.`,
            );
            return;
          }
        }
      };
      strict('/changeTypes', p.changeTypes);
      strict('/actionEnvelope/allowedActionClasses', p.actionEnvelope.allowedActionClasses);
      strict('/triggeredEscalations', p.triggeredEscalations);
      strict('/mandatorySourceIds', p.mandatorySourceIds);
      strict('/candidateCoverage/cataloguedIds', p.candidateCoverage.cataloguedIds);
      strict('/candidateCoverage/inventoryIds', p.candidateCoverage.inventoryIds);
      for (const [, field] of BUCKETS) {
        const items = p[field] as unknown as Array<{ sourceId: string }>;
        for (let i = 1; i < items.length; i++) {
          if (items[i - 1]!.sourceId > items[i]!.sourceId) {
            report(
              `/${field}/${i}/sourceId`,
              `${field} must be sorted by sourceId, but ${describeValue(items[i]!.sourceId)} sorts before ${describeValue(items[i - 1]!.sourceId)}; sort the bucket, then recompute the ids.`,
            );
            break;
          }
        }
      }
      for (const s of sourcesOf(p)) {
        const keys = s.sourceRefs.map((r) => `${r.layer}:${r.path}`);
        strict(`${s.pointer}/sourceRefs`, keys);
      }
    },
  ),
  reportingRule<ContextReadPlanV2>(
    'CONTEXT_ACTION_ENVELOPE_MISMATCH',
    V2,
    V2_INVARIANTS,
    'Invariant 7: actionEnvelope equals its derivation from finalIntent, changeTypes and the seed riskHint.',
    (p, report) =>
      checkActionEnvelope(
        p.actionEnvelope,
        p.identity.finalIntent,
        p.changeTypes,
        p.identity.intentSeed.riskHint,
        report,
      ),
  ),
];
