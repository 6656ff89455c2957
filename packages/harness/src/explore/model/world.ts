// The model of an exploration: the reference engines of packages/engines run in process, behind
// the protocol methods, as the reference implementation (examples/reference-node) puts them
// there. Exploration sends well-formed requests only (every request is checked against its
// schema before it is sent), so the model has none of the reference's checks of malformed
// params: a request the engines cannot take is a `ModelRefusedRequest`, and exploration does not
// send it. Two worlds that differ in everything an implementation chooses (owner nonces, runtime
// generation, lease duration) tell what a reply must hold from what is the implementation's.
import { canonicalize, DigestError, sha256Hex } from '@agent-contracts/digest';
import {
  applyTurnEvent,
  type CheckpointEvidence,
  classify,
  createTurnState,
  type DelegationRequest,
  type DelegatorGrant,
  delegate,
  type LeaseRequest,
  LocalTaskTraceRecorder,
  ManualClock,
  observeTurnState,
  PolicySession,
  rehydrateTurnState,
  requestLease,
  stepRun,
  type TurnEventContext,
  type TurnHostEvent,
  validateCheckpoint,
  watchdogCheck,
} from '@agent-contracts/engines';
import { Refusal } from '@agent-contracts/protocol';
import type {
  DelegationContractV1,
  LocalTaskTraceTerminalResult,
  RunEvent,
  RunStateV1,
  TurnLivenessStateV1,
} from '@agent-contracts/schemas';
import { validate } from '@agent-contracts/validators';
import { ModelContext } from './context.js';
import { ModelRefusedRequest } from './refused.js';
import { ModelLog, ModelStore, type StoreChoices } from './store.js';

export { ModelRefusedRequest };

type Params = Record<string, unknown>;

function errorsOf(document: unknown, contract: string): { code: string; path: string }[] {
  const r = validate(document, { contract });
  return r.ok
    ? []
    : r.issues.filter((i) => i.severity === 'error').map((i) => ({ code: i.code, path: i.path }));
}

/** One model world: one clock, one turn, one trace, one policy session, store processes over one log. */
export class ModelWorld {
  readonly clock: ManualClock;
  readonly #log = new ModelLog();
  readonly #stores: ModelStore[] = [];
  readonly #variant: string;
  readonly #leaseDurationMs: number;
  #starts = 0;
  #turn: { ok: true; state: TurnLivenessStateV1 } | { ok: false; message: string; issues: unknown[] };
  #trace: LocalTaskTraceRecorder;
  readonly #policy: PolicySession;
  readonly #context: ModelContext;

  /**
   * @param variant what tells this world's choices apart from another's (nonces, runtime generation)
   * @param leaseDurationMs this world's diagnostic lease duration
   * @param startMs the clock's start
   */
  constructor(variant: string, leaseDurationMs: number, startMs: number) {
    this.clock = new ManualClock(startMs);
    this.#variant = variant;
    this.#leaseDurationMs = leaseDurationMs;
    this.#turn = { ok: true, state: createTurnState({ initializedAt: startMs }) };
    this.#trace = new LocalTaskTraceRecorder(this.clock);
    this.#policy = new PolicySession(this.clock);
    this.#context = new ModelContext(this.clock);
  }

  #choices(): StoreChoices {
    const n = this.#starts++;
    return {
      nonceSeed: `${this.#variant}:${n}`,
      runtimeGeneration: `runtime-${this.#variant}-${n}`,
      leaseDurationMs: this.#leaseDurationMs,
    };
  }

  /** The store of implementation process `i` (started on first use). */
  store(i: number): ModelStore {
    while (this.#stores.length <= i)
      this.#stores.push(new ModelStore(this.#log, this.clock, this.#choices()));
    return this.#stores[i] as ModelStore;
  }

  /** Process `i` was killed and started again: a new runtime generation on the same log. */
  restart(i: number): void {
    this.store(i);
    this.#stores[i] = new ModelStore(this.#log, this.clock, this.#choices());
  }

  #turnState(): TurnLivenessStateV1 {
    if (!this.#turn.ok)
      throw new Refusal('TURN_STATE_INVALID', this.#turn.message, { issues: this.#turn.issues });
    return this.#turn.state;
  }

  /** Answer one request as the reference implementation does; `proc` is the store process. */
  handle(method: string, params: Params, proc = 0): unknown {
    if (method.startsWith('store.')) return this.store(proc).handle(method, params);
    if (method.startsWith('context.')) return this.#context.handle(method, params);
    const clock = this.clock;
    switch (method) {
      case 'clock.set':
        clock.set(Date.parse(params.now as string));
        return { now: new Date(clock.now()).toISOString() };
      case 'clock.advance':
        clock.advance(params.ms as number);
        return { now: new Date(clock.now()).toISOString() };
      case 'digest': {
        let value: unknown;
        try {
          value = JSON.parse(params.json as string);
        } catch {
          throw new Refusal('DIGEST_INPUT_INVALID', 'not JSON');
        }
        try {
          const text = canonicalize(value);
          return { canonical: text, sha256: sha256Hex(text) };
        } catch (e) {
          if (e instanceof DigestError) throw new Refusal(e.code, e.message, { path: e.path });
          throw e;
        }
      }
      case 'liveness.reset': {
        const state = createTurnState({
          initializedAt: clock.now(),
          thresholds: (params.thresholds ?? {}) as never,
        });
        this.#turn = { ok: true, state };
        return state;
      }
      case 'liveness.rehydrate': {
        const r = rehydrateTurnState(params.state, (d) => validate(d, { contract: 'TurnLivenessStateV1' }));
        this.#turn = r.ok
          ? { ok: true, state: r.state }
          : { ok: false, message: r.message, issues: [...r.issues] };
        return this.#turnState();
      }
      case 'liveness.state':
        return this.#turnState();
      case 'liveness.classify':
        return classify(this.#turnState(), clock);
      case 'liveness.evidence':
        return observeTurnState(this.#turnState(), clock);
      case 'liveness.event': {
        const raw = params.event as Params;
        const at = typeof raw.at === 'string' ? Date.parse(raw.at) : clock.now();
        const event = { ...raw, at } as unknown as TurnHostEvent;
        const context = {
          unresolvedOperation: false,
          ...((params.context ?? {}) as object),
        } as TurnEventContext;
        const r = applyTurnEvent(this.#turnState(), event, context);
        this.#turn = { ok: true, state: r.state };
        if (!r.ok) throw new Refusal(r.code, r.message, { state: r.state, card: r.card });
        return { state: r.state, card: r.card };
      }
      case 'liveness.watchdog': {
        const r = watchdogCheck(this.#turnState(), clock);
        this.#turn = { ok: true, state: r.state };
        return { state: r.state, card: r.card };
      }
      case 'liveness.lease': {
        const r = requestLease(this.#turnState(), params as unknown as LeaseRequest);
        if (!r.ok) throw new Refusal(r.code, r.message);
        return { ok: true };
      }
      case 'checkpoint.validate': {
        const r = validateCheckpoint(
          {
            turnKey: params.turnKey as string,
            mode: params.mode as string,
            evidence: params.evidence as CheckpointEvidence[],
            ...(params.blockingIssues === undefined
              ? {}
              : { blockingIssues: params.blockingIssues as string[] }),
            ...(params.requiredActions === undefined
              ? {}
              : { requiredActions: params.requiredActions as string[] }),
            deadlineAt: params.deadlineAt as string | null,
          },
          clock,
        );
        if (!r.ok) throw new Refusal(r.code, r.message, { requiredActions: r.requiredActions });
        return r.result;
      }
      case 'trace.open': {
        const r = this.#trace.open(params as never);
        if (!r.ok) throw new Refusal(r.code, r.message, { step: r.step });
        return { trace: r.trace, unchanged: r.unchanged, previous: r.previous };
      }
      case 'trace.append':
      case 'trace.close': {
        const r =
          method === 'trace.append'
            ? this.#trace.append(params as never)
            : this.#trace.close(params.result as LocalTaskTraceTerminalResult, params.reason as string);
        if (!r.ok)
          throw new Refusal(r.code, r.message, {
            step: r.step,
            ...(r.violations ? { violations: r.violations } : {}),
            ...(r.eventId ? { eventId: r.eventId } : {}),
          });
        return { trace: r.trace, event: r.event, dropped: r.dropped };
      }
      case 'trace.replay':
        return this.#trace.replay();
      case 'trace.current':
        return this.#trace.trace;
      case 'trace.load':
        this.#trace = new LocalTaskTraceRecorder(clock, (params.trace ?? null) as never);
        return null;
      case 'policy.observe': {
        const p = this.#policy.observe(params.runId as string, params.observation as never);
        return { runId: params.runId, tainted: p.tainted, taintSources: p.taintSources };
      }
      case 'policy.decide': {
        const { context, ...call } = params;
        const r = this.#policy.decide(call as never, context as never);
        if (!r.ok) throw new Refusal(r.code, r.message, { path: r.path });
        if (!validate(r.decision).ok) throw new ModelRefusedRequest('no valid decision');
        return r.decision;
      }
      case 'delegate': {
        const parent = params.parent as Params;
        if (parent.schemaVersion !== undefined) {
          const issues = errorsOf(parent, 'DelegationContractV1');
          if (issues.length)
            throw new Refusal('DELEGATION_PARENT_INVALID', 'the parent is not valid', {
              path: `/parent${issues[0]!.path}`,
            });
        }
        const r = delegate(
          parent as unknown as DelegationContractV1 | DelegatorGrant,
          params.request as unknown as DelegationRequest,
          clock,
        );
        if (!r.ok) throw new Refusal(r.code, r.message, { path: r.path });
        if (!validate(r.contract).ok) throw new ModelRefusedRequest('no valid contract');
        return r.contract;
      }
      case 'run.step': {
        let state: RunStateV1 | null = null;
        if (params.state !== null) {
          const issues = errorsOf(params.state, 'RunStateV1');
          if (issues.length)
            throw new Refusal('RUN_STATE_INVALID', 'the state is not valid', {
              requiredAction: 'send-a-valid-state',
              issues: issues.slice(0, 64),
            });
          state = params.state as RunStateV1;
        }
        const r = stepRun(state, params.event as RunEvent, clock);
        if (!r.ok) throw new Refusal(r.code, r.message, { requiredAction: r.requiredAction });
        return { state: r.state, applied: r.applied, notice: r.notice };
      }
      default:
        throw new ModelRefusedRequest(`the model has no method ${method}`);
    }
  }
}
