// Semantic rules of ContextSourceObservationLedgerV1
// (docs/spec/context-acquisition-gate.md#contextsourceobservationledgerv1).
import type { Issue } from '../../issues.js';
import { describeValue } from '../../pointer.js';
import { issue, semanticRule } from '../kit.js';
import type { SemanticRule } from '../types.js';
import {
  duplicateIssues,
  flagIssues,
  isResult,
  latestIndex,
  ledgerEvidence,
  orderIssues,
  outcomeIssues,
  satisfies,
  uncorrelatedIssues,
} from './evidence.js';
import { isSortedUnique, LEDGER, type Ledger, type Result, sameList, show } from './shared.js';

const ledgerRule = (
  code: string,
  description: string,
  check: (l: Ledger, rule: string) => Issue[],
): SemanticRule =>
  semanticRule<Ledger>(code, 'ContextSourceObservationLedgerV1', LEDGER, description, (l) =>
    check(l, LEDGER),
  );

export const LEDGER_RULES: SemanticRule[] = [
  ledgerRule('CONTEXT_OBSERVATION_DUPLICATE', 'No two ledger records share an observationId.', (l, rule) =>
    duplicateIssues(ledgerEvidence(l), rule),
  ),
  ledgerRule(
    'CONTEXT_OBSERVATION_ORDER_INVALID',
    'Ledger event times are non-decreasing, every result has attemptedAt <= observedAt, and no event is after updatedAt.',
    (l, rule) => orderIssues(ledgerEvidence(l), rule, l.updatedAt),
  ),
  ledgerRule(
    'CONTEXT_OBSERVATION_FLAGS_INCONSISTENT',
    "Ledger result flags state the facts of the record against the ledger's identity.",
    (l, rule) => flagIssues(ledgerEvidence(l), rule),
  ),
  ledgerRule(
    'CONTEXT_OBSERVATION_OUTCOME_INCONSISTENT',
    "Every ledger result's outcome is the one the classification table gives.",
    (l, rule) => outcomeIssues(ledgerEvidence(l), rule),
  ),
  ledgerRule(
    'CONTEXT_POST_TOOL_USE_UNCORRELATED',
    'A ledger read result claiming correlationValid has exactly one matching earlier attempt (baseline results are exempt).',
    (l, rule) => uncorrelatedIssues(ledgerEvidence(l), rule),
  ),
  ledgerRule(
    'CONTEXT_SOURCE_OBSERVATION_IDENTITY_MISMATCH',
    "Every record carries the identity's contextEpoch and planId, and its activeRoot unless it is a wrong-root result.",
    (l, rule) => {
      const out: Issue[] = [];
      l.observations.forEach((o, i) => {
        const field =
          o.contextEpoch !== l.identity.contextEpoch
            ? 'contextEpoch'
            : o.planId !== l.identity.planId
              ? 'planId'
              : o.activeRoot !== l.identity.activeRoot && !(isResult(o) && o.outcome === 'wrong-root')
                ? 'activeRoot'
                : null;
        if (field)
          out.push(
            issue(
              'CONTEXT_SOURCE_OBSERVATION_IDENTITY_MISMATCH',
              `/observations/${i}/${field}`,
              `record ${i} carries ${field} ${describeValue(o[field])}, not the ledger identity's; the record belongs to another binding: drop it.`,
              rule,
            ),
          );
      });
      return out;
    },
  ),
  ledgerRule(
    'CONTEXT_SOURCE_OBSERVATION_REUSE_RECORD',
    'The ledger holds no delivery-reuse records.',
    (l, rule) => {
      const out: Issue[] = [];
      l.observations.forEach((o, i) => {
        if (isResult(o) && o.reusedObservationId !== null)
          out.push(
            issue(
              'CONTEXT_SOURCE_OBSERVATION_REUSE_RECORD',
              `/observations/${i}/reusedObservationId`,
              'a delivery-reuse record is in the ledger; drop it: reuse lives in receipts only, the ledger holds witnessed hook events.',
              rule,
            ),
          );
      });
      return out;
    },
  ),
  ledgerRule(
    'CONTEXT_SOURCE_OBSERVATION_FOLD_NOT_DERIVED',
    "fold.sources is sorted and unique, each entry names its source's latest record and the success rule's verdict, and the satisfied/missing lists partition the entries.",
    (l, rule) => {
      if (l.fold === null) return [];
      const fold = l.fold;
      const fail = (path: string, message: string) => [
        issue('CONTEXT_SOURCE_OBSERVATION_FOLD_NOT_DERIVED', path, `${message}; recompute the fold.`, rule),
      ];
      const ids = fold.sources.map((s) => s.sourceId);
      if (!isSortedUnique(ids))
        return fail('/fold/sources', 'fold.sources is not sorted by sourceId and unique');
      const ev = ledgerEvidence(l);
      const latest = latestIndex(ev);
      for (const [k, entry] of fold.sources.entries()) {
        const i = latest.get(entry.sourceId);
        const rec = i === undefined ? undefined : (l.observations[i] as Result);
        const expected = {
          observationId: rec?.observationId ?? null,
          resultDigest: rec?.resultDigest ?? null,
          satisfied: i !== undefined && satisfies(ev, i),
        };
        for (const key of ['observationId', 'resultDigest', 'satisfied'] as const) {
          if (entry[key] !== expected[key])
            return fail(
              `/fold/sources/${k}/${key}`,
              `the fold entry of ${entry.sourceId} has ${key} ${describeValue(entry[key])}, but its latest record gives ${describeValue(expected[key])}`,
            );
        }
      }
      const sat = fold.sources.filter((s) => s.satisfied).map((s) => s.sourceId);
      const miss = fold.sources.filter((s) => !s.satisfied).map((s) => s.sourceId);
      if (!sameList(fold.satisfiedSourceIds, sat))
        return fail('/fold/satisfiedSourceIds', `fold.satisfiedSourceIds must be ${show(sat)}`);
      if (!sameList(fold.missingSourceIds, miss))
        return fail('/fold/missingSourceIds', `fold.missingSourceIds must be ${show(miss)}`);
      return [];
    },
  ),
];

/** Semantic rules of this area's contracts (one per code and contract), in spec order. */
