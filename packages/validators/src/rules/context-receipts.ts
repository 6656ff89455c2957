// Semantic and cross-document rules of ContextReadReceiptV2, ContextReadReceiptV1,
// ContextReuseDecisionV1 and ContextSourceObservationLedgerV1, and of the bundle kind
// `context-acquisition-chain` (docs/spec/context-acquisition-gate.md). Digest and derived-id
// fields are not rules here: their DigestRules carry the spec's codes.
import { DIGEST_RULES } from '@agent-contracts/schemas';
import type { Issue } from '../issues.js';
import { describeValue } from '../pointer.js';
import { bundleRule, issue } from './kit.js';
import type { BundleRule, ContractDocument, SemanticRule } from './types.js';

const PAGE = 'docs/spec/context-acquisition-gate.md';
const RECEIPT_V2 = `${PAGE}#contextreadreceiptv2`;
const RECEIPT_V1 = `${PAGE}#contextreadreceiptv1`;
const REUSE = `${PAGE}#contextreusedecisionv1`;
const LEDGER = `${PAGE}#contextsourceobservationledgerv1`;
const BUNDLES = `${PAGE}#bundles`;

/** The bundle kind of one ContextAcquisitionGate chain (seed, plan, ledger, receipts, reuse). */
export const CONTEXT_ACQUISITION_CHAIN = 'context-acquisition-chain';

// ---------------------------------------------------------------------------------------------
// Shapes the rules read (documents are schema-valid when rules run)
// ---------------------------------------------------------------------------------------------

type Json = unknown;
interface Binding {
  schemaVersion: 'ContextReadBindingV1';
  contextEpoch: string;
  planId: string;
  planContentId: string;
  activeRoot: string;
  project: string;
}
interface ContentIdentity {
  schemaVersion: string;
  algorithm: string;
  sourceKey: string;
  contractVersion: string;
  digest: string;
  bytes: number;
}
interface Attempt {
  observationId: string;
  hookEvent: 'PreToolUse';
  toolCallId: string;
  sourceId: string;
  sourceKind: string;
  actionClass: string;
  contextEpoch: string;
  planId: string;
  activeRoot: string;
  hostSessionId: string | null;
  argsDigest: string | null;
  attemptedAt: string;
  observedAt: null;
  outcome: 'attempted';
}
interface Result {
  observationId: string;
  hookEvent: 'PostToolUse';
  toolCallId: string;
  sourceId: string;
  sourceKind: string;
  contextEpoch: string;
  planId: string;
  activeRoot: string;
  hostSessionId: string | null;
  argsDigest: string | null;
  attemptedAt: string;
  observedAt: string;
  outcome: string;
  successful: boolean;
  observable: boolean;
  transportSuccess: boolean;
  activeRootMatch: boolean;
  correlationValid: boolean;
  sourceLayer: string;
  sourceRefsMatch: boolean;
  schemaMatch: boolean;
  targetMatch: boolean;
  bodyObserved: boolean;
  cache: boolean;
  reusedObservationId: string | null;
  resultDigest: string | null;
  contentIdentity: ContentIdentity | null;
}
type Observation = Attempt | Result;
interface PlanObservation {
  toolCallId: string;
  attemptedAt: string;
  observedAt: string;
}
interface Escalation {
  trigger: string;
  reasonCode: string;
  observedAt: string;
  action: 'planned' | 'replan-required';
}
interface ReceiptV2 {
  schemaVersion: 'ContextReadReceiptV2';
  receiptId: string;
  binding: Binding;
  host: string;
  hostSessionId: string | null;
  verificationMode: string;
  status: string;
  planObservation: PlanObservation | null;
  observations: Observation[];
  satisfiedSourceIds: string[];
  missingSourceIds: string[];
  fullRead: boolean;
  fullReadReason: string | null;
  escalations: Escalation[];
  replanCount: number;
  lastError: unknown;
  sourceIdentities: Array<{ sourceId: string; contentIdentity: ContentIdentity }>;
  delivery: { bodyObserved: boolean; reused: boolean; eligible: boolean; reasonCode: string };
  reuseFrom: {
    planId: string;
    planContentId: string;
    receiptId: string;
    sourceIdentitiesDigest: string;
  } | null;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
  consumedAt: string | null;
}
interface LegacyObservation {
  sourceId: string | null;
  outcome: string;
  successful: boolean;
  observable: boolean;
  transportSuccess: boolean;
  activeRootMatch: boolean;
  sourceRefsMatch: boolean;
  schemaMatch: boolean;
  targetMatch: boolean;
  correlationValid: boolean;
}
interface ReceiptV1 {
  schemaVersion: 'ContextReadReceiptV1';
  receiptId: string;
  contextEpoch: string;
  planId: string;
  verificationMode: string;
  status: string;
  observations: LegacyObservation[];
  satisfiedSourceIds: string[];
  missingSourceIds: string[];
  completedAt: string | null;
  consumedAt: string | null;
}
interface PriorPlanRef {
  schemaVersion: 'ContextReadPlanV1' | 'ContextReadPlanV2';
  planId: string;
  planContentId: string | null;
  contextEpoch: string;
  activeRoot: string;
  project: string;
}
interface PriorReceiptRef {
  schemaVersion: 'ContextReadReceiptV1' | 'ContextReadReceiptV2';
  receiptId: string;
  planId: string;
  planContentId: string | null;
  contextEpoch: string;
  hostSessionId: string | null;
  verificationMode: string;
  status: string;
  sourceIdentitiesDigest: string | null;
}
interface Decision {
  schemaVersion: 'ContextReuseDecisionV1';
  binding: Binding;
  executionOptimizationMode: string;
  hostSessionId: string | null;
  currentSourceIdentitiesDigest: string | null;
  priorPlan: PriorPlanRef | null;
  priorReceipt: PriorReceiptRef | null;
  computation: { reuse: boolean; reasonCode: string };
  delivery: { reuse: boolean; reasonCode: string };
  reuseFrom: {
    planId: string;
    planContentId: string;
    receiptId: string | null;
    sourceIdentitiesDigest: string | null;
  } | null;
  evaluatedAt: string;
}
interface FoldEntry {
  sourceId: string;
  observationId: string | null;
  resultDigest: string | null;
  satisfied: boolean;
}
interface Ledger {
  schemaVersion: 'ContextSourceObservationLedgerV1';
  ledgerId: string;
  identity: Binding;
  revision: number;
  observations: Observation[];
  fold: { sources: FoldEntry[]; satisfiedSourceIds: string[]; missingSourceIds: string[] } | null;
  updatedAt: string;
}
interface PlanSource {
  sourceId: string;
  kind: string;
  sourceLayer: string;
}
interface PlanV2 {
  schemaVersion: 'ContextReadPlanV2';
  planId: string;
  planContentId: string;
  contextBinding: Binding;
  identity: {
    contextEpoch: string;
    activeRoot: string;
    project: string;
    host: string;
    intentSeed: Json;
  };
  plannedAt: string;
  actionEnvelope: { allowedActionClasses: string[] };
  mandatorySourceIds: string[];
  triggeredEscalations: string[];
  fullRead: boolean;
  fullReadReason: string | null;
  exitCondition: string;
  baselineSources: PlanSource[];
  selectedSources: PlanSource[];
}
interface Seed {
  schemaVersion: 'IntentSeedV1';
  contextEpoch: string;
  createdAt: string;
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/** Sortable key of an RFC 3339 UTC timestamp (`YYYY-MM-DDTHH:MM:SS(.f{1,9})?Z`), exact to 1 ns. */
function timeKey(t: string): string {
  return t.slice(0, 19) + (t[19] === '.' ? t.slice(20, -1).padEnd(9, '0') : '000000000');
}
const lt = (a: string, b: string) => timeKey(a) < timeKey(b);
const le = (a: string, b: string) => timeKey(a) <= timeKey(b);
const sameTime = (a: string, b: string) => timeKey(a) === timeKey(b);

/** Deterministic JSON text with sorted keys, for equality of JSON values (not a digest). */
function canon(value: Json): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canon).join(',')}]`;
  const obj = value as Record<string, Json>;
  return `{${Object.keys(obj)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canon(obj[k])}`)
    .join(',')}}`;
}
const equalJson = (a: Json, b: Json) => canon(a) === canon(b);

const sortedCopy = (list: readonly string[]) => [...list].sort();
const isSortedUnique = (list: readonly string[]) => list.every((v, i) => i === 0 || list[i - 1]! < v);
const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((v, i) => v === b[i]);
const show = (list: readonly string[]) => `[${list.join(', ')}]`;

const sourceIdentitiesRule = DIGEST_RULES.find(
  (r) => r.contract === 'ContextReadReceiptV2' && r.pointer === '/reuseFrom/sourceIdentitiesDigest',
);
/** JCS SHA-256 of a `sourceIdentities` array, through the registered digest rule. */
function sourceIdentitiesDigest(identities: Json): string | null {
  return sourceIdentitiesRule?.compute({ reuseFrom: {}, sourceIdentities: identities })[0]?.expected ?? null;
}

const isAttempt = (o: Observation): o is Attempt => o.hookEvent === 'PreToolUse';
const isResult = (o: Observation): o is Result => o.hookEvent === 'PostToolUse';
const eventTime = (o: Observation) => (isAttempt(o) ? o.attemptedAt : o.observedAt);
type ResultKind = 'reuse' | 'baseline' | 'read';
const kindOf = (r: Result): ResultKind =>
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

const receiptEvidence = (r: ReceiptV2): Evidence => ({
  binding: r.binding,
  observations: r.observations,
  planObservation: r.planObservation,
  reuseAllowed: r.reuseFrom !== null,
});
const ledgerEvidence = (l: Ledger): Evidence => ({
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
function correlated(ev: Evidence, index: number): boolean {
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

/** The success rule of the receipt section, for result `index` of the evidence. */
function satisfies(ev: Evidence, index: number): boolean {
  const r = ev.observations[index];
  if (!r || !isResult(r)) return false;
  if (r.outcome !== 'observed-success' && r.outcome !== 'baseline-ready') return false;
  const flags =
    r.successful &&
    r.observable &&
    r.transportSuccess &&
    r.activeRootMatch &&
    r.correlationValid &&
    r.sourceRefsMatch &&
    r.schemaMatch &&
    r.targetMatch &&
    r.bodyObserved;
  if (!flags || r.contentIdentity === null) return false;
  if (r.cache && !(kindOf(r) === 'reuse' && ev.reuseAllowed)) return false;
  return !ev.observations.some(
    (o, j) => j !== index && isResult(o) && o.toolCallId === r.toolCallId && o.sourceId === r.sourceId,
  );
}

/** Index of the latest record of every source: the last correlated result with its `sourceId`. */
function latestIndex(ev: Evidence): Map<string, number> {
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

// ---------------------------------------------------------------------------------------------
// Observation-record rules, shared by receipts and ledgers (receipt invariants 3-7, ledger 3)
// ---------------------------------------------------------------------------------------------

function duplicateIssues(ev: Evidence, rule: string): Issue[] {
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

function orderIssues(ev: Evidence, rule: string, updatedAt?: string): Issue[] {
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

function flagIssues(ev: Evidence, rule: string): Issue[] {
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

function outcomeIssues(ev: Evidence, rule: string): Issue[] {
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

function uncorrelatedIssues(ev: Evidence, rule: string): Issue[] {
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

// ---------------------------------------------------------------------------------------------
// ContextReadReceiptV2 (single document)
// ---------------------------------------------------------------------------------------------

const COMPLETE = new Set(['relevant-complete', 'completed']);
const FALLBACK_STATUSES = new Set(['unverified', 'stale', 'blocked']);

const receiptRule = (
  code: string,
  anchor: string,
  description: string,
  check: (r: ReceiptV2) => Issue[],
): SemanticRule => ({
  code,
  contract: 'ContextReadReceiptV2',
  specSection: anchor,
  description,
  check: (doc) => check(doc as unknown as ReceiptV2),
});

/** The mandatory set M of a receipt: satisfied ∪ missing. */
const mandatoryOf = (r: { satisfiedSourceIds: string[]; missingSourceIds: string[] }) =>
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

const RECEIPT_V2_RULES: SemanticRule[] = [
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

// ---------------------------------------------------------------------------------------------
// ContextReadReceiptV1 (read-only)
// ---------------------------------------------------------------------------------------------

function derivedV1Lists(r: ReceiptV1): { satisfied: string[]; missing: string[] } {
  const m = mandatoryOf(r);
  if (r.verificationMode !== 'structured-plan' || r.status === 'stale' || r.status === 'blocked')
    return { satisfied: [], missing: m };
  const last = new Map<string, LegacyObservation>();
  for (const o of r.observations) {
    if (o.sourceId !== null && o.outcome !== 'attempted' && o.correlationValid) last.set(o.sourceId, o);
  }
  const ok = (o: LegacyObservation | undefined) =>
    !!o &&
    o.successful &&
    o.observable &&
    o.transportSuccess &&
    o.activeRootMatch &&
    o.sourceRefsMatch &&
    o.schemaMatch &&
    o.targetMatch &&
    (o.outcome === 'observed-success' || o.outcome === 'baseline-ready');
  const satisfied = m.filter((s) => ok(last.get(s)));
  return { satisfied, missing: m.filter((s) => !satisfied.includes(s)) };
}

const RECEIPT_V1_RULES: SemanticRule[] = [
  {
    code: 'CONTEXT_RECEIPT_SATISFIED_NOT_DERIVED',
    contract: 'ContextReadReceiptV1',
    specSection: RECEIPT_V1,
    description:
      'satisfiedSourceIds and missingSourceIds follow the V1 rule (last correlated non-attempt record of each source with every evidence flag true), sorted and disjoint; fallback, stale and blocked receipts satisfy nothing.',
    check: (doc) => {
      const r = doc as unknown as ReceiptV1;
      const { satisfied, missing } = derivedV1Lists(r);
      const rule = RECEIPT_V1;
      const out: Issue[] = [];
      if (!sameList(r.satisfiedSourceIds, satisfied))
        out.push(
          issue(
            'CONTEXT_RECEIPT_SATISFIED_NOT_DERIVED',
            '/satisfiedSourceIds',
            `satisfiedSourceIds is ${show(r.satisfiedSourceIds)} but the V1 rule derives ${show(satisfied)}; recompute, never trust supplied lists.`,
            rule,
          ),
        );
      if (!sameList(r.missingSourceIds, missing))
        out.push(
          issue(
            'CONTEXT_RECEIPT_SATISFIED_NOT_DERIVED',
            '/missingSourceIds',
            `missingSourceIds is ${show(r.missingSourceIds)} but the V1 rule derives ${show(missing)} (sorted, disjoint from satisfied); recompute.`,
            rule,
          ),
        );
      return out;
    },
  },
  {
    code: 'CONTEXT_RECEIPT_FALLBACK_COMPLETE',
    contract: 'ContextReadReceiptV1',
    specSection: RECEIPT_V1,
    description:
      'A path-observable or instruction-only V1 receipt is unverified, stale or blocked, never completed or consumed, and satisfies nothing.',
    check: (doc) => {
      const r = doc as unknown as ReceiptV1;
      if (r.verificationMode === 'structured-plan') return [];
      const rule = RECEIPT_V1;
      const fail = (path: string, what: string) => [
        issue(
          'CONTEXT_RECEIPT_FALLBACK_COMPLETE',
          path,
          `a ${r.verificationMode} receipt ${what}; read it as unverified.`,
          rule,
        ),
      ];
      if (!FALLBACK_STATUSES.has(r.status)) return fail('/status', `cannot be ${r.status}`);
      if (r.completedAt !== null) return fail('/completedAt', 'never completes (completedAt must be null)');
      if (r.consumedAt !== null) return fail('/consumedAt', 'is never consumed (consumedAt must be null)');
      if (r.satisfiedSourceIds.length)
        return fail('/satisfiedSourceIds', 'satisfies nothing (satisfiedSourceIds must be [])');
      return [];
    },
  },
];

// ---------------------------------------------------------------------------------------------
// ContextReuseDecisionV1
// ---------------------------------------------------------------------------------------------

const COMPUTATION_CHECK: Record<string, number> = {
  'current-plan-invalid': 1,
  'execution-optimization-full-only': 2,
  'legacy-plan-no-content-identity': 3,
  'no-compatible-prior-plan': 3,
  'target-mismatch': 4,
  'plan-content-mismatch': 5,
  'content-identity-match': 14,
};
const DELIVERY_CHECK: Record<string, number> = {
  'current-plan-invalid': 1,
  'execution-optimization-full-only': 2,
  'legacy-or-missing-prior-plan': 3,
  'target-mismatch': 4,
  'plan-content-mismatch': 5,
  'legacy-or-missing-receipt': 6,
  'prior-receipt-invalid': 7,
  'prior-receipt-plan-mismatch': 8,
  'host-session-mismatch': 9,
  'context-epoch-mismatch': 10,
  'prior-receipt-incomplete': 11,
  'source-identity-mismatch': 12,
  'body-observation-unproven': 13,
  'same-session-epoch-content-observed': 14,
};
const DELIVERY_OF_COMPUTATION: Record<string, string> = {
  'current-plan-invalid': 'current-plan-invalid',
  'execution-optimization-full-only': 'execution-optimization-full-only',
  'legacy-plan-no-content-identity': 'legacy-or-missing-prior-plan',
  'no-compatible-prior-plan': 'legacy-or-missing-prior-plan',
  'target-mismatch': 'target-mismatch',
  'plan-content-mismatch': 'plan-content-mismatch',
};

/**
 * Results of the checks the decision alone can evaluate ("doc" checks), in order: `true` passes,
 * `false` fails, absent = not evaluable from the document (checks 1, 7, 13).
 */
function docChecks(d: Decision): Map<number, boolean> {
  const pp = d.priorPlan;
  const pr = d.priorReceipt;
  const results = new Map<number, boolean>();
  results.set(2, d.executionOptimizationMode !== 'full-only');
  results.set(3, pp !== null && pp.schemaVersion === 'ContextReadPlanV2');
  results.set(4, pp !== null && pp.activeRoot === d.binding.activeRoot && pp.project === d.binding.project);
  results.set(5, pp !== null && pp.planContentId === d.binding.planContentId);
  results.set(6, pr !== null && pr.schemaVersion === 'ContextReadReceiptV2');
  results.set(
    8,
    pr !== null && pp !== null && pr.planId === pp.planId && pr.planContentId === pp.planContentId,
  );
  results.set(9, pr !== null && d.hostSessionId !== null && d.hostSessionId === pr.hostSessionId);
  results.set(
    10,
    pr !== null &&
      pp !== null &&
      d.binding.contextEpoch === pp.contextEpoch &&
      pp.contextEpoch === pr.contextEpoch,
  );
  results.set(
    11,
    pr !== null &&
      pr.verificationMode === 'structured-plan' &&
      (pr.status === 'relevant-complete' || pr.status === 'completed'),
  );
  results.set(
    12,
    pr !== null &&
      d.currentSourceIdentitiesDigest !== null &&
      d.currentSourceIdentitiesDigest === pr.sourceIdentitiesDigest,
  );
  return results;
}
/** Checks only partly decidable from the document: passing the doc part does not prove them. */
const PARTIAL_DOC_CHECKS = new Set([3, 12]);

/** Reason-order issues of one verdict against the per-check results (`checks`). */
function orderIssuesOf(
  d: Decision,
  verdict: 'computation' | 'delivery',
  checks: Map<number, boolean>,
  partial: Set<number>,
  rule: string,
): Issue[] {
  const code = d[verdict].reasonCode;
  const k = (verdict === 'computation' ? COMPUTATION_CHECK : DELIVERY_CHECK)[code];
  if (k === undefined) return [];
  const lastCheck = verdict === 'computation' ? 5 : 13;
  const fail = (message: string) => [
    issue(
      'CONTEXT_REUSE_REASON_ORDER_VIOLATED',
      `/${verdict}/reasonCode`,
      `${message}; re-evaluate the checks in order, never grant on a skipped check.`,
      rule,
    ),
  ];
  for (let n = 1; n < Math.min(k, lastCheck + 1); n++) {
    if (checks.get(n) === false)
      return fail(
        `${verdict} reason ${describeValue(code)} is recorded but check ${n} already fails on the recorded inputs`,
      );
  }
  if (k <= lastCheck && checks.get(k) === true && !partial.has(k))
    return fail(
      `${verdict} reason ${describeValue(code)} is recorded but check ${k} passes on the recorded inputs`,
    );
  if (k === 3 && verdict === 'computation' && d.priorPlan !== null) {
    const v1 = d.priorPlan.schemaVersion === 'ContextReadPlanV1';
    if (v1 !== (code === 'legacy-plan-no-content-identity'))
      return fail(
        `computation reason ${describeValue(code)} does not match a ${d.priorPlan.schemaVersion} prior plan (V1: legacy-plan-no-content-identity, else no-compatible-prior-plan)`,
      );
  }
  if (k === 3 && verdict === 'computation' && d.priorPlan === null && code !== 'no-compatible-prior-plan')
    return fail('without a prior plan the computation reason is no-compatible-prior-plan');
  return [];
}

const REUSE_RULES: SemanticRule[] = [
  {
    code: 'CONTEXT_REUSE_REASON_ORDER_VIOLATED',
    contract: 'ContextReuseDecisionV1',
    specSection: `${PAGE}#ordered-checks`,
    description:
      'Each verdict carries the reason of the first failing check: every check before it that the decision alone can evaluate passes, and the check itself fails when the decision alone can evaluate it.',
    check: (doc) => {
      const d = doc as unknown as Decision;
      const checks = docChecks(d);
      const rule = `${PAGE}#ordered-checks`;
      return [
        ...orderIssuesOf(d, 'computation', checks, PARTIAL_DOC_CHECKS, rule),
        ...orderIssuesOf(d, 'delivery', checks, PARTIAL_DOC_CHECKS, rule),
      ];
    },
  },
  {
    code: 'CONTEXT_REUSE_DELIVERY_WITHOUT_COMPUTATION',
    contract: 'ContextReuseDecisionV1',
    specSection: REUSE,
    description:
      'Delivery reuse is granted only with computation reuse; a refused computation refuses delivery with the delivery code of the same check.',
    check: (doc) => {
      const d = doc as unknown as Decision;
      const rule = REUSE;
      if (d.computation.reuse) return [];
      if (d.delivery.reuse)
        return [
          issue(
            'CONTEXT_REUSE_DELIVERY_WITHOUT_COMPUTATION',
            '/delivery/reuse',
            'delivery reuse is granted while computation reuse is refused; treat delivery as refused.',
            rule,
          ),
        ];
      const expected = DELIVERY_OF_COMPUTATION[d.computation.reasonCode];
      if (expected !== undefined && d.delivery.reasonCode !== expected)
        return [
          issue(
            'CONTEXT_REUSE_DELIVERY_WITHOUT_COMPUTATION',
            '/delivery/reasonCode',
            `computation was refused with ${d.computation.reasonCode}, so delivery is refused by the same check with ${expected}, not ${d.delivery.reasonCode}.`,
            rule,
          ),
        ];
      return [];
    },
  },
  {
    code: 'CONTEXT_REUSE_FROM_INCONSISTENT',
    contract: 'ContextReuseDecisionV1',
    specSection: REUSE,
    description:
      'reuseFrom is null iff computation is refused; it names the prior plan, and the prior receipt and its identities digest exactly when delivery is granted.',
    check: (doc) => {
      const d = doc as unknown as Decision;
      const rule = REUSE;
      const fail = (path: string, message: string) => [
        issue('CONTEXT_REUSE_FROM_INCONSISTENT', path, `${message}; treat all reuse as refused.`, rule),
      ];
      const f = d.reuseFrom;
      if (!d.computation.reuse)
        return f === null ? [] : fail('/reuseFrom', 'computation reuse is refused but reuseFrom is set');
      if (f === null) return fail('/reuseFrom', 'computation reuse is granted but reuseFrom is null');
      const pp = d.priorPlan;
      if (pp !== null && f.planId !== pp.planId)
        return fail('/reuseFrom/planId', 'reuseFrom.planId differs from priorPlan.planId');
      if (pp !== null && f.planContentId !== pp.planContentId)
        return fail(
          '/reuseFrom/planContentId',
          'reuseFrom.planContentId differs from priorPlan.planContentId',
        );
      const pr = d.priorReceipt;
      if (d.delivery.reuse) {
        if (f.receiptId !== (pr?.receiptId ?? null))
          return fail(
            '/reuseFrom/receiptId',
            'with delivery granted, reuseFrom.receiptId must equal priorReceipt.receiptId',
          );
        if (f.sourceIdentitiesDigest !== (pr?.sourceIdentitiesDigest ?? null))
          return fail(
            '/reuseFrom/sourceIdentitiesDigest',
            'with delivery granted, reuseFrom.sourceIdentitiesDigest must equal priorReceipt.sourceIdentitiesDigest',
          );
        return [];
      }
      if (f.receiptId !== null)
        return fail('/reuseFrom/receiptId', 'delivery reuse is refused but reuseFrom.receiptId is set');
      if (f.sourceIdentitiesDigest !== null)
        return fail(
          '/reuseFrom/sourceIdentitiesDigest',
          'delivery reuse is refused but reuseFrom.sourceIdentitiesDigest is set',
        );
      return [];
    },
  },
  {
    code: 'CONTEXT_REUSE_V1_RECEIPT',
    contract: 'ContextReuseDecisionV1',
    specSection: REUSE,
    description:
      'A decision whose prior receipt is a ContextReadReceiptV1 never grants delivery reuse, in any epoch.',
    check: (doc) => {
      const d = doc as unknown as Decision;
      if (d.priorReceipt?.schemaVersion !== 'ContextReadReceiptV1' || !d.delivery.reuse) return [];
      return [
        issue(
          'CONTEXT_REUSE_V1_RECEIPT',
          '/delivery/reuse',
          'delivery reuse is granted from a ContextReadReceiptV1; V1 receipts carry no body identities and are never delivery-reusable: read the bodies again.',
          REUSE,
        ),
      ];
    },
  },
];

// ---------------------------------------------------------------------------------------------
// ContextSourceObservationLedgerV1
// ---------------------------------------------------------------------------------------------

const ledgerRule = (
  code: string,
  description: string,
  check: (l: Ledger, rule: string) => Issue[],
): SemanticRule => ({
  code,
  contract: 'ContextSourceObservationLedgerV1',
  specSection: LEDGER,
  description,
  check: (doc) => check(doc as unknown as Ledger, LEDGER),
});

const LEDGER_RULES: SemanticRule[] = [
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
export const CONTEXT_RECEIPTS_RULES: readonly SemanticRule[] = [
  ...RECEIPT_V2_RULES,
  ...RECEIPT_V1_RULES,
  ...REUSE_RULES,
  ...LEDGER_RULES,
];

// ---------------------------------------------------------------------------------------------
// Bundle `context-acquisition-chain`
// ---------------------------------------------------------------------------------------------

/** A chain bundle split into its roles; `documents` indices are kept for issue paths. */
interface Chain {
  seed: Seed;
  plan: PlanV2;
  ledgers: Array<{ i: number; doc: Ledger }>;
  receipts: Array<{ i: number; doc: ReceiptV2 }>;
  legacyReceipts: Array<{ i: number; doc: ReceiptV1 }>;
  decision: { i: number; doc: Decision } | null;
  priorPlan: { i: number; doc: Record<string, unknown> } | null;
  priorReceipt: { i: number; doc: ReceiptV2 | ReceiptV1 } | null;
}
type Layout = { ok: true; chain: Chain } | { ok: false; issue: Issue };

const layouts = new WeakMap<readonly ContractDocument[], Layout>();

/** Split a chain bundle by the order the spec defines (see the page's Bundles section). */
function layoutOf(documents: readonly ContractDocument[]): Layout {
  const cached = layouts.get(documents);
  if (cached) return cached;
  const result = computeLayout(documents);
  layouts.set(documents, result);
  return result;
}

function computeLayout(docs: readonly ContractDocument[]): Layout {
  const rule = BUNDLES;
  const bad = (i: number, message: string): Layout => ({
    ok: false,
    issue: issue(
      'CONTEXT_ACQUISITION_CHAIN_OUT_OF_ORDER',
      i < docs.length ? `/documents/${i}/schemaVersion` : '/documents',
      `${message}; order the chain seed -> plan -> ledger snapshots -> receipts [-> reuse decision -> prior plan -> prior receipt].`,
      rule,
    ),
  });
  const v = (i: number) => docs[i]?.schemaVersion;
  if (v(0) !== 'IntentSeedV1') return bad(0, 'a chain starts with its IntentSeedV1');
  if (v(1) !== 'ContextReadPlanV2')
    return bad(1, 'the second document of a chain is the ContextReadPlanV2 made from the seed');
  const chain: Chain = {
    seed: docs[0] as unknown as Seed,
    plan: docs[1] as unknown as PlanV2,
    ledgers: [],
    receipts: [],
    legacyReceipts: [],
    decision: null,
    priorPlan: null,
    priorReceipt: null,
  };
  let i = 2;
  for (; v(i) === 'ContextSourceObservationLedgerV1'; i++)
    chain.ledgers.push({ i, doc: docs[i] as unknown as Ledger });
  for (; v(i) === 'ContextReadReceiptV2' || v(i) === 'ContextReadReceiptV1'; i++) {
    if (v(i) === 'ContextReadReceiptV2') chain.receipts.push({ i, doc: docs[i] as unknown as ReceiptV2 });
    else chain.legacyReceipts.push({ i, doc: docs[i] as unknown as ReceiptV1 });
  }
  if (chain.receipts.length + chain.legacyReceipts.length === 0)
    return bad(
      i,
      'the chain ends in the receipt of the plan; no ContextReadReceiptV2 follows the plan and its ledger snapshots',
    );
  if (v(i) === 'ContextReuseDecisionV1') {
    chain.decision = { i, doc: docs[i] as unknown as Decision };
    i++;
    if (v(i) === 'ContextReadPlanV2' || v(i) === 'ContextReadPlanV1') {
      chain.priorPlan = { i, doc: docs[i] as unknown as Record<string, unknown> };
      i++;
    }
    if (v(i) === 'ContextReadReceiptV2' || v(i) === 'ContextReadReceiptV1') {
      chain.priorReceipt = { i, doc: docs[i] as unknown as ReceiptV2 | ReceiptV1 };
      i++;
    }
  }
  if (i < docs.length) return bad(i, `${describeValue(v(i))} is out of place at position ${i}`);
  return { ok: true, chain };
}

/** A rule of the context-acquisition chain: it judges a bundle whose layout is right (the layout is the first rule's). */
const chainRule = (
  code: string,
  specSection: string,
  description: string,
  check: (chain: Chain) => Issue[],
): BundleRule =>
  bundleRule(code, CONTEXT_ACQUISITION_CHAIN, specSection, description, (documents) => {
    const layout = layoutOf(documents);
    return layout.ok ? check(layout.chain) : [];
  });

const BINDING_FIELDS = ['contextEpoch', 'planId', 'planContentId', 'activeRoot', 'project'] as const;
const bindingEqual = (a: Binding, b: Binding) => BINDING_FIELDS.every((f) => a[f] === b[f]);
const planSources = (p: PlanV2) =>
  new Map([...p.baselineSources, ...p.selectedSources].map((s) => [s.sourceId, s]));
const REPLAYABLE = new Set([
  'projection-drift',
  'writer-drift',
  'observation-orphaned',
  'observation-write-failed',
  'delivery-unobserved',
]);
/** A receipt that forbids any later receipt of its binding (ledger invariant 12). */
function replayForbidden(r: ReceiptV2): boolean {
  if (r.status === 'blocked') return true;
  if (r.status !== 'stale') return false;
  const last = r.escalations[r.escalations.length - 1];
  return !last || !REPLAYABLE.has(last.reasonCode);
}
const byUpdatedAt = <T extends { doc: { updatedAt: string } }>(list: T[]) =>
  [...list].sort((a, b) =>
    lt(a.doc.updatedAt, b.doc.updatedAt) ? -1 : lt(b.doc.updatedAt, a.doc.updatedAt) ? 1 : 0,
  );

const P = (i: number, path: string) => `/documents/${i}${path}`;

const CHAIN_RULES: BundleRule[] = [
  {
    code: 'CONTEXT_ACQUISITION_CHAIN_OUT_OF_ORDER',
    bundle: CONTEXT_ACQUISITION_CHAIN,
    specSection: RECEIPT_V2,
    description:
      'The chain is seed -> plan -> attempted -> PostToolUse observed -> receipt: documents in the Bundles order, one seed embedded verbatim by the plan, one epoch, the plan made inside its own observed tool call, and every read after the plan observation and before completion.',
    check: (documents) => {
      const layout = layoutOf(documents);
      if (!layout.ok) return [layout.issue];
      const { seed, plan, receipts, ledgers } = layout.chain;
      const rule = RECEIPT_V2;
      const out: Issue[] = [];
      const add = (path: string, message: string) =>
        out.push(
          issue(
            'CONTEXT_ACQUISITION_CHAIN_OUT_OF_ORDER',
            path,
            `${message}; reject the chain: no step may be inferred from a later one.`,
            rule,
          ),
        );
      if (!equalJson(seed, plan.identity.intentSeed))
        add(
          '/documents/1/identity/intentSeed',
          "the plan does not embed the chain's seed verbatim (a plan never rewrites the seed it was made from)",
        );
      if (seed.contextEpoch !== plan.identity.contextEpoch)
        add(
          '/documents/1/identity/contextEpoch',
          `the plan's epoch ${describeValue(plan.identity.contextEpoch)} is not the seed's ${describeValue(seed.contextEpoch)}`,
        );
      if (lt(plan.plannedAt, seed.createdAt))
        add(
          '/documents/1/plannedAt',
          `the plan (${plan.plannedAt}) is older than its seed (${seed.createdAt})`,
        );
      for (const { i, doc } of ledgers) {
        if (doc.identity.contextEpoch !== seed.contextEpoch)
          add(
            P(i, '/identity/contextEpoch'),
            `ledger snapshot ${i} is of epoch ${describeValue(doc.identity.contextEpoch)}, not the seed's`,
          );
      }
      for (const { i, doc: r } of receipts) {
        if (r.binding.contextEpoch !== seed.contextEpoch) {
          add(
            P(i, '/binding/contextEpoch'),
            `receipt ${i} is of epoch ${describeValue(r.binding.contextEpoch)}, not the seed's ${describeValue(seed.contextEpoch)}`,
          );
          continue;
        }
        const po = r.planObservation;
        if (po && lt(plan.plannedAt, po.attemptedAt))
          add(
            P(i, '/planObservation/attemptedAt'),
            `receipt ${i}'s plan call was attempted (${po.attemptedAt}) after the plan was made (${plan.plannedAt})`,
          );
        if (po && lt(po.observedAt, plan.plannedAt))
          add(
            P(i, '/planObservation/observedAt'),
            `receipt ${i}'s plan call was observed (${po.observedAt}) before the plan was made (${plan.plannedAt})`,
          );
        if (!po) continue;
        const ev = receiptEvidence(r);
        const latest = latestIndex(ev);
        for (const s of r.satisfiedSourceIds) {
          const k = latest.get(s);
          if (k === undefined) continue;
          const res = r.observations[k] as Result;
          if (kindOf(res) !== 'read') continue;
          const attempt = r.observations
            .slice(0, k)
            .find(
              (o): o is Attempt =>
                isAttempt(o) && o.toolCallId === res.toolCallId && o.sourceId === res.sourceId,
            );
          if (attempt && lt(attempt.attemptedAt, po.observedAt))
            add(
              P(i, `/observations/${r.observations.indexOf(attempt)}/attemptedAt`),
              `the read of ${s} was attempted before the plan was observed`,
            );
          else if (attempt && lt(res.observedAt, attempt.attemptedAt))
            add(P(i, `/observations/${k}/observedAt`), `the result of ${s} was observed before its attempt`);
          else if (r.completedAt !== null && lt(r.completedAt, res.observedAt))
            add(
              P(i, '/completedAt'),
              `receipt ${i} completed (${r.completedAt}) before the result of ${s} was observed (${res.observedAt})`,
            );
        }
      }
      return out;
    },
  },
  chainRule(
    'CONTEXT_RECEIPT_V1_NOT_GATE_EVIDENCE',
    RECEIPT_V1,
    "A ContextReadReceiptV1 is never a turn's ContextAcquisitionGate evidence, whatever its status (only as a reuse decision's prior receipt may it appear).",
    (c) =>
      c.legacyReceipts.map(({ i, doc }) =>
        issue(
          'CONTEXT_RECEIPT_V1_NOT_GATE_EVIDENCE',
          P(i, '/schemaVersion'),
          `a ContextReadReceiptV1 (status ${doc.status}) is offered as the chain's receipt; V1 receipts are read-only history and never gate evidence: plan again with ContextReadPlanV2 and read the sources.`,
          RECEIPT_V1,
        ),
      ),
  ),
  chainRule(
    'CONTEXT_BINDING_MISMATCH',
    RECEIPT_V2,
    "Every receipt's binding equals the plan's contextBinding in all five fields.",
    (c) => {
      const out: Issue[] = [];
      for (const { i, doc } of c.receipts) {
        const f = BINDING_FIELDS.find((k) => doc.binding[k] !== c.plan.contextBinding[k]);
        if (f)
          out.push(
            issue(
              'CONTEXT_BINDING_MISMATCH',
              P(i, `/binding/${f}`),
              `receipt ${i}'s binding.${f} is ${describeValue(doc.binding[f])} but the plan's contextBinding.${f} is ${describeValue(c.plan.contextBinding[f])}; the receipt belongs to another plan, do not use it.`,
              RECEIPT_V2,
            ),
          );
      }
      return out;
    },
  ),
  chainRule(
    'CONTEXT_RECEIPT_PLAN_COPY_MISMATCH',
    RECEIPT_V2,
    "A receipt's mandatory set, fullRead, fullReadReason and host are the plan's, and every planned escalation names a trigger of the plan.",
    (c) => {
      const out: Issue[] = [];
      const rule = RECEIPT_V2;
      for (const { i, doc: r } of c.receipts) {
        const add = (path: string, message: string) =>
          out.push(
            issue(
              'CONTEXT_RECEIPT_PLAN_COPY_MISMATCH',
              P(i, path),
              `${message}; rebuild the receipt from the plan.`,
              rule,
            ),
          );
        const m = mandatoryOf(r);
        if (!sameList(m, c.plan.mandatorySourceIds))
          add(
            '/missingSourceIds',
            `satisfied ∪ missing is ${show(m)} but the plan's mandatorySourceIds is ${show(c.plan.mandatorySourceIds)}`,
          );
        if (r.fullRead !== c.plan.fullRead)
          add('/fullRead', `fullRead is ${r.fullRead}, the plan's is ${c.plan.fullRead}`);
        else if (r.fullReadReason !== c.plan.fullReadReason)
          add(
            '/fullReadReason',
            `fullReadReason is ${describeValue(r.fullReadReason)}, the plan's is ${describeValue(c.plan.fullReadReason)}`,
          );
        if (r.host !== c.plan.identity.host)
          add(
            '/host',
            `host is ${describeValue(r.host)}, the plan's is ${describeValue(c.plan.identity.host)}`,
          );
        r.escalations.forEach((e, k) => {
          if (e.action === 'planned' && !c.plan.triggeredEscalations.includes(e.trigger))
            add(
              `/escalations/${k}/trigger`,
              `planned escalation ${describeValue(e.trigger)} is not a trigger of the plan`,
            );
        });
      }
      return out;
    },
  ),
  chainRule(
    'CONTEXT_SOURCE_NOT_AUTHORIZED',
    RECEIPT_V2,
    "Every record's source is a baseline or selected source of the plan, of the plan's kind, and a result's layer is one of that source's layers.",
    (c) => {
      const out: Issue[] = [];
      const sources = planSources(c.plan);
      for (const { i, doc: r } of c.receipts) {
        r.observations.forEach((o, k) => {
          const s = sources.get(o.sourceId);
          const add = (f: string, message: string) =>
            out.push(
              issue(
                'CONTEXT_SOURCE_NOT_AUTHORIZED',
                P(i, `/observations/${k}/${f}`),
                `${message}; drop the record, the source was not selected.`,
                RECEIPT_V2,
              ),
            );
          if (!s) add('sourceId', `${o.sourceId} is not a baseline or selected source of the plan`);
          else if (o.sourceKind !== s.kind)
            add('sourceKind', `${o.sourceId} is recorded as ${o.sourceKind}, the plan says ${s.kind}`);
          else if (isResult(o) && !s.sourceLayer.split('+').includes(o.sourceLayer))
            add(
              'sourceLayer',
              `${o.sourceId} was read from layer ${describeValue(o.sourceLayer)}, not one of the plan's ${describeValue(s.sourceLayer)}`,
            );
        });
      }
      return out;
    },
  ),
  chainRule(
    'CONTEXT_RECEIPT_SCOPE_DRIFT',
    RECEIPT_V2,
    'Every recorded attempt is compatible with the plan: action class in its envelope, same activeRoot, a source of the plan.',
    (c) => {
      const out: Issue[] = [];
      const sources = planSources(c.plan);
      for (const { i, doc: r } of c.receipts) {
        r.observations.forEach((o, k) => {
          if (!isAttempt(o)) return;
          const field = !c.plan.actionEnvelope.allowedActionClasses.includes(o.actionClass)
            ? 'actionClass'
            : o.activeRoot !== c.plan.identity.activeRoot
              ? 'activeRoot'
              : !sources.has(o.sourceId)
                ? 'sourceId'
                : null;
          if (field)
            out.push(
              issue(
                'CONTEXT_RECEIPT_SCOPE_DRIFT',
                P(i, `/observations/${k}/${field}`),
                `attempt ${k} is outside the plan (${field} ${describeValue(o[field])}); an incompatible attempt is never recorded: mark the receipt stale (scope-drift) and replan once before the broader action.`,
                RECEIPT_V2,
              ),
            );
        });
      }
      return out;
    },
  ),
  chainRule(
    'CONTEXT_RECEIPT_BLOCKED_PLAN',
    RECEIPT_V2,
    'A receipt of a plan whose exitCondition is blocked is blocked.',
    (c) =>
      c.plan.exitCondition !== 'blocked'
        ? []
        : c.receipts
            .filter(({ doc }) => doc.status !== 'blocked')
            .map(({ i, doc }) =>
              issue(
                'CONTEXT_RECEIPT_BLOCKED_PLAN',
                P(i, '/status'),
                `the plan is blocked but receipt ${i} is ${doc.status}; resolve the plan's blocking cause and replan.`,
                RECEIPT_V2,
              ),
            ),
  ),
  chainRule(
    'CONTEXT_RECEIPT_STATUS_TRANSITION_INVALID',
    `${PAGE}#state-machine`,
    'Consecutive revisions of one binding (by updatedAt) follow the state machine, and the later keeps every record of the earlier unchanged except by eviction.',
    (c) => {
      const out: Issue[] = [];
      const rule = `${PAGE}#state-machine`;
      const ordered = byUpdatedAt(c.receipts);
      for (let k = 1; k < ordered.length; k++) {
        const a = ordered[k - 1]!.doc;
        const { i, doc: b } = ordered[k]!;
        if (!bindingEqual(a.binding, b.binding)) continue;
        // Leaving blocked or an unreplayable stale is CONTEXT_SOURCE_LEDGER_REPLAY_FORBIDDEN; a
        // replayable stale receipt may be replaced by a replayed successor.
        if (a.status === 'blocked' || a.status === 'stale') continue;
        const reachable =
          a.status === 'unverified'
            ? b.status === 'unverified'
            : a.status === 'completed'
              ? ['completed', 'stale', 'blocked'].includes(b.status)
              : true;
        if (!reachable) {
          out.push(
            issue(
              'CONTEXT_RECEIPT_STATUS_TRANSITION_INVALID',
              P(i, '/status'),
              `no event takes a ${a.status} receipt to ${b.status}; return the receipt unchanged (recovery is a new plan).`,
              rule,
            ),
          );
          continue;
        }
        const later = new Map(b.observations.map((o) => [o.observationId, o]));
        const ev = receiptEvidence(a);
        const latest = new Set(latestIndex(ev).values());
        const keep = new Set<string>();
        for (const idx of latest) {
          const res = a.observations[idx] as Result;
          keep.add(res.observationId);
          for (const o of a.observations)
            if (isAttempt(o) && o.toolCallId === res.toolCallId && o.sourceId === res.sourceId)
              keep.add(o.observationId);
        }
        for (const o of a.observations) {
          const now = later.get(o.observationId);
          if (now ? equalJson(now, o) : !keep.has(o.observationId) && b.observations.length === 100) continue;
          out.push(
            issue(
              'CONTEXT_RECEIPT_STATUS_TRANSITION_INVALID',
              P(i, '/observations'),
              now
                ? `record ${o.observationId} of the earlier revision was rewritten; records are kept unchanged`
                : `record ${o.observationId} of the earlier revision is gone though eviction may drop only old records that are neither a latest record nor its attempt, and only at 100 records`,
              rule,
            ),
          );
          break;
        }
      }
      return out;
    },
  ),
  chainRule(
    'CONTEXT_RECEIPT_REUSE_UNPROVEN',
    RECEIPT_V2,
    'A receipt completed by delivery reuse is backed by a granting reuse decision evaluated before it, and by a complete V2 prior receipt of the same epoch, content and session whose satisfying records it copies.',
    (c) => {
      const out: Issue[] = [];
      const rule = RECEIPT_V2;
      for (const { i, doc: r } of c.receipts) {
        if (r.reuseFrom === null) continue;
        const fail = (path: string, message: string) => {
          out.push(
            issue(
              'CONTEXT_RECEIPT_REUSE_UNPROVEN',
              P(i, path),
              `${message}; treat the receipt as not reused and read the bodies.`,
              rule,
            ),
          );
        };
        const d = c.decision?.doc;
        if (
          !d ||
          !bindingEqual(d.binding, r.binding) ||
          !d.delivery.reuse ||
          d.reuseFrom?.receiptId !== r.reuseFrom.receiptId
        ) {
          fail(
            '/reuseFrom',
            'no ContextReuseDecisionV1 in the chain grants delivery reuse of this prior receipt for this binding',
          );
          continue;
        }
        if (lt(r.createdAt, d.evaluatedAt)) {
          fail('/createdAt', `the receipt (${r.createdAt}) predates the reuse decision (${d.evaluatedAt})`);
          continue;
        }
        const prior = c.priorReceipt?.doc;
        if (!prior || prior.receiptId !== r.reuseFrom.receiptId) {
          fail('/reuseFrom/receiptId', 'the prior receipt is not in the chain');
          continue;
        }
        if (prior.schemaVersion !== 'ContextReadReceiptV2') {
          fail(
            '/reuseFrom/receiptId',
            'the prior receipt is a ContextReadReceiptV1, which is never delivery-reusable in any epoch',
          );
          continue;
        }
        if (
          prior.binding.contextEpoch !== r.binding.contextEpoch ||
          prior.binding.planContentId !== r.binding.planContentId ||
          prior.hostSessionId !== r.hostSessionId ||
          !COMPLETE.has(prior.status)
        ) {
          fail(
            '/reuseFrom',
            'the prior receipt is not a complete receipt of the same epoch, plan content and host session',
          );
          continue;
        }
        const pev = receiptEvidence(prior);
        r.observations.forEach((o, k) => {
          if (!isResult(o) || o.reusedObservationId === null) return;
          const j = prior.observations.findIndex((p) => p.observationId === o.reusedObservationId);
          const p = prior.observations[j];
          if (
            !p ||
            !isResult(p) ||
            !satisfies(pev, j) ||
            p.sourceId !== o.sourceId ||
            p.resultDigest !== o.resultDigest ||
            !equalJson(p.contentIdentity, o.contentIdentity)
          )
            fail(
              `/observations/${k}/reusedObservationId`,
              `reuse record ${k} does not copy a satisfying record of the prior receipt (same source, resultDigest and contentIdentity)`,
            );
        });
      }
      return out;
    },
  ),
  chainRule(
    'CONTEXT_RECEIPT_NOT_LEDGER_PROJECTION',
    RECEIPT_V2,
    "Every satisfying, non-reuse record of a receipt is, identical, in the ledger snapshot of its binding that was current at the receipt's updatedAt.",
    (c) => {
      const out: Issue[] = [];
      for (const { i, doc: r } of c.receipts) {
        const same = c.ledgers.filter(({ doc }) => bindingEqual(doc.identity, r.binding));
        if (same.length === 0) continue;
        const current = same
          .filter(({ doc }) => le(doc.updatedAt, r.updatedAt))
          .sort((a, b) => b.doc.revision - a.doc.revision)[0]?.doc;
        const stored = new Map((current?.observations ?? []).map((o) => [o.observationId, o]));
        const ev = receiptEvidence(r);
        r.observations.forEach((o, k) => {
          if (!isResult(o) || o.reusedObservationId !== null || !satisfies(ev, k)) return;
          const l = stored.get(o.observationId);
          if (l && equalJson(l, o)) return;
          out.push(
            issue(
              'CONTEXT_RECEIPT_NOT_LEDGER_PROJECTION',
              P(i, `/observations/${k}`),
              `satisfying record ${o.observationId} is not in the ledger snapshot current at the receipt's updatedAt${current ? ` (revision ${current.revision})` : ' (there is none)'}; records reach the ledger first: rebuild the receipt from the ledger.`,
              RECEIPT_V2,
            ),
          );
        });
      }
      return out;
    },
  ),
  chainRule(
    'CONTEXT_SOURCE_OBSERVATION_FOLD_NOT_DERIVED',
    LEDGER,
    "A ledger snapshot of the chain has the plan's contextBinding as identity, and its fold covers exactly the plan's mandatory sources.",
    (c) => {
      const out: Issue[] = [];
      const rule = LEDGER;
      for (const { i, doc: l } of c.ledgers) {
        if (!bindingEqual(l.identity, c.plan.contextBinding)) {
          const f = BINDING_FIELDS.find((k) => l.identity[k] !== c.plan.contextBinding[k])!;
          out.push(
            issue(
              'CONTEXT_SOURCE_OBSERVATION_FOLD_NOT_DERIVED',
              P(i, `/identity/${f}`),
              `ledger snapshot ${i}'s identity.${f} differs from the plan's contextBinding; fold against the plan's binding.`,
              rule,
            ),
          );
        } else if (
          l.fold &&
          !sameList(
            l.fold.sources.map((s) => s.sourceId),
            c.plan.mandatorySourceIds,
          )
        ) {
          out.push(
            issue(
              'CONTEXT_SOURCE_OBSERVATION_FOLD_NOT_DERIVED',
              P(i, '/fold/sources'),
              `the fold covers ${show(l.fold.sources.map((s) => s.sourceId))}, not the plan's mandatory sources ${show(c.plan.mandatorySourceIds)}; recompute the fold.`,
              rule,
            ),
          );
        }
      }
      return out;
    },
  ),
  chainRule(
    'CONTEXT_SOURCE_OBSERVATION_REVISION_INVALID',
    LEDGER,
    'Of two snapshots of one ledgerId, the higher revision is not older, and equal revisions are identical.',
    (c) => {
      const out: Issue[] = [];
      for (const x of c.ledgers)
        for (const y of c.ledgers) {
          if (x.i >= y.i || x.doc.ledgerId !== y.doc.ledgerId) continue;
          const [lo, hi] = x.doc.revision <= y.doc.revision ? [x, y] : [y, x];
          const bad =
            lo.doc.revision === hi.doc.revision
              ? !equalJson(lo.doc, hi.doc)
              : lt(hi.doc.updatedAt, lo.doc.updatedAt);
          if (bad)
            out.push(
              issue(
                'CONTEXT_SOURCE_OBSERVATION_REVISION_INVALID',
                P(hi.i, lo.doc.revision === hi.doc.revision ? '/revision' : '/updatedAt'),
                lo.doc.revision === hi.doc.revision
                  ? `snapshots ${lo.i} and ${hi.i} share revision ${hi.doc.revision} but differ; reject the later snapshot.`
                  : `revision ${hi.doc.revision} was written (${hi.doc.updatedAt}) before revision ${lo.doc.revision} (${lo.doc.updatedAt}); reject the later snapshot.`,
                LEDGER,
              ),
            );
        }
      return out;
    },
  ),
  chainRule(
    'CONTEXT_SOURCE_OBSERVATION_EVIDENCE_LOST',
    LEDGER,
    'A later revision of one ledger and identity keeps every latest record, its attempt, and every successful result of an earlier one.',
    (c) => {
      const out: Issue[] = [];
      for (const a of c.ledgers)
        for (const b of c.ledgers) {
          if (a.doc.ledgerId !== b.doc.ledgerId || b.doc.revision <= a.doc.revision) continue;
          if (!bindingEqual(a.doc.identity, b.doc.identity)) continue;
          const kept = new Set(b.doc.observations.map((o) => o.observationId));
          const ev = ledgerEvidence(a.doc);
          const must = new Set<string>();
          for (const idx of latestIndex(ev).values()) {
            const res = a.doc.observations[idx] as Result;
            must.add(res.observationId);
            for (const o of a.doc.observations)
              if (isAttempt(o) && o.toolCallId === res.toolCallId && o.sourceId === res.sourceId)
                must.add(o.observationId);
          }
          for (const o of a.doc.observations) if (isResult(o) && o.successful) must.add(o.observationId);
          const lost = [...must].filter((id) => !kept.has(id));
          if (lost.length)
            out.push(
              issue(
                'CONTEXT_SOURCE_OBSERVATION_EVIDENCE_LOST',
                P(b.i, '/observations'),
                `revision ${b.doc.revision} dropped delivered evidence of revision ${a.doc.revision}: ${show(lost)}; restore from the earlier snapshot and merge again.`,
                LEDGER,
              ),
            );
        }
      return out;
    },
  ),
  chainRule(
    'CONTEXT_SOURCE_OBSERVATION_REWRITTEN',
    LEDGER,
    'A record present under one observationId in two revisions of one ledger and identity is identical in both (first write wins).',
    (c) => {
      const out: Issue[] = [];
      for (const a of c.ledgers)
        for (const b of c.ledgers) {
          if (a.doc.ledgerId !== b.doc.ledgerId || b.doc.revision <= a.doc.revision) continue;
          if (!bindingEqual(a.doc.identity, b.doc.identity)) continue;
          const earlier = new Map(a.doc.observations.map((o) => [o.observationId, o]));
          b.doc.observations.forEach((o, k) => {
            const e = earlier.get(o.observationId);
            if (e && !equalJson(e, o))
              out.push(
                issue(
                  'CONTEXT_SOURCE_OBSERVATION_REWRITTEN',
                  P(b.i, `/observations/${k}`),
                  `record ${o.observationId} differs from revision ${a.doc.revision}'s copy; keep the first-written record (times are never back-filled).`,
                  LEDGER,
                ),
              );
          });
        }
      return out;
    },
  ),
  chainRule(
    'CONTEXT_SOURCE_LEDGER_REPLAY_FORBIDDEN',
    `${PAGE}#replay`,
    'After a blocked receipt, or a stale one whose last escalation reason is not replayable, no later receipt (updatedAt) of the same binding exists.',
    (c) => {
      const out: Issue[] = [];
      const ordered = byUpdatedAt(c.receipts);
      for (let k = 0; k < ordered.length; k++) {
        const a = ordered[k]!.doc;
        if (!replayForbidden(a)) continue;
        for (const { i, doc: b } of ordered.slice(k + 1)) {
          if (!bindingEqual(a.binding, b.binding) || !lt(a.updatedAt, b.updatedAt)) continue;
          if (
            b.status === a.status &&
            equalJson({ ...b, receiptId: 0, updatedAt: 0 }, { ...a, receiptId: 0, updatedAt: 0 })
          )
            continue;
          out.push(
            issue(
              'CONTEXT_SOURCE_LEDGER_REPLAY_FORBIDDEN',
              P(i, '/status'),
              `receipt ${i} follows a ${a.status} receipt of the same binding${a.status === 'stale' ? ` whose stale reason ${describeValue(a.escalations.at(-1)?.reasonCode)} cannot be replayed` : ''}; replan, the cause must be resolved.`,
              `${PAGE}#replay`,
            ),
          );
          break;
        }
      }
      return out;
    },
  ),
  chainRule(
    'CONTEXT_REUSE_EVIDENCE_MISMATCH',
    REUSE,
    "The decision's priorPlan and priorReceipt equal the referenced documents of the chain, and the prior receipt's identities digest recomputes.",
    (c) => {
      const d = c.decision;
      if (!d) return [];
      const out: Issue[] = [];
      const rule = REUSE;
      const fail = (path: string, message: string) =>
        out.push(
          issue(
            'CONTEXT_REUSE_EVIDENCE_MISMATCH',
            P(d.i, path),
            `${message}; treat all reuse as refused.`,
            rule,
          ),
        );
      const pp = d.doc.priorPlan;
      const planDoc = c.priorPlan?.doc;
      if (pp && planDoc) {
        const identity = (planDoc.identity ?? {}) as Record<string, unknown>;
        const actual: Record<string, unknown> = {
          schemaVersion: planDoc.schemaVersion,
          planId: planDoc.planId,
          planContentId: planDoc.schemaVersion === 'ContextReadPlanV2' ? planDoc.planContentId : null,
          contextEpoch: identity.contextEpoch ?? planDoc.contextEpoch,
          activeRoot: identity.activeRoot,
          project: identity.project,
        };
        const f = (Object.keys(actual) as Array<keyof PriorPlanRef>).find(
          (k) => actual[k] !== undefined && actual[k] !== pp[k],
        );
        if (f)
          fail(
            `/priorPlan/${f}`,
            `priorPlan.${f} is ${describeValue(pp[f])} but the prior plan document has ${describeValue(actual[f])}`,
          );
      }
      const pr = d.doc.priorReceipt;
      const rd = c.priorReceipt?.doc;
      if (pr && rd) {
        const actual: Record<string, unknown> =
          rd.schemaVersion === 'ContextReadReceiptV2'
            ? {
                schemaVersion: rd.schemaVersion,
                receiptId: rd.receiptId,
                planId: rd.binding.planId,
                planContentId: rd.binding.planContentId,
                contextEpoch: rd.binding.contextEpoch,
                hostSessionId: rd.hostSessionId,
                verificationMode: rd.verificationMode,
                status: rd.status,
                sourceIdentitiesDigest: sourceIdentitiesDigest(rd.sourceIdentities),
              }
            : {
                schemaVersion: rd.schemaVersion,
                receiptId: rd.receiptId,
                planId: rd.planId,
                planContentId: null,
                contextEpoch: rd.contextEpoch,
                hostSessionId: null,
                verificationMode: rd.verificationMode,
                status: rd.status,
                sourceIdentitiesDigest: null,
              };
        const f = (Object.keys(actual) as Array<keyof PriorReceiptRef>).find((k) => actual[k] !== pr[k]);
        if (f)
          fail(
            `/priorReceipt/${f}`,
            `priorReceipt.${f} is ${describeValue(pr[f])} but the prior receipt document gives ${describeValue(actual[f])}`,
          );
      }
      return out;
    },
  ),
  chainRule(
    'CONTEXT_REUSE_REASON_ORDER_VIOLATED',
    `${PAGE}#ordered-checks`,
    'With the chain, every ordered reuse check is evaluated (current plan, prior documents, identity coverage, prior body observation) and each verdict carries the first failing one.',
    (c) => {
      const d = c.decision;
      if (!d || !c.priorReceipt) return [];
      const doc = d.doc;
      const checks = docChecks(doc);
      checks.set(1, bindingEqual(doc.binding, c.plan.contextBinding));
      // Every document of a bundle is already valid on its own, so checks 3 (validity) and 7 hold.
      checks.set(7, checks.get(6) === true);
      const prior = c.priorReceipt.doc;
      const mandatory = c.plan.mandatorySourceIds;
      if (prior.schemaVersion === 'ContextReadReceiptV2') {
        const covered = sameList(
          prior.sourceIdentities.map((s) => s.sourceId),
          mandatory,
        );
        checks.set(12, checks.get(12) === true && covered);
        const ev = receiptEvidence(prior);
        checks.set(
          13,
          mandatory.every((s) =>
            prior.observations.some(
              (o, k) => o.sourceId === s && o.hostSessionId === doc.hostSessionId && satisfies(ev, k),
            ),
          ),
        );
      } else {
        checks.set(12, false);
        checks.set(13, false);
      }
      const rule = `${PAGE}#ordered-checks`;
      return [
        ...orderIssuesOf(doc, 'computation', checks, new Set(), rule),
        ...orderIssuesOf(doc, 'delivery', checks, new Set(), rule),
      ].map((x) => ({ ...x, path: P(d.i, x.path) }));
    },
  ),
];

/** Cross-document rules of this area's bundle kinds. */
export const CONTEXT_RECEIPTS_BUNDLE_RULES: readonly BundleRule[] = CHAIN_RULES;
