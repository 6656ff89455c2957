// The per-run state of a policy engine: the provenance of each run, in memory, for as long as
// the session (one process, or one in-process handler) lives (D-GEN-61).
import type { PolicyDataProvenance, PolicyTaintSource } from '@agent-contracts/schemas';
import type { Clock } from '../clock.js';
import {
  decidePermission,
  type PolicyCall,
  type PolicyContext,
  type PolicyDecisionResult,
} from './decide.js';
import { CLEAN_PROVENANCE, observeUntrusted } from './provenance.js';

/**
 * A policy engine session: `observe` taints a run, `decide` decides a call of a run with the
 * run's provenance so far.
 *
 * @example
 * const policy = new PolicySession(clock);
 * policy.observe('run-1', { observationId: 'obs-1', kind: 'tool-output', origin: 'web.fetch' });
 * policy.decide(call, context); // a send of run-1 now needs a data-flow policy or an approval
 */
export class PolicySession {
  readonly #runs = new Map<string, PolicyDataProvenance>();
  constructor(private readonly clock: Clock) {}

  /** The provenance of a run so far (clean when nothing was observed). */
  provenance(runId: string): PolicyDataProvenance {
    return this.#runs.get(runId) ?? CLEAN_PROVENANCE;
  }

  /** Record an untrusted observation of a run; returns the run's provenance after it. */
  observe(runId: string, source: PolicyTaintSource): PolicyDataProvenance {
    const next = observeUntrusted(this.provenance(runId), source);
    this.#runs.set(runId, next);
    return next;
  }

  /** Decide a call of its run. */
  decide(call: PolicyCall, context: PolicyContext): PolicyDecisionResult {
    return decidePermission(call, context, this.provenance(call.runId), this.clock);
  }

  /** Forget every run (an in-process restart). */
  clear(): void {
    this.#runs.clear();
  }
}
