// context.plan, context.receipt, context.observe, context.reuse and context.ledger
// (ContextAcquisitionGate): thin over the reference context engine, with the plans of the session
// and, per plan, its receipt and its observation ledger kept in memory (D-GEN-62). Malformed
// params are -32602; what the page refuses is the engine's to say (-32000, one refusal value
// through Refusal.from); a document the engine writes that breaks its contract is -32603.
import { canonicalize } from '@agent-contracts/digest';
import {
  type Clock,
  type ContextCatalogue,
  type ContextEvent,
  type ContextPlanRequest,
  decideReuse,
  formIntentSeed,
  observeReceipt,
  openReceipt,
  planContext,
  type ReceiptOpen,
  receiptByReuse,
  replayReceipt,
  writeLedger,
} from '@agent-contracts/engines';
import {
  type ContextLedgerResult,
  type ContextObserveResult,
  type ContextPlanResult,
  type ContextReceiptResult,
  type ContextReuseResult,
  InvalidParams,
  Refusal,
} from '@agent-contracts/protocol';
import type {
  ContextReadPlanV2,
  ContextReadReceiptV2,
  ContextSourceObservationLedgerV1,
} from '@agent-contracts/schemas';
import { checkedAnswer } from './answer.js';
import { closed, isObject, objectParams, plainStrings, str } from './params.js';

const PLAN_MEMBERS = [
  'seed',
  'catalogue',
  'host',
  'invocationNonce',
  'planner',
  'contract',
  'changeTypes',
  'fullReadRequest',
  'localSourcesRequested',
  'explicitSelectors',
  'triggers',
  'budget',
  'cacheArtifacts',
  'readTrace',
];
const EVENTS = ['PreToolUse', 'PostToolUse', 'drift', 'block', 'consume'];
const MODES = ['structured-plan', 'path-observable', 'instruction-only'];
/** Most plans a session keeps (the oldest is forgotten first). */
const PLAN_LIMIT = 256;

/** What the session holds of one plan. */
interface Held {
  readonly plan: ContextReadPlanV2;
  receipt: ContextReadReceiptV2 | null;
  ledger: ContextSourceObservationLedgerV1 | null;
}

const obj = (o: Record<string, unknown>, key: string, where: string): Record<string, unknown> => {
  const v = o[key];
  if (!isObject(v)) throw new InvalidParams(`${where}.${key} must be an object`);
  return v;
};
const arrayOf = (o: Record<string, unknown>, key: string, where: string): unknown[] => {
  const v = o[key];
  if (!Array.isArray(v)) throw new InvalidParams(`${where}.${key} must be an array`);
  return v;
};
const nullableObj = (o: Record<string, unknown>, key: string, where: string) => {
  if (o[key] === null) return null;
  return obj(o, key, where);
};

/** An engine refusal whose `path` points into a member of the params (`/seed`, `/event`, ...). */
const under = <R extends { readonly code: string; readonly message: string; readonly path: string }>(
  member: string,
  r: R,
): R => ({ ...r, path: `${member}${r.path}` });

/**
 * The planning telemetry of a `context.plan` request as docs/protocol.md defines it: the UTF-8
 * bytes and code points of the params' RFC 8785 form, no latency, no tokens. It is not part of a
 * plan's ids, and it is the same for every implementation given the same request.
 */
function planningTelemetryOf(params: unknown): ContextReadPlanV2['planningTelemetry'] {
  const jcs = canonicalize(params);
  return {
    inputBytes: new TextEncoder().encode(jcs).length,
    inputChars: [...jcs].length,
    latencyMs: null,
    inputTokens: null,
  };
}

/**
 * Run an engine on params the checks above let through; a TypeError the engine meets in a
 * member of the wrong shape is the caller's malformed params, never a crash.
 */
function engine<T>(method: string, run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (e instanceof TypeError)
      throw new InvalidParams(`${method}: params break their schema (${e.message})`);
    throw e;
  }
}

/** The catalogue's shape (its members are the engine's to judge). */
function catalogueOf(p: Record<string, unknown>): ContextCatalogue {
  const c = obj(p, 'catalogue', 'params');
  closed(c, ['activeRoot', 'project', 'index', 'config', 'documents'], 'params.catalogue');
  str(c, 'activeRoot', 'params.catalogue');
  str(c, 'project', 'params.catalogue');
  for (const which of ['index', 'config']) {
    const b = obj(c, which, 'params.catalogue');
    closed(b, ['file', 'refs', 'body'], `params.catalogue.${which}`);
    str(b, 'file', `params.catalogue.${which}`);
    arrayOf(b, 'refs', `params.catalogue.${which}`);
    obj(b, 'body', `params.catalogue.${which}`);
  }
  for (const [i, d] of arrayOf(c, 'documents', 'params.catalogue').entries()) {
    if (!isObject(d)) throw new InvalidParams(`params.catalogue.documents[${i}] must be an object`);
    arrayOf(d, 'refs', `params.catalogue.documents[${i}]`);
    arrayOf(d, 'serves', `params.catalogue.documents[${i}]`);
  }
  return c as unknown as ContextCatalogue;
}

/**
 * The context methods and their session.
 *
 * @example
 * const context = createContext(clock);
 * const plan = await context.methods['context.plan']!({ seed: { semantic: 'chat' }, catalogue, host: 'standalone', invocationNonce: 'nonce-0000000000000001' });
 */
export function createContext(clock: Clock) {
  const plans = new Map<string, Held>();
  const held = (p: Record<string, unknown>): Held => {
    const planId = str(p, 'planId', 'params');
    const h = plans.get(planId);
    if (!h)
      throw new Refusal(
        'CONTEXT_BINDING_PLAN_NOT_FOUND',
        `no plan ${JSON.stringify(planId.slice(0, 80))} was made in this session; plan again (context.plan).`,
        { path: '/planId' },
      );
    return h;
  };
  const methods: Record<string, (params: unknown) => unknown> = {
    'context.plan'(params): ContextPlanResult {
      const p = objectParams(params, 'context.plan');
      closed(p, PLAN_MEMBERS, 'params');
      plainStrings(p, 'params');
      const seedInput = obj(p, 'seed', 'params');
      const catalogue = catalogueOf(p);
      str(p, 'host', 'params');
      str(p, 'invocationNonce', 'params');
      const seed = formIntentSeed(seedInput, clock);
      if (!seed.ok) throw Refusal.from(under('/seed', seed), 'context.plan: ');
      const { seed: _s, catalogue: _c, ...rest } = p;
      const request = { ...rest, seed: seed.seed } as unknown as ContextPlanRequest;
      const r = engine('context.plan', () => planContext(catalogue, request, clock));
      if (!r.ok) throw Refusal.from(r, 'context.plan: ');
      const plan = checkedAnswer(
        'context.plan',
        { ...r.plan, planningTelemetry: planningTelemetryOf(p) },
        { computed: ['/planId', '/planContentId'] },
      );
      if (plans.size >= PLAN_LIMIT) plans.delete(plans.keys().next().value as string);
      plans.set(plan.planId, { plan, receipt: null, ledger: null });
      return plan;
    },
    'context.receipt'(params): ContextReceiptResult {
      const p = objectParams(params, 'context.receipt');
      closed(p, ['planId', 'open'], 'params');
      plainStrings(p, 'params');
      const open = p.open === undefined ? undefined : obj(p, 'open', 'params');
      if (open) {
        closed(open, ['verificationMode', 'hostSessionId', 'planCall', 'baselineDelivered'], 'params.open');
        if (!MODES.includes(open.verificationMode as string))
          throw new InvalidParams(`params.open.verificationMode must be one of ${MODES.join(', ')}`);
      }
      const h = held(p);
      if (!open) {
        if (!h.receipt)
          throw new Refusal(
            'CONTEXT_BINDING_REQUIRED',
            'context.receipt: the plan has no receipt yet; open it (params.open) first.',
            { path: '/open' },
          );
        return h.receipt;
      }
      if (h.receipt)
        throw new Refusal(
          'CONTEXT_RECEIPT_STATUS_TRANSITION_INVALID',
          'context.receipt: the plan has a receipt already; a receipt is opened once per plan (plan again for a new one).',
          { path: '/open' },
        );
      const r = engine('context.receipt', () => openReceipt(h.plan, open as unknown as ReceiptOpen, clock));
      if (!r.ok) throw Refusal.from(under('/open', r), 'context.receipt: ');
      h.receipt = checkedAnswer('context.receipt', r.receipt, { computed: ['/receiptId'] });
      return h.receipt;
    },
    'context.observe'(params): ContextObserveResult {
      const p = objectParams(params, 'context.observe');
      closed(p, ['planId', 'event'], 'params');
      plainStrings(p, 'params');
      const event = obj(p, 'event', 'params');
      if (!EVENTS.includes(event.event as string))
        throw new InvalidParams(`params.event.event must be one of ${EVENTS.join(', ')}`);
      const h = held(p);
      if (!h.receipt)
        throw new Refusal(
          'CONTEXT_BINDING_REQUIRED',
          'context.observe: the plan has no receipt yet; open it (context.receipt with params.open) first.',
          { path: '/planId' },
        );
      const receipt = h.receipt;
      const r = engine('context.observe', () =>
        observeReceipt(receipt, h.plan, event as unknown as ContextEvent, clock),
      );
      if (!r.ok) throw Refusal.from(under('/event', r), 'context.observe: ');
      h.receipt = checkedAnswer('context.observe', r.receipt, { computed: ['/receiptId'] });
      return { receipt: h.receipt, changed: r.changed };
    },
    'context.reuse'(params): ContextReuseResult {
      const p = objectParams(params, 'context.reuse');
      closed(
        p,
        [
          'planId',
          'executionOptimizationMode',
          'hostSessionId',
          'currentSourceIdentities',
          'priorPlan',
          'priorReceipt',
          'planCall',
        ],
        'params',
      );
      plainStrings(p, 'params');
      const mode = p.executionOptimizationMode;
      if (mode !== 'safe-auto' && mode !== 'full-only')
        throw new InvalidParams('params.executionOptimizationMode must be safe-auto or full-only');
      if (p.hostSessionId !== null && typeof p.hostSessionId !== 'string')
        throw new InvalidParams('params.hostSessionId must be a string or null');
      if (p.currentSourceIdentities !== null && !Array.isArray(p.currentSourceIdentities))
        throw new InvalidParams('params.currentSourceIdentities must be an array or null');
      const priorPlan = nullableObj(p, 'priorPlan', 'params');
      const priorReceipt = nullableObj(p, 'priorReceipt', 'params');
      const call = p.planCall === undefined ? undefined : obj(p, 'planCall', 'params');
      if (call) closed(call, ['toolCallId', 'attemptedAt', 'argsDigest'], 'params.planCall');
      const h = held(p);
      const decision = engine('context.reuse', () =>
        decideReuse(
          h.plan,
          {
            executionOptimizationMode: mode,
            hostSessionId: p.hostSessionId as string | null,
            currentSourceIdentities: p.currentSourceIdentities as never,
            priorPlan: priorPlan as never,
            priorReceipt: priorReceipt as never,
          },
          clock,
        ),
      );
      checkedAnswer('context.reuse', decision, { computed: ['/decisionId', '/computation', '/delivery'] });
      let receipt: ContextReadReceiptV2 | null = null;
      if (call && decision.delivery.reuse) {
        if (h.receipt)
          throw new Refusal(
            'CONTEXT_RECEIPT_STATUS_TRANSITION_INVALID',
            'context.reuse: the plan has a receipt already; reuse opens a plan receipt once.',
            { path: '/planCall' },
          );
        const r = engine('context.reuse', () =>
          receiptByReuse(
            h.plan,
            decision,
            priorReceipt as unknown as ContextReadReceiptV2,
            {
              toolCallId: str(call, 'toolCallId', 'params.planCall'),
              attemptedAt: str(call, 'attemptedAt', 'params.planCall'),
            },
            clock,
          ),
        );
        if (!r.ok) throw Refusal.from(r, 'context.reuse: ');
        h.receipt = checkedAnswer('context.reuse', r.receipt, { computed: ['/receiptId'] });
        receipt = h.receipt;
      }
      return { decision, receipt };
    },
    'context.ledger'(params): ContextLedgerResult {
      const p = objectParams(params, 'context.ledger');
      plainStrings(p, 'params');
      if (p.op === 'write') {
        closed(p, ['op', 'planId', 'snapshot'], 'params');
        const snapshot = obj(p, 'snapshot', 'params');
        const records = arrayOf(snapshot, 'observations', 'params.snapshot');
        const binding = obj(snapshot, 'identity', 'params.snapshot');
        const h = held(p);
        const b = h.plan.contextBinding;
        if (
          (['contextEpoch', 'planId', 'planContentId', 'activeRoot', 'project'] as const).some(
            (f) => binding[f] !== b[f],
          )
        )
          throw new Refusal(
            'CONTEXT_SOURCE_OBSERVATION_IDENTITY_MISMATCH',
            "context.ledger: the snapshot's identity is not the plan's binding; write the ledger of this plan.",
            { path: '/snapshot/identity' },
          );
        const r = engine('context.ledger', () =>
          writeLedger(
            h.ledger,
            { binding: b, records: records as never, mandatorySourceIds: h.plan.mandatorySourceIds },
            clock,
          ),
        );
        if (!r.ok) throw Refusal.from(r, 'context.ledger: ');
        h.ledger = checkedAnswer('context.ledger', r.ledger, {
          computed: ['/ledgerDigest', '/fold', '/revision'],
        });
        return { ledger: h.ledger, dropped: [...r.dropped], receipt: null, replayed: [] };
      }
      if (p.op === 'replay') {
        closed(p, ['op', 'planId', 'liveRefs'], 'params');
        const liveRefs = obj(p, 'liveRefs', 'params');
        const h = held(p);
        const { ledger, receipt } = h;
        if (!ledger || !receipt)
          throw new Refusal(
            'CONTEXT_SOURCE_LEDGER_REPLAY_FORBIDDEN',
            `context.ledger: the plan has no ${receipt ? 'stored ledger' : 'receipt'} to replay; write the ledger of an open receipt first.`,
            { path: '/planId' },
          );
        const r = engine('context.ledger', () =>
          replayReceipt(ledger, receipt, h.plan, liveRefs as never, clock),
        );
        if (!r.ok) throw Refusal.from(r, 'context.ledger: ');
        h.receipt = checkedAnswer('context.ledger', r.receipt, { computed: ['/receiptId'] });
        return { ledger, dropped: [], receipt: h.receipt, replayed: [...r.replayed] };
      }
      throw new InvalidParams('params.op must be write or replay');
    },
  };
  return { methods, clear: () => plans.clear() };
}
