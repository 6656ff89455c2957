// Semantic rules of ContextReadReceiptV2 (docs/spec/context-acquisition-gate.md#contextreadreceiptv2).
// Digest and derived-id fields are not rules here: their DigestRules carry the spec's codes.
import type { Issue } from '../../issues.js';
import { describeValue } from '../../pointer.js';
import { issue, semanticRule } from '../kit.js';
import type { SemanticRule } from '../types.js';
import {
  duplicateIssues,
  eventTime,
  flagIssues,
  isAttempt,
  isResult,
  kindOf,
  latestIndex,
  orderIssues,
  outcomeIssues,
  receiptEvidence,
  satisfies,
  uncorrelatedIssues,
} from './evidence.js';
import {
  type ContentIdentity,
  equalJson,
  lt,
  PAGE,
  RECEIPT_V2,
  type ReceiptV2,
  type Result,
  sameList,
  sameTime,
  show,
  sortedCopy,
} from './shared.js';

export const COMPLETE = new Set(['relevant-complete', 'completed']);
export const FALLBACK_STATUSES = new Set(['unverified', 'stale', 'blocked']);

const receiptRule = (
  code: string,
  anchor: string,
  description: string,
  check: (r: ReceiptV2) => Issue[],
): SemanticRule => semanticRule<ReceiptV2>(code, 'ContextReadReceiptV2', anchor, description, check);

/** The mandatory set M of a receipt: satisfied ∪ missing. */
export const mandatoryOf = (r: { satisfiedSourceIds: string[]; missingSourceIds: string[] }) =>
  sortedCopy([...new Set([...r.satisfiedSourceIds, ...r.missingSourceIds])]);

/** Derived satisfied/missing lists of a V2 receipt. */
function derivedLists(r: ReceiptV2): { satisfied: string[]; missing: string[] } {
  const m = mandatoryOf(r);
  if (r.verificationMode !== 'structured-plan' || r.status === 'stale' || r.status === 'blocked') {
    return { satisfied: [], missing: m };
  }
  const ev = receiptEvidence(r);
  const latest = latestIndex(ev);
  const satisfied = m.filter((s) => {
    const i = latest.get(s);
    return i !== undefined && satisfies(ev, i);
  });
  return { satisfied, missing: m.filter((s) => !satisfied.includes(s)) };
}

/** Derived `sourceIdentities` of a V2 receipt. */
function derivedIdentities(r: ReceiptV2): Array<{ sourceId: string; contentIdentity: ContentIdentity }> {
  const ev = receiptEvidence(r);
  const out: Array<{ sourceId: string; contentIdentity: ContentIdentity }> = [];
  for (const [sourceId, i] of latestIndex(ev)) {
    if (satisfies(ev, i))
      out.push({ sourceId, contentIdentity: (r.observations[i] as Result).contentIdentity! });
  }
  return out.sort((a, b) => (a.sourceId < b.sourceId ? -1 : a.sourceId > b.sourceId ? 1 : 0));
}

export const RECEIPT_V2_RULES: SemanticRule[] = [
  receiptRule(
    'CONTEXT_OBSERVATION_DUPLICATE',
    RECEIPT_V2,
    'No two observation records of a receipt share an observationId.',
    (r) => duplicateIssues(receiptEvidence(r), RECEIPT_V2),
  ),
  receiptRule(
    'CONTEXT_OBSERVATION_ORDER_INVALID',
    RECEIPT_V2,
    'Event times of the records are non-decreasing in array order, and every result has attemptedAt <= observedAt.',
    (r) => orderIssues(receiptEvidence(r), RECEIPT_V2),
  ),
  receiptRule(
    'CONTEXT_OBSERVATION_FLAGS_INCONSISTENT',
    `${PAGE}#observation-records`,
    'activeRootMatch and correlationValid state the facts of the record against the binding; successful implies bodyObserved; a reuse record has cache: true.',
    (r) => flagIssues(receiptEvidence(r), `${PAGE}#observation-records`),
  ),
  receiptRule(
    'CONTEXT_OBSERVATION_OUTCOME_INCONSISTENT',
    `${PAGE}#observation-records`,
    "Every result record's outcome is the one the outcome classification table gives for its flags and kind.",
    (r) => outcomeIssues(receiptEvidence(r), `${PAGE}#observation-records`),
  ),
  receiptRule(
    'CONTEXT_POST_TOOL_USE_UNCORRELATED',
    RECEIPT_V2,
    "A result claiming correlationValid with the binding's epoch and plan meets its kind's correlation (one earlier attempt by toolCallId and sourceId, or the plan observation); without planObservation there are no baseline or reuse results.",
    (r) => uncorrelatedIssues(receiptEvidence(r), RECEIPT_V2),
  ),
  receiptRule(
    'CONTEXT_POST_TOOL_USE_CONFLICT',
    RECEIPT_V2,
    'If two result records share toolCallId and sourceId, the receipt is unverified, stale or blocked.',
    (r) => {
      if (FALLBACK_STATUSES.has(r.status)) return [];
      const seen = new Set<string>();
      for (const o of r.observations) {
        if (!isResult(o)) continue;
        const key = `${o.toolCallId}\u0000${o.sourceId}`;
        if (seen.has(key)) {
          return [
            issue(
              'CONTEXT_POST_TOOL_USE_CONFLICT',
              '/status',
              `two PostToolUse records exist for tool call ${describeValue(o.toolCallId)} and source ${o.sourceId}, yet status is ${r.status}; conflicting evidence keeps the receipt unverified.`,
              RECEIPT_V2,
            ),
          ];
        }
        seen.add(key);
      }
      return [];
    },
  ),
  receiptRule(
    'CONTEXT_RECEIPT_SATISFIED_NOT_DERIVED',
    `${PAGE}#derived-fields`,
    'satisfiedSourceIds and missingSourceIds are derived from the records by the success rule (nothing for fallback, stale or blocked receipts), sorted, disjoint, and cover a non-empty M.',
    (r) => {
      const rule = `${PAGE}#derived-fields`;
      const out: Issue[] = [];
      const overlap = r.satisfiedSourceIds.filter((s) => r.missingSourceIds.includes(s));
      if (mandatoryOf(r).length === 0) {
        out.push(
          issue(
            'CONTEXT_RECEIPT_SATISFIED_NOT_DERIVED',
            '/missingSourceIds',
            "satisfiedSourceIds and missingSourceIds are both empty; together they are the plan's mandatory sources, which are never empty.",
            rule,
          ),
        );
        return out;
      }
      if (overlap.length) {
        out.push(
          issue(
            'CONTEXT_RECEIPT_SATISFIED_NOT_DERIVED',
            '/missingSourceIds',
            `${show(overlap)} are both satisfied and missing; the lists are disjoint.`,
            rule,
          ),
        );
        return out;
      }
      const { satisfied, missing } = derivedLists(r);
      if (!sameList(r.satisfiedSourceIds, satisfied)) {
        out.push(
          issue(
            'CONTEXT_RECEIPT_SATISFIED_NOT_DERIVED',
            '/satisfiedSourceIds',
            `satisfiedSourceIds is ${show(r.satisfiedSourceIds)} but the records derive ${show(satisfied)}; recompute from the records, never trust supplied lists.`,
            rule,
          ),
        );
      }
      if (!sameList(r.missingSourceIds, missing)) {
        out.push(
          issue(
            'CONTEXT_RECEIPT_SATISFIED_NOT_DERIVED',
            '/missingSourceIds',
            `missingSourceIds is ${show(r.missingSourceIds)} but the records derive ${show(missing)} (sorted); recompute from the records.`,
            rule,
          ),
        );
      }
      return out;
    },
  ),
  receiptRule(
    'CONTEXT_RECEIPT_SOURCE_IDENTITIES_NOT_DERIVED',
    `${PAGE}#derived-fields`,
    'sourceIdentities holds, sorted by sourceId, the contentIdentity of every source whose latest record satisfies the success rule.',
    (r) => {
      const expected = derivedIdentities(r);
      if (equalJson(r.sourceIdentities, expected)) return [];
      return [
        issue(
          'CONTEXT_RECEIPT_SOURCE_IDENTITIES_NOT_DERIVED',
          '/sourceIdentities',
          `sourceIdentities names ${show(r.sourceIdentities.map((s) => s.sourceId))} but the satisfying latest records give ${show(expected.map((s) => s.sourceId))} (with their contentIdentity, sorted); recompute it.`,
          `${PAGE}#derived-fields`,
        ),
      ];
    },
  ),
  receiptRule(
    'CONTEXT_RECEIPT_DELIVERY_NOT_DERIVED',
    `${PAGE}#derived-fields`,
    'delivery (bodyObserved, reused, eligible, reasonCode) is derived from sourceIdentities, reuseFrom, status and hostSessionId.',
    (r) => {
      const m = mandatoryOf(r);
      const ids = new Set(r.sourceIdentities.map((s) => s.sourceId));
      const bodyObserved = m.every((s) => ids.has(s));
      const reused = r.reuseFrom !== null;
      const eligible = COMPLETE.has(r.status) && bodyObserved && r.hostSessionId !== null;
      const reasonCode = reused
        ? 'same-session-epoch-content-observed'
        : r.status === 'stale'
          ? 'receipt-stale'
          : r.status === 'blocked'
            ? 'receipt-blocked'
            : r.status === 'unverified'
              ? 'receipt-unverified'
              : r.hostSessionId === null
                ? 'host-session-unobservable'
                : eligible
                  ? 'current-session-content-observed'
                  : 'body-read-required';
      const expected = { bodyObserved, reused, eligible, reasonCode } as const;
      const out: Issue[] = [];
      for (const key of ['bodyObserved', 'reused', 'eligible', 'reasonCode'] as const) {
        if (r.delivery[key] !== expected[key]) {
          out.push(
            issue(
              'CONTEXT_RECEIPT_DELIVERY_NOT_DERIVED',
              `/delivery/${key}`,
              `delivery.${key} is ${describeValue(r.delivery[key])} but derives to ${describeValue(expected[key])}; recompute the delivery state.`,
              `${PAGE}#derived-fields`,
            ),
          );
        }
      }
      return out;
    },
  ),
  receiptRule(
    'CONTEXT_RECEIPT_STATUS_NOT_DERIVED',
    `${PAGE}#derived-fields`,
    'A structured-plan receipt that is not stale, blocked or unverified has the derived status.',
    (r) => {
      if (r.verificationMode !== 'structured-plan' || FALLBACK_STATUSES.has(r.status)) return [];
      const m = mandatoryOf(r);
      const results = r.observations.filter(isResult);
      let expected: string[];
      if (r.missingSourceIds.length === 0 && m.length > 0) expected = ['relevant-complete', 'completed'];
      else if (r.fullRead) expected = ['escalated-full'];
      else if (r.observations.some(isAttempt) || results.some((o) => kindOf(o) === 'read'))
        expected = ['attempted'];
      else if (results.some((o) => kindOf(o) === 'baseline')) expected = ['baseline-ready'];
      else expected = ['planned'];
      if (expected.includes(r.status)) return [];
      return [
        issue(
          'CONTEXT_RECEIPT_STATUS_NOT_DERIVED',
          '/status',
          `status is ${r.status} but the records and lists derive ${expected.join(' or ')}; recompute the status.`,
          `${PAGE}#derived-fields`,
        ),
      ];
    },
  ),
  receiptRule(
    'CONTEXT_RECEIPT_COMPLETION_UNPROVEN',
    RECEIPT_V2,
    'A receipt is relevant-complete or completed only with structured-plan evidence, an observed plan, nothing missing and something satisfied; completedAt is set iff complete, consumedAt iff completed.',
    (r) => {
      const rule = RECEIPT_V2;
      const out: Issue[] = [];
      const complete = COMPLETE.has(r.status);
      if (
        complete &&
        (r.verificationMode !== 'structured-plan' ||
          r.planObservation === null ||
          r.missingSourceIds.length > 0 ||
          r.satisfiedSourceIds.length === 0)
      ) {
        out.push(
          issue(
            'CONTEXT_RECEIPT_COMPLETION_UNPROVEN',
            '/status',
            `status ${r.status} needs structured-plan evidence with an observed plan, no missing source and at least one satisfied source; treat the receipt as incomplete and read the missing sources.`,
            rule,
          ),
        );
      }
      if (complete !== (r.completedAt !== null)) {
        out.push(
          issue(
            'CONTEXT_RECEIPT_COMPLETION_UNPROVEN',
            '/completedAt',
            `completedAt must be set exactly when the status is relevant-complete or completed (status ${r.status}, completedAt ${describeValue(r.completedAt)}).`,
            rule,
          ),
        );
      }
      if ((r.status === 'completed') !== (r.consumedAt !== null)) {
        out.push(
          issue(
            'CONTEXT_RECEIPT_COMPLETION_UNPROVEN',
            '/consumedAt',
            `consumedAt must be set exactly when the status is completed (status ${r.status}, consumedAt ${describeValue(r.consumedAt)}).`,
            rule,
          ),
        );
      }
      return out;
    },
  ),
  receiptRule(
    'CONTEXT_RECEIPT_FALLBACK_COMPLETE',
    RECEIPT_V2,
    'A path-observable or instruction-only receipt is unverified, stale or blocked, with no plan observation, no completion and nothing satisfied; a structured-plan receipt has a plan observation and was created when it was observed.',
    (r) => {
      const rule = RECEIPT_V2;
      const fail = (path: string, message: string) => [
        issue('CONTEXT_RECEIPT_FALLBACK_COMPLETE', path, message, rule),
      ];
      if (r.verificationMode !== 'structured-plan') {
        const mode = r.verificationMode;
        if (!FALLBACK_STATUSES.has(r.status))
          return fail('/status', `a ${mode} receipt cannot be ${r.status}; a fallback stays unverified.`);
        if (r.planObservation !== null)
          return fail('/planObservation', `a ${mode} receipt has no plan observation; set it to null.`);
        if (r.completedAt !== null)
          return fail('/completedAt', `a ${mode} receipt never completes; completedAt must be null.`);
        if (r.consumedAt !== null)
          return fail('/consumedAt', `a ${mode} receipt is never consumed; consumedAt must be null.`);
        if (r.satisfiedSourceIds.length)
          return fail(
            '/satisfiedSourceIds',
            `a ${mode} receipt satisfies nothing; satisfiedSourceIds must be [].`,
          );
        return [];
      }
      if (r.planObservation === null)
        return fail(
          '/planObservation',
          'a structured-plan receipt records the PostToolUse of its plan call; planObservation is required.',
        );
      if (!sameTime(r.createdAt, r.planObservation.observedAt))
        return fail(
          '/createdAt',
          `a structured-plan receipt is created when its plan is observed: createdAt ${r.createdAt} must equal planObservation.observedAt ${r.planObservation.observedAt}.`,
        );
      return [];
    },
  ),
  receiptRule(
    'CONTEXT_RECEIPT_TIMESTAMP_BACKFILLED',
    RECEIPT_V2,
    'Timestamps are event times in chain order: the plan call, then attempts, every event and escalation within [createdAt, updatedAt], completion after the last mandatory result, completedAt <= consumedAt <= updatedAt.',
    (r) => {
      const rule = RECEIPT_V2;
      const out: Issue[] = [];
      const add = (path: string, message: string) =>
        out.push(
          issue(
            'CONTEXT_RECEIPT_TIMESTAMP_BACKFILLED',
            path,
            `${message}; timestamps are the event times, never back-filled.`,
            rule,
          ),
        );
      const p = r.planObservation;
      if (p && lt(p.observedAt, p.attemptedAt))
        add(
          '/planObservation/observedAt',
          `the plan call was observed (${p.observedAt}) before it was attempted (${p.attemptedAt})`,
        );
      r.observations.forEach((o, i) => {
        const field = isAttempt(o) ? 'attemptedAt' : 'observedAt';
        const t = eventTime(o);
        if (p && isAttempt(o) && lt(o.attemptedAt, p.observedAt)) {
          add(
            `/observations/${i}/attemptedAt`,
            `attempt ${i} (${o.attemptedAt}) precedes the plan observation (${p.observedAt}) it is bound to`,
          );
        } else if (lt(t, r.createdAt) || lt(r.updatedAt, t)) {
          add(
            `/observations/${i}/${field}`,
            `record ${i}'s event time ${t} lies outside [createdAt ${r.createdAt}, updatedAt ${r.updatedAt}]`,
          );
        }
      });
      r.escalations.forEach((e, i) => {
        if (lt(e.observedAt, r.createdAt) || lt(r.updatedAt, e.observedAt))
          add(
            `/escalations/${i}/observedAt`,
            `escalation ${i} at ${e.observedAt} lies outside [createdAt ${r.createdAt}, updatedAt ${r.updatedAt}]`,
          );
      });
      if (r.completedAt !== null) {
        const latest = latestIndex(receiptEvidence(r));
        for (const s of mandatoryOf(r)) {
          const i = latest.get(s);
          const rec = i === undefined ? undefined : (r.observations[i] as Result);
          if (rec && lt(r.completedAt, rec.observedAt)) {
            add(
              '/completedAt',
              `completedAt ${r.completedAt} is earlier than the latest result of ${s} (${rec.observedAt})`,
            );
            break;
          }
        }
        if (r.consumedAt !== null && lt(r.consumedAt, r.completedAt))
          add('/consumedAt', `consumedAt ${r.consumedAt} is earlier than completedAt ${r.completedAt}`);
        else if (lt(r.updatedAt, r.consumedAt ?? r.completedAt))
          add(
            r.consumedAt !== null ? '/consumedAt' : '/completedAt',
            `the completion times are later than updatedAt ${r.updatedAt}`,
          );
      } else if (r.consumedAt !== null && lt(r.updatedAt, r.consumedAt)) {
        add('/consumedAt', `consumedAt ${r.consumedAt} is later than updatedAt ${r.updatedAt}`);
      }
      return out;
    },
  ),
  receiptRule(
    'CONTEXT_RECEIPT_STALE_UNRECORDED',
    RECEIPT_V2,
    'replanCount counts the replan-required escalations; the receipt is stale iff there is one, and a stale receipt has a lastError and ends with a replan-required escalation.',
    (r) => {
      const rule = RECEIPT_V2;
      const replans = r.escalations.filter((e) => e.action === 'replan-required').length;
      if (r.replanCount !== replans)
        return [
          issue(
            'CONTEXT_RECEIPT_STALE_UNRECORDED',
            '/replanCount',
            `replanCount is ${r.replanCount} but ${replans} escalations have action replan-required; they must agree.`,
            rule,
          ),
        ];
      if ((r.status === 'stale') !== replans > 0)
        return [
          issue(
            'CONTEXT_RECEIPT_STALE_UNRECORDED',
            '/status',
            r.status === 'stale'
              ? 'a stale receipt records the replan-required escalation that made it stale; none is recorded.'
              : `a replan-required escalation is recorded, so the receipt is stale, not ${r.status}.`,
            rule,
          ),
        ];
      if (r.status === 'stale' && r.lastError === null)
        return [
          issue(
            'CONTEXT_RECEIPT_STALE_UNRECORDED',
            '/lastError',
            'a stale receipt records its lastError.',
            rule,
          ),
        ];
      const last = r.escalations.length - 1;
      if (r.status === 'stale' && r.escalations[last]!.action !== 'replan-required')
        return [
          issue(
            'CONTEXT_RECEIPT_STALE_UNRECORDED',
            `/escalations/${last}/action`,
            'the last escalation of a stale receipt is the replan-required one that made it stale; nothing follows it (stale is absorbing).',
            rule,
          ),
        ];
      return [];
    },
  ),
  receiptRule(
    'CONTEXT_RECEIPT_FULL_READ_REASON_INVALID',
    RECEIPT_V2,
    'fullReadReason is null iff fullRead is false.',
    (r) =>
      (r.fullReadReason === null) === !r.fullRead
        ? []
        : [
            issue(
              'CONTEXT_RECEIPT_FULL_READ_REASON_INVALID',
              '/fullReadReason',
              `fullRead is ${r.fullRead} but fullReadReason is ${describeValue(r.fullReadReason)}; copy both from the plan.`,
              RECEIPT_V2,
            ),
          ],
  ),
  receiptRule(
    'CONTEXT_RECEIPT_REUSE_INCONSISTENT',
    RECEIPT_V2,
    'Reuse results exist only with reuseFrom; reuseFrom names another invocation of the same plan content and needs a host session.',
    (r) => {
      const rule = RECEIPT_V2;
      const out: Issue[] = [];
      if (r.reuseFrom === null) {
        r.observations.forEach((o, i) => {
          if (isResult(o) && o.reusedObservationId !== null)
            out.push(
              issue(
                'CONTEXT_RECEIPT_REUSE_INCONSISTENT',
                `/observations/${i}/reusedObservationId`,
                'a reuse result is recorded but reuseFrom is null; reject the reuse and read the body.',
                rule,
              ),
            );
        });
        return out;
      }
      if (r.reuseFrom.planContentId !== r.binding.planContentId)
        out.push(
          issue(
            'CONTEXT_RECEIPT_REUSE_INCONSISTENT',
            '/reuseFrom/planContentId',
            'delivery reuse needs the same plan content: reuseFrom.planContentId must equal binding.planContentId.',
            rule,
          ),
        );
      if (r.reuseFrom.planId === r.binding.planId)
        out.push(
          issue(
            'CONTEXT_RECEIPT_REUSE_INCONSISTENT',
            '/reuseFrom/planId',
            "reuseFrom.planId names this receipt's own plan; delivery reuse reuses another invocation.",
            rule,
          ),
        );
      if (r.hostSessionId === null)
        out.push(
          issue(
            'CONTEXT_RECEIPT_REUSE_INCONSISTENT',
            '/hostSessionId',
            'delivery reuse needs an observable host session; hostSessionId is null, so read the bodies.',
            rule,
          ),
        );
      return out;
    },
  ),
];
