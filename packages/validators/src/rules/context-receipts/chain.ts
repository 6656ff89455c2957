// Cross-document rules of the bundle kind `context-acquisition-chain` (seed, plan, ledger,
// receipts, reuse decision; docs/spec/context-acquisition-gate.md#bundles).
import type { ReusePriorPlanRef, ReusePriorReceiptRef } from '@agent-contracts/schemas';
import type { Issue } from '../../issues.js';
import { describeValue } from '../../pointer.js';
import { bundleRule, issue } from '../kit.js';
import type { BundleRule, ContractDocument } from '../types.js';
import {
  isAttempt,
  isResult,
  kindOf,
  latestIndex,
  ledgerEvidence,
  receiptEvidence,
  satisfies,
} from './evidence.js';
import { COMPLETE, mandatoryOf } from './receipt-v2.js';
import { docChecks, orderIssuesOf } from './reuse-decision.js';
import {
  type Attempt,
  type Binding,
  BUNDLES,
  CONTEXT_ACQUISITION_CHAIN,
  type Decision,
  equalJson,
  LEDGER,
  type Ledger,
  le,
  lt,
  PAGE,
  type PlanV2,
  RECEIPT_V1,
  RECEIPT_V2,
  REUSE,
  type ReceiptV1,
  type ReceiptV2,
  type Result,
  type Seed,
  sameList,
  show,
  sourceIdentitiesDigest,
} from './shared.js';

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

export const CHAIN_RULES: BundleRule[] = [
  bundleRule(
    'CONTEXT_ACQUISITION_CHAIN_OUT_OF_ORDER',
    CONTEXT_ACQUISITION_CHAIN,
    RECEIPT_V2,
    'The chain is seed -> plan -> attempted -> PostToolUse observed -> receipt: documents in the Bundles order, one seed embedded verbatim by the plan, one epoch, the plan made inside its own observed tool call, and every read after the plan observation and before completion.',
    (documents) => {
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
  ),
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
        const f = (Object.keys(actual) as Array<keyof ReusePriorPlanRef>).find(
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
        const f = (Object.keys(actual) as Array<keyof ReusePriorReceiptRef>).find((k) => actual[k] !== pr[k]);
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
