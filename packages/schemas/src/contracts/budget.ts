/**
 * Hard limits shared by the run-control contracts: a task's constraints, a run's state and a
 * delegation each carry one. Not a contract of its own; each contract that uses it embeds it.
 */
import type { NonNegativeInteger, PositiveInteger } from './common.js';

/**
 * ISO 4217 currency code of a cost figure, e.g. `USD`.
 * @pattern ^[A-Z]{3}$
 */
export type CurrencyCode = string;

/** The hard limits of one run (or of a delegated sub-run). Every limit is required: a run without a limit is not bounded. */
export interface RunBudget {
  /** Most steps (one model turn and the tool calls it makes is one step) the run may take. */
  maxSteps: PositiveInteger;
  /** Most tool calls the run may make, all tools together. */
  maxToolCalls: NonNegativeInteger;
  /** Most retries of failed tool calls the run may make, all calls together. */
  maxRetries: NonNegativeInteger;
  /** Most wall-clock time the run may take, in milliseconds, from its start. */
  maxDurationMs: PositiveInteger;
  /** Most cost the run may spend, in millionths of `currency` (1 USD = 1000000). */
  maxCostMicros: NonNegativeInteger;
  /** Currency of `maxCostMicros`. */
  currency: CurrencyCode;
}

/** What a run has used of its budget so far, in the units of {@link RunBudget}. */
export interface BudgetUsage {
  /** Steps taken. */
  steps: NonNegativeInteger;
  /** Tool calls made. */
  toolCalls: NonNegativeInteger;
  /** Retries made. */
  retries: NonNegativeInteger;
  /** Milliseconds since the run started. */
  elapsedMs: NonNegativeInteger;
  /** Cost spent, in millionths of the budget's currency. */
  costMicros: NonNegativeInteger;
}
