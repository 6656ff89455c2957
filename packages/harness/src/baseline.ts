// Expected-failure baselines, kept in the implementer's repository. An entry names case ids (or
// globs) that are known to fail, with a reason; an unexpected failure fails the run, and so does
// an entry that now passes (stale), so the baseline only ever shrinks.

import { JsonTextError, parseJsonText } from '@agent-contracts/digest';
import type { CaseResult, Outcome } from './runner.js';
import { globMatch } from './shard.js';
import { truncated } from './text.js';

export interface BaselineEntry {
  /**
   * A case id, or a glob with `*` that names more than `*` and `/` (a pattern that matches every
   * case is refused: it would silently expect everything).
   */
  readonly id: string;
  readonly reason: string;
}

export interface Baseline {
  readonly $comment?: string;
  readonly expectedFailures: readonly BaselineEntry[];
}

/** Parse a baseline file's JSON; throws an Error saying what is wrong. */
export function parseBaseline(text: string): Baseline {
  let data: unknown;
  try {
    data = parseJsonText(text);
  } catch (e) {
    if (e instanceof JsonTextError && e.problem.kind === 'duplicate-member')
      throw new Error(`the baseline ${e.message}`);
    throw new Error(
      'the baseline is not JSON; expected { "expectedFailures": [{ "id": ..., "reason": ... }] }',
    );
  }
  const list = (data as Baseline | null)?.expectedFailures;
  if (!Array.isArray(list)) throw new Error('the baseline needs an "expectedFailures" array');
  for (const [i, e] of list.entries()) {
    if (!e || typeof e.id !== 'string' || !e.id || typeof e.reason !== 'string' || !e.reason.trim()) {
      throw new Error(`expectedFailures[${i}] needs a non-empty "id" and "reason"`);
    }
    if (/^[*/]+$/.test(e.id))
      throw new Error(
        `expectedFailures[${i}].id ${JSON.stringify(e.id)} matches every case, so it would expect every failure; name the case ids (or a pattern with a fixed part, e.g. "store/fence/*")`,
      );
  }
  return data as Baseline;
}

/**
 * The baseline entry that expects this result's failure: only a `fail` (a wrong answer) can be
 * expected, never an error, a timeout, a crash, a harness error or a protocol violation (which
 * make a case `error`).
 */
export function expectedFailureOf(baseline: Baseline | null, result: Pick<CaseResult, 'id' | 'outcome'>) {
  return result.outcome === 'fail' ? expectedFailureFor(baseline, result.id) : undefined;
}

const FAILING: ReadonlySet<Outcome> = new Set(['fail', 'error', 'timeout', 'crash']);

/** Whether an outcome is a failure (fail, error, timeout, crash): neither a pass nor not applicable. */
export function isFailure(outcome: Outcome): boolean {
  return FAILING.has(outcome);
}

/**
 * The conformance rule: at least one applicable case passed, no failure the baseline does not
 * expect, and no stale baseline entry. A run in which nothing passed never conforms, whatever the
 * baseline says, also in a shard (D-GEN-14). A `harness-error` is not a failure of the
 * implementation, so no baseline can expect it, but a run with one does not conform either: the
 * kit did not judge what it was to judge (D-GEN-30).
 */
export function conformsOf(
  passing: number,
  unexpectedFailures: number,
  stalePassing: number,
  harnessErrors = 0,
): boolean {
  return passing > 0 && unexpectedFailures === 0 && stalePassing === 0 && harnessErrors === 0;
}

/** The baseline entry matching a case id, if any. */
export function expectedFailureFor(baseline: Baseline | null, id: string): BaselineEntry | undefined {
  return baseline?.expectedFailures.find((e) => globMatch(e.id, id));
}

/**
 * Whether a failure of this item fails the run: a MUST item's does, a SHOULD item's only in a
 * strict run (`conform --strict`); otherwise it is a warning (D-GEN-41).
 */
export function failsRun(level: string, strict: boolean): boolean {
  return strict || level !== 'SHOULD';
}

/**
 * Judge a run against a baseline. A failure the baseline does not expect fails the run, unless
 * it is of a SHOULD item in a run that is not strict: then it is listed in `warnings`.
 */
export function judgeRun(
  results: readonly CaseResult[],
  baseline: Baseline | null,
  options: { readonly strict?: boolean } = {},
) {
  const strict = options.strict ?? false;
  const unexpected = results.filter((r) => isFailure(r.outcome) && !expectedFailureOf(baseline, r));
  const expectedFailures = results.filter((r) => expectedFailureOf(baseline, r)).map((r) => r.id);
  const unexpectedFailures = unexpected.filter((r) => failsRun(r.level, strict)).map((r) => r.id);
  const warnings = unexpected.filter((r) => !failsRun(r.level, strict)).map((r) => r.id);
  const stalePassing: string[] = [];
  for (const entry of baseline?.expectedFailures ?? []) {
    const matched = results.filter((r) => globMatch(entry.id, r.id));
    // An entry that matched cases which all pass is stale; entries matching nothing this run
    // (another shard, a filter) are left alone.
    if (matched.length && matched.every((r) => r.outcome === 'pass')) stalePassing.push(entry.id);
  }
  const passing = results.filter((r) => r.outcome === 'pass');
  const harnessErrors = results.filter((r) => r.outcome === 'harness-error').map((r) => r.id);
  return {
    unexpectedFailures,
    /** Ids of the cases that failed (`fail`) as the baseline expects. */
    expectedFailures,
    warnings,
    stalePassing,
    /** Cases and scenarios that ended as `harness-error`: defects of the kit, not of the implementation. */
    harnessErrors,
    conforms: conformsOf(
      passing.length,
      unexpectedFailures.length,
      stalePassing.length,
      harnessErrors.length,
    ),
  };
}

/**
 * A baseline listing exactly the current `fail`s, keeping the reasons of entries that still apply.
 * Errors, timeouts and crashes are not listed: no baseline can expect them.
 */
export function updatedBaseline(results: readonly CaseResult[], previous: Baseline | null): Baseline {
  const failing = results.filter((r) => r.outcome === 'fail');
  return {
    $comment: 'Expected failures of this implementation; `agent-contracts baseline update` rewrites it.',
    expectedFailures: failing.map((r) => ({
      id: r.id,
      // The case's title says what is expected; a report without titles falls back to the headline.
      reason:
        expectedFailureFor(previous, r.id)?.reason ??
        (r.title || truncated(`${r.outcome}: ${r.detail}`, 300)),
    })),
  };
}
