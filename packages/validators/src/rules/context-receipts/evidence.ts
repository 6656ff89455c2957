// The observation list of a receipt or a ledger, seen one way (`Evidence`): the correlation and
// success rules of docs/spec/context-acquisition-gate.md#contextreadreceiptv2 and the
// observation-record rules shared by receipts and ledgers (receipt invariants 3-7, ledger 3).
import { satisfiesAt } from '@agent-contracts/engines';
import type { Issue } from '../../issues.js';
import { describeValue } from '../../pointer.js';
import { issue } from '../kit.js';
import {
  type Attempt,
  type Binding,
  type Ledger,
  lt,
  type Observation,
  type PlanObservation,
  type ReceiptV2,
  type Result,
  sameTime,
} from './shared.js';

export const isAttempt = (o: Observation): o is Attempt => o.hookEvent === 'PreToolUse';
export const isResult = (o: Observation): o is Result => o.hookEvent === 'PostToolUse';
export const eventTime = (o: Observation) => (isAttempt(o) ? o.attemptedAt : o.observedAt);
type ResultKind = 'reuse' | 'baseline' | 'read';
export const kindOf = (r: Result): ResultKind =>
  r.reusedObservationId !== null ? 'reuse' : r.outcome === 'baseline-ready' ? 'baseline' : 'read';

/** The document an observation list belongs to, seen the same way for receipts and ledgers. */
interface Evidence {
  readonly binding: Binding;
  readonly observations: readonly Observation[];
  /** `planObservation` of a receipt; `undefined` for a ledger (its clauses do not apply). */
  readonly planObservation: PlanObservation | null | undefined;
  /** Whether delivery-reuse results may satisfy (a receipt with `reuseFrom` set). */
  readonly reuseAllowed: boolean;
}

export const receiptEvidence = (r: ReceiptV2): Evidence => ({
  binding: r.binding,
  observations: r.observations,
  planObservation: r.planObservation,
  reuseAllowed: r.reuseFrom !== null,
});
export const ledgerEvidence = (l: Ledger): Evidence => ({
  binding: l.identity,
  observations: l.observations,
  planObservation: undefined,
  reuseAllowed: false,
});

const matchesPlanCall = (r: Result, p: PlanObservation | null | undefined) =>
  !!p &&
  r.toolCallId === p.toolCallId &&
  sameTime(r.attemptedAt, p.attemptedAt) &&
  sameTime(r.observedAt, p.observedAt);

/** Whether result `index` meets its kind's correlation (receipt invariant 7), epoch/plan aside. */
export function correlated(ev: Evidence, index: number): boolean {
  const r = ev.observations[index] as Result;
  const kind = kindOf(r);
  if (kind === 'read') {
    const attempts = ev.observations
      .slice(0, index)
      .filter(
        (o): o is Attempt => isAttempt(o) && o.toolCallId === r.toolCallId && o.sourceId === r.sourceId,
      );
    if (attempts.length !== 1) return false;
    const a = attempts[0]!;
    return (
      a.contextEpoch === r.contextEpoch &&
      a.planId === r.planId &&
      sameTime(a.attemptedAt, r.attemptedAt) &&
      (a.argsDigest === null || r.argsDigest === null || a.argsDigest === r.argsDigest)
    );
  }
  if (ev.planObservation === undefined)
    return kind === 'baseline' ? r.sourceKind === 'profile-baseline' : true;
  if (!matchesPlanCall(r, ev.planObservation)) return false;
  return kind === 'baseline' ? r.sourceKind === 'profile-baseline' : true;
}

/** The success rule (the engines' `satisfiesAt`, its one statement) for result `index` of the evidence. */
export const satisfies = (ev: Evidence, index: number): boolean =>
  satisfiesAt(ev.observations, index, ev.reuseAllowed);

/** Index of the latest record of every source: the last correlated result with its `sourceId`. */
export function latestIndex(ev: Evidence): Map<string, number> {
  const latest = new Map<string, number>();
  ev.observations.forEach((o, i) => {
    if (isResult(o) && o.correlationValid) latest.set(o.sourceId, i);
  });
  return latest;
}

/** The outcome the classification table gives, or the allowed outcomes of row 7. */
function expectedOutcomes(r: Result): string[] {
  if (!r.activeRootMatch) return ['wrong-root'];
  if (!r.correlationValid) return ['invalid'];
  if (!r.observable) return ['unobservable'];
  if (!r.transportSuccess) return ['failed'];
  if (!r.sourceRefsMatch || !r.schemaMatch || !r.targetMatch) return ['invalid'];
  if (!r.successful) return ['failed'];
  const kind = kindOf(r);
  if (kind === 'reuse') return ['observed-success', 'baseline-ready'];
  return [kind === 'baseline' ? 'baseline-ready' : 'observed-success'];
}

export function duplicateIssues(ev: Evidence, rule: string): Issue[] {
  const seen = new Map<string, number>();
  const out: Issue[] = [];
  ev.observations.forEach((o, i) => {
    const first = seen.get(o.observationId);
    if (first === undefined) seen.set(o.observationId, i);
    else
      out.push(
        issue(
          'CONTEXT_OBSERVATION_DUPLICATE',
          `/observations/${i}/observationId`,
          `observation ${o.observationId} is recorded again at index ${i} (first at ${first}); drop the duplicate, the first record wins.`,
          rule,
        ),
      );
  });
  return out;
}

export function orderIssues(ev: Evidence, rule: string, updatedAt?: string): Issue[] {
  const out: Issue[] = [];
  let previous: string | null = null;
  ev.observations.forEach((o, i) => {
    const t = eventTime(o);
    const field = isAttempt(o) ? 'attemptedAt' : 'observedAt';
    if (previous !== null && lt(t, previous)) {
      out.push(
        issue(
          'CONTEXT_OBSERVATION_ORDER_INVALID',
          `/observations/${i}/${field}`,
          `the event time ${t} of record ${i} is earlier than the previous record's ${previous}; records are appended in event order, so reject the document.`,
          rule,
        ),
      );
    }
    if (isResult(o) && lt(o.observedAt, o.attemptedAt)) {
      out.push(
        issue(
          'CONTEXT_OBSERVATION_ORDER_INVALID',
          `/observations/${i}/observedAt`,
          `result ${i} was observed (${o.observedAt}) before its call was attempted (${o.attemptedAt}); timestamps are event times, never back-filled.`,
          rule,
        ),
      );
    }
    if (updatedAt !== undefined && lt(updatedAt, t)) {
      out.push(
        issue(
          'CONTEXT_OBSERVATION_ORDER_INVALID',
          `/observations/${i}/${field}`,
          `the event time ${t} of record ${i} is after the ledger's updatedAt ${updatedAt}; a write cannot record a later event.`,
          rule,
        ),
      );
    }
    previous = t;
  });
  return out;
}

export function flagIssues(ev: Evidence, rule: string): Issue[] {
  const out: Issue[] = [];
  const b = ev.binding;
  ev.observations.forEach((o, i) => {
    if (!isResult(o)) return;
    const at = (f: string) => `/observations/${i}/${f}`;
    const rootMatch = o.activeRoot === b.activeRoot;
    if (o.activeRootMatch !== rootMatch) {
      out.push(
        issue(
          'CONTEXT_OBSERVATION_FLAGS_INCONSISTENT',
          at('activeRootMatch'),
          `activeRootMatch is ${o.activeRootMatch} but the record's activeRoot ${describeValue(o.activeRoot)} ${rootMatch ? 'equals' : 'differs from'} the binding's; recompute the flag from the event.`,
          rule,
        ),
      );
    }
    const idsMatch = o.contextEpoch === b.contextEpoch && o.planId === b.planId;
    // A claimed correlation with the wrong epoch or plan is a wrong flag; a claimed correlation
    // that fails only the kind's correlation is CONTEXT_POST_TOOL_USE_UNCORRELATED.
    if (o.correlationValid && !idsMatch) {
      out.push(
        issue(
          'CONTEXT_OBSERVATION_FLAGS_INCONSISTENT',
          at('correlationValid'),
          `correlationValid is true but the record carries epoch ${describeValue(o.contextEpoch)} / plan ${o.planId}, not the binding's ${describeValue(b.contextEpoch)} / ${b.planId}; set it false.`,
          rule,
        ),
      );
    } else if (!o.correlationValid && idsMatch && correlated(ev, i)) {
      out.push(
        issue(
          'CONTEXT_OBSERVATION_FLAGS_INCONSISTENT',
          at('correlationValid'),
          'correlationValid is false although the epoch, plan and tool-call correlation all hold; recompute the flag from the event.',
          rule,
        ),
      );
    }
    if (o.successful && !o.bodyObserved) {
      out.push(
        issue(
          'CONTEXT_OBSERVATION_FLAGS_INCONSISTENT',
          at('successful'),
          'successful is true but bodyObserved is false; a result without the source body is not a success.',
          rule,
        ),
      );
    }
    if (o.reusedObservationId !== null && !o.cache) {
      out.push(
        issue(
          'CONTEXT_OBSERVATION_FLAGS_INCONSISTENT',
          at('cache'),
          'a delivery-reuse record (reusedObservationId set) must have cache: true.',
          rule,
        ),
      );
    }
  });
  return out;
}

export function outcomeIssues(ev: Evidence, rule: string): Issue[] {
  const out: Issue[] = [];
  ev.observations.forEach((o, i) => {
    if (!isResult(o)) return;
    const expected = expectedOutcomes(o);
    if (!expected.includes(o.outcome)) {
      out.push(
        issue(
          'CONTEXT_OBSERVATION_OUTCOME_INCONSISTENT',
          `/observations/${i}/outcome`,
          `outcome is ${describeValue(o.outcome)} but the classification table gives ${expected.join(' or ')} for the record's flags; reclassify the outcome.`,
          rule,
        ),
      );
    }
  });
  return out;
}

export function uncorrelatedIssues(ev: Evidence, rule: string): Issue[] {
  const out: Issue[] = [];
  ev.observations.forEach((o, i) => {
    if (!isResult(o)) return;
    const kind = kindOf(o);
    if (ev.planObservation === null && kind !== 'read') {
      out.push(
        issue(
          'CONTEXT_POST_TOOL_USE_UNCORRELATED',
          `/observations/${i}`,
          `a receipt with planObservation null has no ${kind} results: there is no observed plan call to pin them to; drop the record.`,
          rule,
        ),
      );
      return;
    }
    if (!o.correlationValid) return;
    if (o.contextEpoch !== ev.binding.contextEpoch || o.planId !== ev.binding.planId) return;
    if (correlated(ev, i)) return;
    const why =
      kind === 'read'
        ? 'it needs exactly one earlier PreToolUse record with the same toolCallId and sourceId, epoch, plan and attemptedAt, and compatible argsDigest'
        : kind === 'baseline'
          ? 'a baseline result needs sourceKind profile-baseline and the toolCallId, attemptedAt and observedAt of planObservation'
          : 'a reuse result needs the toolCallId, attemptedAt and observedAt of planObservation';
    out.push(
      issue(
        'CONTEXT_POST_TOOL_USE_UNCORRELATED',
        `/observations/${i}/correlationValid`,
        `result ${i} claims correlationValid but is not correlated: ${why}. Record it with correlationValid: false; it satisfies nothing.`,
        rule,
      ),
    );
  });
  return out;
}
