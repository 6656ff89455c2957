// The model of one implementation session (`Model`), which computes each step's expectation by
// running the reference context engine, and the scenario a case is made from.
import { readFileSync } from 'node:fs';
import { digestOf } from '@agent-contracts/digest';
import {
  type ContextEvent,
  type decideReuse,
  foldOf,
  ManualClock,
  observeReceipt,
  openReceipt,
  type ReceiptOpen,
} from '@agent-contracts/engines';
import type { Step } from '@agent-contracts/harness';
import { contextSnapshot, ModelContext } from '@agent-contracts/harness/explore';
import { Refusal } from '@agent-contracts/protocol';
import type {
  ContextReadPlanV2,
  ContextReadReceiptV1,
  ContextReadReceiptV2,
  ContextSourceObservationLedgerV1,
} from '@agent-contracts/schemas';
import { post, pre } from './events.ts';
import { fixturesDir, json, PLAN_CALL, type PlanParams, SESSION, T0 } from './names.ts';

/**
 * The reference's session as the generator runs it: each request goes to the model of the
 * `context.*` methods that exploration runs too (ModelContext, @agent-contracts/harness/explore),
 * and the step that checks its answer is recorded.
 */
export class Model {
  readonly clock = new ManualClock(Date.parse(T0));
  readonly context = new ModelContext(this.clock);
  readonly steps: Step[] = [{ method: 'clock.set', params: { now: T0 }, expect: { result: { now: T0 } } }];
  /** Each plan made, with its receipt as last answered. */
  readonly plans = new Map<string, { plan: ContextReadPlanV2; receipt: ContextReadReceiptV2 | null }>();
  constructor(readonly name: string) {}

  private fail(what: string): never {
    throw new Error(`context/${this.name}: ${what}`);
  }
  /** The model's answer to a request: its result, or the code it refuses it with. */
  private call<T>(method: string, params: unknown): { ok: true; result: T } | { ok: false; code: string } {
    try {
      return { ok: true, result: this.context.handle(method, json(params) as Record<string, unknown>) as T };
    } catch (e) {
      if (e instanceof Refusal) return { ok: false, code: e.code };
      throw e;
    }
  }
  private refused(method: string, params: unknown, code: string, means: string): void {
    if (code !== means) this.fail(`${method} is refused with ${code}, not ${means}`);
    this.steps.push({ method, params: json(params), expect: { error: code } });
  }
  private held(planId: string) {
    return this.plans.get(planId) ?? this.fail(`no plan ${planId}`);
  }

  advance(ms = 1000): void {
    this.clock.advance(ms);
    const now = new Date(this.clock.now()).toISOString();
    this.steps.push({ method: 'clock.advance', params: { ms }, expect: { result: { now } } });
  }

  /** `context.plan`: the plan the engine makes, with the planning telemetry docs/protocol.md defines. */
  plan(params: PlanParams, means: 'plan' | string = 'plan'): ContextReadPlanV2 {
    const r = this.call<ContextReadPlanV2>('context.plan', params);
    if (!r.ok) {
      this.refused('context.plan', params, r.code, means);
      return undefined as never;
    }
    if (means !== 'plan') this.fail(`context.plan makes a plan, not ${means}`);
    const plan = r.result;
    this.steps.push({ method: 'context.plan', params: json(params), expect: { result: json(plan) } });
    this.plans.set(plan.planId, { plan, receipt: null });
    return plan;
  }

  open(planId: string, open: ReceiptOpen, means: string): ContextReadReceiptV2 {
    const h = this.held(planId);
    const params = { planId, open };
    const r = this.call<ContextReadReceiptV2>('context.receipt', params);
    if (!r.ok) {
      this.refused('context.receipt', params, r.code, means);
      return undefined as never;
    }
    if (r.result.status !== means) this.fail(`the receipt opens ${r.result.status}, not ${means}`);
    this.steps.push({ method: 'context.receipt', params: json(params), expect: { result: json(r.result) } });
    h.receipt = r.result;
    return r.result;
  }

  /** `context.receipt` of an unknown plan. */
  unknownPlan(planId: string): void {
    const r = this.call('context.receipt', { planId });
    if (r.ok) this.fail(`context.receipt answers for the unknown plan ${planId}`);
    this.refused('context.receipt', { planId }, r.code, 'CONTEXT_BINDING_PLAN_NOT_FOUND');
  }

  observe(planId: string, event: ContextEvent, means: string): ContextReadReceiptV2 {
    const h = this.held(planId);
    const params = { planId, event };
    const r = this.call<{ receipt: ContextReadReceiptV2; changed: boolean }>('context.observe', params);
    if (!r.ok) {
      this.refused('context.observe', params, r.code, means);
      return h.receipt!;
    }
    if (r.result.receipt.status !== means)
      this.fail(`${event.event} leaves the receipt ${r.result.receipt.status}, not ${means}`);
    this.steps.push({ method: 'context.observe', params: json(params), expect: { result: json(r.result) } });
    h.receipt = r.result.receipt;
    return r.result.receipt;
  }

  reuse(
    planId: string,
    inputs: Omit<Parameters<typeof decideReuse>[1], 'priorReceipt'> & {
      priorReceipt: ContextReadReceiptV2 | ContextReadReceiptV1 | { $fixture: string } | null;
    },
    means: string,
    planCall?: { toolCallId: string; attemptedAt: string },
    refusedWith?: string,
  ): void {
    const h = this.held(planId);
    const prior =
      inputs.priorReceipt && '$fixture' in inputs.priorReceipt
        ? (JSON.parse(
            readFileSync(`${fixturesDir}${inputs.priorReceipt.$fixture}`, 'utf8'),
          ) as ContextReadReceiptV1)
        : inputs.priorReceipt;
    const params = { planId, ...inputs, ...(planCall ? { planCall } : {}) };
    const r = this.call<{ decision: ReturnType<typeof decideReuse>; receipt: ContextReadReceiptV2 | null }>(
      'context.reuse',
      { ...params, priorReceipt: prior },
    );
    if (!r.ok) {
      if (!refusedWith) this.fail(`context.reuse is refused: ${r.code}`);
      this.refused('context.reuse', params, r.code, refusedWith);
      return;
    }
    if (refusedWith) this.fail(`context.reuse is not refused with ${refusedWith}`);
    const { decision, receipt } = r.result;
    if (decision.delivery.reasonCode !== means)
      this.fail(`the reuse decision's delivery is ${decision.delivery.reasonCode}, not ${means}`);
    if (receipt) h.receipt = receipt;
    this.steps.push({ method: 'context.reuse', params: json(params), expect: { result: json(r.result) } });
  }

  /** A writer's snapshot of the plan's ledger, made from `records` (the writer's own slice). */
  snapshotOf(
    planId: string,
    records: ContextReadReceiptV2['observations'],
  ): ContextSourceObservationLedgerV1 {
    const r = contextSnapshot(this.held(planId).plan, records, this.clock);
    if (!r.ok) this.fail(`the snapshot cannot be made: ${r.code}`);
    return r.ledger;
  }

  /**
   * A writer's snapshot holding `records` as the writer has them, records the merge rule drops
   * included (contextSnapshot merges, and so drops them itself): its fold and digest derived.
   */
  snapshotHolding(
    planId: string,
    records: ContextReadReceiptV2['observations'],
  ): ContextSourceObservationLedgerV1 {
    const plan = this.held(planId).plan;
    const { ledgerDigest: _d, ...empty } = this.snapshotOf(planId, []);
    const body = {
      ...empty,
      observations: records,
      fold: foldOf(plan.contextBinding, records, plan.mandatorySourceIds),
    };
    return { ...body, ledgerDigest: digestOf(body) };
  }

  /** The plan's receipt as last answered. */
  receiptOf(planId: string): ContextReadReceiptV2 {
    return this.held(planId).receipt ?? this.fail(`no receipt of ${planId}`);
  }

  /**
   * The records another writer of the plan holds: its own view of the plan's receipt, opened at
   * the plan call and reading `sources` (each an attempt and a result with the body), at the
   * session's clock. Nothing is sent to the implementation: the records reach it in a snapshot.
   */
  writerRecords(planId: string, sources: readonly string[]): ContextReadReceiptV2['observations'] {
    const plan = this.held(planId).plan;
    const clock = new ManualClock(this.clock.now());
    const opened = openReceipt(
      plan,
      {
        verificationMode: 'structured-plan',
        hostSessionId: SESSION,
        planCall: { toolCallId: PLAN_CALL, attemptedAt: plan.plannedAt },
      },
      clock,
    );
    if (!opened.ok) this.fail(`the writer's receipt cannot be opened: ${opened.code}`);
    let receipt = opened.receipt;
    for (const [i, s] of sources.entries()) {
      for (const event of [pre(plan, s, `toolu-writer-${i}`), post(plan, s, `toolu-writer-${i}`)]) {
        clock.advance(10);
        const r = observeReceipt(receipt, plan, event, clock);
        if (!r.ok) this.fail(`the writer's read of ${s} is refused: ${r.code}`);
        receipt = r.receipt;
      }
    }
    return receipt.observations;
  }

  write(planId: string, snapshot: ContextSourceObservationLedgerV1, means: 'written' | string): void {
    this.held(planId);
    const params = { op: 'write', planId, snapshot };
    const r = this.call('context.ledger', params);
    if (!r.ok) {
      this.refused('context.ledger', params, r.code, means);
      return;
    }
    if (means !== 'written') this.fail(`the write is accepted, not ${means}`);
    this.steps.push({ method: 'context.ledger', params: json(params), expect: { result: json(r.result) } });
  }

  replay(planId: string, liveRefs: Record<string, unknown[]>, means: string): void {
    const h = this.held(planId);
    const params = { op: 'replay', planId, liveRefs };
    const r = this.call<{
      ledger: ContextSourceObservationLedgerV1;
      receipt: ContextReadReceiptV2;
      replayed: string[];
    }>('context.ledger', params);
    if (!r.ok) {
      this.refused('context.ledger', params, r.code, means);
      return;
    }
    if (r.result.receipt.status !== means)
      this.fail(`the replayed receipt is ${r.result.receipt.status}, not ${means}`);
    const ledgerIds = new Set(r.result.ledger.observations.map((o) => o.observationId));
    if (r.result.replayed.some((id) => !ledgerIds.has(id)))
      this.fail('the replay made a record the ledger does not hold');
    h.receipt = r.result.receipt;
    this.steps.push({ method: 'context.ledger', params: json(params), expect: { result: json(r.result) } });
  }
}

export interface Scenario {
  readonly family: 'plan' | 'receipt' | 'reuse' | 'ledger';
  readonly name: string;
  readonly title: string;
  /** The section of the page the scenario checks. */
  readonly anchor: string;
  /** Requirements the scenario checks beyond its general one and its codes. */
  readonly requirements: readonly string[];
  readonly run: (m: Model) => void;
}
