// The model of the `context.*` methods (docs/protocol.md#context-v1-capability-context): the
// reference context engine of packages/engines behind the methods, with the session's plans and,
// per plan, its receipt and its observation ledger, as the reference implementation keeps them
// (D-GEN-62). Exploration sends well-formed requests only: a request the engines cannot take, or
// whose answer would break its contract (the reference answers -32602 or -32603), is a
// `ModelRefusedRequest` and is not sent.
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
import { Refusal } from '@agent-contracts/protocol';
import type {
  ContextReadPlanV2,
  ContextReadReceiptV2,
  ContextSourceObservationLedgerV1,
} from '@agent-contracts/schemas';
import { validate } from '@agent-contracts/validators';
import { ModelRefusedRequest } from './refused.js';

type Params = Record<string, unknown>;

interface Held {
  readonly plan: ContextReadPlanV2;
  receipt: ContextReadReceiptV2 | null;
  ledger: ContextSourceObservationLedgerV1 | null;
}

/** A document the engine wrote, or not sent when it breaks its contract. */
function valid<T>(document: T): T {
  if (!validate(document).ok) throw new ModelRefusedRequest('the engine wrote no valid document');
  return document;
}

/** An engine's run; a TypeError on params of the wrong shape is a request the model does not take. */
function engine<T>(run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (e instanceof TypeError) throw new ModelRefusedRequest(e.message);
    throw e;
  }
}

const refused = (r: { code: string; message: string }) => Refusal.from(r);

/**
 * A writer's snapshot of a plan's observation ledger, made from `records` (the writer's own slice
 * of a receipt's observations) at the clock's time; the engine's refusal when it cannot be made.
 */
export function contextSnapshot(
  plan: ContextReadPlanV2,
  records: ContextReadReceiptV2['observations'],
  clock: Clock,
): ReturnType<typeof writeLedger> {
  return writeLedger(
    null,
    { binding: plan.contextBinding, records, mandatorySourceIds: plan.mandatorySourceIds },
    clock,
  );
}

/**
 * The plans of one session and what each holds: what the reference does with each `context.*`
 * request. The exploration's model worlds and the golden-case generator (scripts/cases/context.ts)
 * both run it, so the two can never compute an answer differently. A refusal is thrown as a
 * `Refusal`; a request the engines cannot take as a `ModelRefusedRequest`.
 */
export class ModelContext {
  readonly #plans = new Map<string, Held>();
  readonly #clock: Clock;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  #held(p: Params): Held {
    const h = this.#plans.get(p.planId as string);
    if (!h) throw new Refusal('CONTEXT_BINDING_PLAN_NOT_FOUND', 'no such plan', { path: '/planId' });
    return h;
  }

  handle(method: string, p: Params): unknown {
    const clock = this.#clock;
    switch (method) {
      case 'context.plan': {
        const seed = formIntentSeed(p.seed, clock);
        if (!seed.ok) throw refused(seed);
        const { seed: _s, catalogue, ...rest } = p;
        const request = { ...rest, seed: seed.seed } as unknown as ContextPlanRequest;
        const r = engine(() => planContext(catalogue as ContextCatalogue, request, clock));
        if (!r.ok) throw refused(r);
        // docs/protocol.md (PROTO-010): the planning telemetry measures the params' RFC 8785 form.
        const jcs = canonicalize(p);
        const plan = valid({
          ...r.plan,
          planningTelemetry: {
            inputBytes: new TextEncoder().encode(jcs).length,
            inputChars: [...jcs].length,
            latencyMs: null,
            inputTokens: null,
          },
        });
        this.#plans.set(plan.planId, { plan, receipt: null, ledger: null });
        return plan;
      }
      case 'context.receipt': {
        const h = this.#held(p);
        if (p.open === undefined) {
          if (!h.receipt) throw new Refusal('CONTEXT_BINDING_REQUIRED', 'no receipt yet', { path: '/open' });
          return h.receipt;
        }
        if (h.receipt)
          throw new Refusal('CONTEXT_RECEIPT_STATUS_TRANSITION_INVALID', 'opened already', { path: '/open' });
        const r = engine(() => openReceipt(h.plan, p.open as ReceiptOpen, clock));
        if (!r.ok) throw refused(r);
        h.receipt = valid(r.receipt);
        return h.receipt;
      }
      case 'context.observe': {
        const h = this.#held(p);
        const receipt = h.receipt;
        if (!receipt) throw new Refusal('CONTEXT_BINDING_REQUIRED', 'no receipt yet', { path: '/planId' });
        const r = engine(() => observeReceipt(receipt, h.plan, p.event as ContextEvent, clock));
        if (!r.ok) throw refused(r);
        h.receipt = valid(r.receipt);
        return { receipt: h.receipt, changed: r.changed };
      }
      case 'context.reuse': {
        const h = this.#held(p);
        const decision = valid(
          engine(() =>
            decideReuse(
              h.plan,
              {
                executionOptimizationMode: p.executionOptimizationMode as 'safe-auto' | 'full-only',
                hostSessionId: p.hostSessionId as string | null,
                currentSourceIdentities: p.currentSourceIdentities as never,
                priorPlan: p.priorPlan as never,
                priorReceipt: p.priorReceipt as never,
              },
              clock,
            ),
          ),
        );
        const call = p.planCall as { toolCallId: string; attemptedAt: string } | undefined;
        let receipt: ContextReadReceiptV2 | null = null;
        if (call && decision.delivery.reuse) {
          if (h.receipt)
            throw new Refusal('CONTEXT_RECEIPT_STATUS_TRANSITION_INVALID', 'opened already', {
              path: '/planCall',
            });
          const r = engine(() =>
            receiptByReuse(
              h.plan,
              decision,
              p.priorReceipt as ContextReadReceiptV2,
              { toolCallId: call.toolCallId, attemptedAt: call.attemptedAt },
              clock,
            ),
          );
          if (!r.ok) throw refused(r);
          h.receipt = valid(r.receipt);
          receipt = h.receipt;
        }
        return { decision, receipt };
      }
      case 'context.ledger': {
        const h = this.#held(p);
        if (p.op === 'write') {
          const snapshot = p.snapshot as ContextSourceObservationLedgerV1;
          const b = h.plan.contextBinding;
          const s = snapshot.identity;
          if (
            (['contextEpoch', 'planId', 'planContentId', 'activeRoot', 'project'] as const).some(
              (f) => s[f] !== b[f],
            )
          )
            throw new Refusal('CONTEXT_SOURCE_OBSERVATION_IDENTITY_MISMATCH', 'another binding', {
              path: '/snapshot/identity',
            });
          const r = engine(() =>
            writeLedger(
              h.ledger,
              { binding: b, records: snapshot.observations, mandatorySourceIds: h.plan.mandatorySourceIds },
              clock,
            ),
          );
          if (!r.ok) throw refused(r);
          h.ledger = valid(r.ledger);
          return { ledger: h.ledger, dropped: [...r.dropped], receipt: null, replayed: [] };
        }
        const { ledger, receipt } = h;
        if (!ledger || !receipt)
          throw new Refusal('CONTEXT_SOURCE_LEDGER_REPLAY_FORBIDDEN', 'nothing to replay', {
            path: '/planId',
          });
        const r = engine(() => replayReceipt(ledger, receipt, h.plan, p.liveRefs as never, clock));
        if (!r.ok) throw refused(r);
        h.receipt = valid(r.receipt);
        return { ledger, dropped: [], receipt: h.receipt, replayed: [...r.replayed] };
      }
      default:
        throw new ModelRefusedRequest(`the model has no method ${method}`);
    }
  }
}
