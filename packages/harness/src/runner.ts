// Runs golden cases against implementations. Every case ends as exactly one outcome; nothing is
// a pass unless the harness saw the expected reply to every step.
import { missingCapabilities } from '@agent-contracts/protocol';
import { type Case, pointerGet, resolveRefs, substituteVars, UnboundVariableError } from './cases.js';
import {
  type DifferenceCounts,
  generalPointer,
  type Judgement,
  judgeStep,
  type ReplyText,
} from './compare/index.js';
import { HarnessDefect, HarnessError } from './errors.js';
import type { Implementation } from './implementation.js';
import type { Difference } from './json-diff.js';
import type { RunLedger } from './session.js';
import { truncated } from './text.js';
import { describeViolations } from './transport/process.js';
import type { Reply } from './wire/reply.js';

/**
 * How a case ended. `harness-error`: the harness itself was wrong (a request of its own broke its
 * schema); never a pass, never the implementation's failure, and the run does not conform.
 */
export type Outcome = 'pass' | 'fail' | 'error' | 'timeout' | 'crash' | 'not-applicable' | 'harness-error';

/** The result of one case. */
export interface CaseResult {
  readonly id: string;
  readonly gate: string;
  readonly subject: string;
  readonly level: string;
  readonly outcome: Outcome;
  /** Why: what was expected and what was seen, or why the case did not apply. */
  readonly detail: string;
  readonly durationMs: number;
  /** The implementation's stderr tail, for error/timeout/crash outcomes. */
  readonly stderrTail?: string;
  /** The case's title, from its case file (absent in reports written before it was recorded). */
  readonly title?: string;
  /** `docs/spec/<page>.md#<anchor>` of what the case checks. */
  readonly spec?: string;
  /**
   * Ids of the requirements the case checks (docs/coverage.md); absent in reports written before
   * they were recorded.
   * @maxItems 64
   * @items.type string
   */
  readonly requirements?: readonly string[];
  /**
   * Index (from 0) of the step whose failure is the headline (`detail`), for `fail`; texts number
   * steps from 1 (`step 1 (digest)` is index 0).
   */
  readonly failedStep?: number;
  /**
   * Where the headline step's reply differs from what was expected, by JSON Pointer into the
   * JSON-RPC response; at most 20 (`DIFFERENCES_LISTED`, json-diff.ts). docs/spec/decisions.md D-GEN-12.
   */
  readonly differences?: readonly Difference[];
  /** How many differences there are beyond those listed in `differences`. */
  readonly moreDifferences?: number;
  /**
   * How many differences the headline step's reply has in each layer (shape: where it breaks its
   * schema; behaviour: where its expected members differ). docs/spec/decisions.md D-GEN-30.
   */
  readonly differenceCounts?: DifferenceCounts;
  /** What the headline step expected and the reply it received, as bounded text. */
  readonly reply?: ReplyText;
  /**
   * The steps that ran (or could not be sent) after the headline failure, in order: each is
   * judged as on its own. docs/spec/decisions.md D-GEN-13.
   */
  readonly afterFailure?: readonly StepResult[];
  /**
   * Set on the line of an exploration (`explore/<capability>`, docs/protocol.md#explore): how it
   * ran and, for a difference, what replays it. Such lines are counted apart from golden cases.
   */
  readonly explore?: ExploreLineFields;
}

/** What the line of an exploration says of it (docs/protocol.md#explore). */
export interface ExploreLineFields {
  /** The seed: `--explore-seed <seed>` explores the same sequences again. */
  readonly seed: number;
  /**
   * With `seed`, the counterexample path that replays the minimal failing sequence alone
   * (`--explore-path <path>`); absent when nothing differed.
   */
  readonly path?: string;
  /**
   * Sequences run, shrinking included.
   * @TJS-type integer
   * @minimum 0
   */
  readonly runs: number;
  /**
   * Steps sent to the implementation.
   * @TJS-type integer
   * @minimum 0
   */
  readonly steps: number;
  /**
   * The minimal failing sequence, one command per entry.
   * @maxItems 64
   * @items.type string
   */
  readonly counterexample?: readonly string[];
}

/** A step run after an earlier step of its case failed. */
export interface StepResult {
  /** Index of the step in the case, from 0 (texts number steps from 1). */
  readonly index: number;
  readonly method: string;
  /**
   * `skipped`: not sent, because its request needs a value the failed step did not yield.
   * `not-compared`: sent, its reply meets its schema, and its behaviour is not compared, because
   * the case left the state its expectations assume (docs/spec/decisions.md D-GEN-13).
   */
  readonly outcome: 'pass' | 'fail' | 'error' | 'timeout' | 'crash' | 'skipped' | 'not-compared';
  readonly detail: string;
  readonly differences?: readonly Difference[];
  readonly moreDifferences?: number;
  readonly differenceCounts?: DifferenceCounts;
  /** What the step expected and the reply it received (each cut at 200 characters); for the first 20 later steps whose reply differs. */
  readonly reply?: ReplyText;
}

type Done = (
  outcome: Outcome,
  detail: string,
  withStderr?: boolean,
  more?: Pick<
    CaseResult,
    'failedStep' | 'differences' | 'moreDifferences' | 'differenceCounts' | 'reply' | 'afterFailure'
  >,
) => CaseResult;

/** The detail of a `harness-error`: what was wrong, and whose defect it is. */
export function harnessDefectText(e: HarnessDefect): string {
  return `${e.code}: ${e.message}. This is a defect of the conformance kit (agent-contracts), not of the implementation under test; please report it`;
}

const FAULT_OUTCOME: Partial<Record<HarnessError['code'], 'timeout' | 'crash'>> = {
  IMPL_TIMEOUT: 'timeout',
  IMPL_EXITED: 'crash',
  IMPL_STDOUT_CLOSED: 'crash',
  IMPL_SPAWN_FAILED: 'crash',
  IMPL_NOT_RUNNING: 'crash',
};

/** What a case's result line repeats of the case: its identity, level, title, spec and requirements. */
const caseIdentity = (c: Case) => ({
  id: c.id,
  gate: c.gate,
  subject: c.subject,
  level: c.level,
  title: c.title,
  spec: c.spec,
  requirements: c.requirements,
});

/** Options of {@link runCase}. */
export interface CaseOptions {
  readonly conformanceDir: string;
  readonly timeoutMs: number;
  /** Called before each step's request is sent, with the step's index (from 0). */
  readonly onStep?: (index: number) => void;
}

/**
 * Run one case. Never throws: whatever goes wrong, inside the implementation or while judging its
 * reply, ends the case as an outcome other than `pass`. A protocol violation seen while the case
 * ran makes it `error`, even when every reply matched.
 */
export async function runCase(impl: Implementation, c: Case, options: CaseOptions): Promise<CaseResult> {
  const started = performance.now();
  const base = caseIdentity(c);
  const done: Done = (outcome, detail, withStderr = false, more = {}) => ({
    ...base,
    outcome,
    detail,
    ...more,
    durationMs: Math.round((performance.now() - started) * 100) / 100,
    ...(withStderr && impl.stderrTail ? { stderrTail: impl.stderrTail.slice(-4096) } : {}),
  });
  const missing = missingCapabilities(c.requires, impl.hello.capabilities);
  if (missing.length)
    return done('not-applicable', `the implementation does not declare ${missing.join(', ')}`);
  let result: CaseResult;
  try {
    result = await runSteps(impl, c, options, done);
  } catch (e) {
    result = done(
      'error',
      `the harness could not judge the case: ${(e as Error)?.message ?? String(e)}`,
      true,
    );
  }
  return withViolations(result, impl.takeViolations(), impl.stderrTail);
}

/**
 * A result with the protocol violations seen while (or after) it ran: a pass or a fail becomes
 * `error` (so that no baseline can expect a violation: baselines expect only `fail`); a timeout or
 * crash stays; the detail names the violations first and keeps its own after them.
 */
export function withViolations(
  result: CaseResult,
  seen: ReturnType<Implementation['takeViolations']>,
  stderrTail = '',
): CaseResult {
  if (seen.count === 0 || result.outcome === 'not-applicable') return result;
  return {
    ...result,
    outcome: result.outcome === 'pass' || result.outcome === 'fail' ? 'error' : result.outcome,
    detail: `${describeViolations(seen)} (then: ${result.outcome}: ${result.detail})`,
    ...(result.stderrTail === undefined && stderrTail ? { stderrTail: stderrTail.slice(-4096) } : {}),
  };
}

/**
 * Bounds of `afterFailure`, so that a case line stays far under the report's 1 MiB a line even
 * for the longest case (266 steps), every character escaped: the later steps list at most 40
 * behaviour differences and 20 shape differences between them (a shape difference the case has
 * already listed is not listed again; the rest are counted), and a later step's detail is cut at 300
 * characters (its differences are listed whole). docs/spec/decisions.md D-GEN-13.
 */
const LATER_DIFFERENCES = 40;
/** Shape differences the later steps list between them, each one the case has not listed yet. */
const LATER_SHAPE = 20;
const shapeKey = (d: Difference) =>
  `${generalPointer(d.pointer)}\u0000${d.keyword ?? ''}\u0000${d.schema ?? ''}`;
const LATER_DETAIL_CHARS = 300;
/** Later steps whose reply text is shown, and the length each text is cut at. */
const LATER_REPLIES = 20;
const LATER_REPLY_CHARS = 200;

/** Whether one pointer is the other or inside it. */
const near = (a: string, b: string) => a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);

/** Names of the `$var`s a step's params use. */
function varsOf(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) varsOf(v, into);
  else if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === '$var') into.add(String((value as { $var: unknown }).$var));
    else for (const v of Object.values(value)) varsOf(v, into);
  }
  return into;
}

/** What the case has seen so far: its first failure, and the steps after it. */
interface Seen {
  first: { detail: string; judgement: Judgement | null; index: number } | null;
  readonly later: StepResult[];
  stderr: boolean;
}

async function runSteps(
  impl: Implementation,
  c: Case,
  options: CaseOptions,
  done: Done,
): Promise<CaseResult> {
  const vars = new Map<string, unknown>();
  /** Variables a failed step should have captured, and which step that was. */
  const lost = new Map<string, number>();
  const seen: Seen = { first: null, later: [], stderr: false };
  /** How many more differences the later steps may list (the report line stays bounded). */
  let budget = LATER_DIFFERENCES;
  let shapeBudget = LATER_SHAPE;
  /** The shape differences the case has listed, by pointer (array indices aside), keyword and schema. */
  const shapeListed = new Set<string>();
  let replies = LATER_REPLIES;
  /** Variables captured from a reply that broke its schema, and which step that was (1-based). */
  const fromBroken = new Map<string, number>();
  /** Of those, the ones captured at or around a pointer where that reply breaks its schema. */
  const misshapen = new Map<string, number>();
  /**
   * Why the later replies are judged on shape alone: a step the case needed was not sent, or was
   * sent with a value captured where a reply broke its schema, so the implementation's state is no
   * longer the one the case's expectations assume, and a behaviour difference would be the kit's
   * doing, not the implementation's (D-GEN-13).
   */
  let offScript: string | null = null;
  /** A step not sent leaves the state the case expects unbuilt, unless it was to be refused (GEN-007). */
  const notSent = (i: number, step: Case['steps'][number]) => {
    if (!('error' in step.expect)) offScript ??= `step ${i + 1} was not sent`;
  };
  const failed = () => {
    const f = seen.first!;
    return done('fail', f.detail, seen.stderr, {
      failedStep: f.index,
      ...(f.judgement?.differences.length ? { differences: f.judgement.differences } : {}),
      ...(f.judgement?.moreDifferences ? { moreDifferences: f.judgement.moreDifferences } : {}),
      ...(f.judgement ? { differenceCounts: f.judgement.counts, reply: f.judgement.reply } : {}),
      ...(seen.later.length ? { afterFailure: seen.later } : {}),
    });
  };
  for (const [i, step] of c.steps.entries()) {
    const label = `step ${i + 1} (${step.method})`;
    const after = (outcome: StepResult['outcome'], detail: string, j?: Judgement | null) => {
      // Behaviour differences first claim the budget; a shape difference the case has already
      // listed (the same pointer, array indices aside, keyword and schema) is only counted.
      const differences: Difference[] = [];
      for (const d of j?.differences ?? []) {
        if (d.kind === 'shape') {
          const key = shapeKey(d);
          if (shapeListed.has(key) || shapeBudget <= 0) continue;
          shapeListed.add(key);
          shapeBudget--;
        } else if (budget <= 0) continue;
        else budget--;
        differences.push(d);
      }
      const more = (j?.moreDifferences ?? 0) + (j?.differences.length ?? 0) - differences.length;
      const reply =
        j && replies > 0
          ? {
              expected: truncated(j.reply.expected, LATER_REPLY_CHARS),
              received: truncated(j.reply.received, LATER_REPLY_CHARS),
            }
          : undefined;
      if (reply) replies--;
      seen.later.push({
        index: i,
        method: step.method,
        outcome,
        detail: truncated(detail, LATER_DETAIL_CHARS),
        ...(differences.length ? { differences } : {}),
        ...(more ? { moreDifferences: more } : {}),
        ...(j ? { differenceCounts: j.counts } : {}),
        ...(reply ? { reply } : {}),
      });
    };
    let params: unknown;
    try {
      params = substituteVars(resolveRefs(step.params, options.conformanceDir), vars);
    } catch (e) {
      const name = e instanceof UnboundVariableError ? e.variable : undefined;
      if (seen.first && name !== undefined && lost.has(name)) {
        after(
          'skipped',
          `not sent: its request needs "${name}", which step ${lost.get(name)! + 1} failed to yield`,
        );
        notSent(i, step);
        continue;
      }
      if (!seen.first)
        return done('error', `step ${i + 1}: cannot resolve its params: ${(e as Error).message}`);
      after('error', `cannot resolve its params: ${(e as Error).message}`);
      return failed();
    }
    let reply: Reply;
    options.onStep?.(i);
    try {
      reply = await impl.call(step.method, params, {
        timeoutMs: options.timeoutMs,
        ...(step.malformed ? { malformed: step.malformed } : {}),
      });
    } catch (e) {
      // The kit's own defect outweighs whatever the implementation did before it.
      if (e instanceof HarnessDefect) {
        // A request built from a value the implementation sent in a reply that broke its schema
        // breaks its schema for that reason: not the kit's defect, and not sent.
        const from = [...varsOf(step.params)].find((n) => fromBroken.has(n));
        if (seen.first && from !== undefined) {
          after(
            'skipped',
            `not sent: its request carries "${from}", captured from the reply of step ${fromBroken.get(from)}, which broke its schema, and so the request would break its own`,
          );
          notSent(i, step);
          continue;
        }
        return done('harness-error', `${label}: ${harnessDefectText(e)}`);
      }
      const stop = (
        outcome: Outcome & StepResult['outcome'],
        detail: string,
        withStderr: boolean,
      ): CaseResult => {
        if (!seen.first) return done(outcome, `${label}: ${detail}`, withStderr);
        // A transport failure after an earlier failure ends the case; the headline stays.
        after(outcome, detail);
        seen.stderr ||= withStderr;
        return failed();
      };
      if (!(e instanceof HarnessError)) return stop('error', (e as Error).message, false);
      const fault = FAULT_OUTCOME[e.code];
      if (fault) return stop(fault, `${e.code}: ${e.message}`, true);
      return stop('error', `${e.code}: ${e.message}`, true);
    }
    // Sent with a value from where a reply broke its schema: its reply is no evidence either.
    const carried = [...varsOf(step.params)].find((n) => misshapen.has(n));
    if (carried !== undefined)
      offScript ??= `step ${i + 1} carries "${carried}", captured from the reply of step ${misshapen.get(carried)} where it breaks its schema`;
    const judgement = judgeStep(step.expect, reply, { behaviour: offScript === null });
    // A reply that broke its schema is still captured from where it has the value (D-GEN-13), so
    // the later steps show behaviour through the broken shape (D-GEN-30).
    const wire = 'invalid' in reply ? reply.raw : reply;
    const source =
      'result' in wire
        ? wire.result
        : 'error' in wire
          ? (wire.error as { data?: unknown } | null)?.data
          : undefined;
    /** Where the reply breaks its schema, as pointers into what a capture reads. */
    const prefix = 'result' in wire ? '/result' : '/error/data';
    const broken =
      'invalid' in reply
        ? (reply.violations ?? [reply.invalid]).flatMap((v) =>
            v.pointer.startsWith(`${prefix}/`)
              ? [v.pointer.slice(prefix.length)]
              : near(v.pointer, prefix)
                ? ['']
                : [],
          )
        : [];
    let uncaptured: string | null = null;
    for (const [name, pointer] of Object.entries(step.capture ?? {})) {
      const value = pointerGet(source, pointer);
      if (value === undefined) {
        uncaptured ??= `nothing at ${pointer} to capture as "${name}"`;
        lost.set(name, i);
      } else {
        vars.set(name, value);
        if ('invalid' in reply) fromBroken.set(name, i + 1);
        else fromBroken.delete(name);
        if (broken.some((b) => near(b, pointer))) misshapen.set(name, i + 1);
        else misshapen.delete(name);
      }
    }
    const unsaid =
      offScript === null
        ? ''
        : `behaviour not compared: ${offScript}, so the state the case expects is not the implementation's`;
    const why = judgement?.detail ?? uncaptured;
    if (why === null) {
      if (seen.first)
        after(
          unsaid ? 'not-compared' : 'pass',
          unsaid ? `${unsaid}; its reply meets its schema` : 'as expected',
        );
      continue;
    }
    if (!seen.first) {
      seen.first = { detail: `${label}: ${why}`, judgement, index: i };
      for (const d of judgement?.differences ?? []) if (d.kind === 'shape') shapeListed.add(shapeKey(d));
      // The reason comes first: a later step's detail is cut at 300 characters.
    } else after('fail', unsaid && judgement ? `${unsaid}; ${why}` : why, judgement);
  }
  if (seen.first) return failed();
  return done('pass', `${c.steps.length} step${c.steps.length === 1 ? '' : 's'} as expected`);
}

/**
 * Whether the implementation must be restarted after this case: it crashed or hung, in the
 * step that decided the case or in one run after an earlier failure.
 */
export function needsRestart(result: CaseResult): boolean {
  const last = result.afterFailure?.at(-1)?.outcome ?? result.outcome;
  return ['crash', 'timeout'].includes(result.outcome) || ['crash', 'timeout'].includes(last);
}

/** Options of {@link runSuite}. */
export interface SuiteOptions {
  readonly conformanceDir: string;
  readonly timeoutMs: number;
  /** How many crashes (or timeouts, which restart too) the implementation may have in a run. */
  readonly restartBudget: number;
  /** Called with each result as soon as it is known (progress, streaming reports). */
  readonly onResult?: (result: CaseResult) => void;
  /**
   * The run's ledger: violations that no case of this session can be charged with (seen before
   * its first applicable case, or in a session where none applied) are charged to the run there.
   * Without one they are charged to the session's first applicable case, if it has one.
   */
  readonly run?: RunLedger;
  /** What the ledger calls this session (default "golden session"). */
  readonly sessionName?: string;
  /**
   * Called as an applicable case starts, after the results before it were reported: what the
   * session sends and reads from then on is this case's (`conform --wire`).
   */
  readonly onCaseStart?: (c: Case) => void;
  /** Called before each step's request is sent, with the step's index (from 0). */
  readonly onStep?: (index: number) => void;
}

/**
 * Run cases on one implementation session, in order, restarting it after a crash or timeout
 * while the budget lasts; once it is spent, the remaining cases end as `error`. Then close the
 * session. A protocol violation that arrives between two cases, or after the last one (up to the
 * session's end), is charged to the last case that sent a request: every violation of the
 * session fails a case. That is why a result is reported (`onResult`) only once the next case
 * that sends requests starts, or the session has ended.
 */
export async function runSuite(
  impl: Implementation,
  cases: readonly Case[],
  options: SuiteOptions,
): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  let restarts = 0;
  let dead: string | null = null;
  /** Index of the last result whose case sent requests, and of the first not yet reported. */
  let lastRan = -1;
  let reported = 0;
  /** Violations seen before any case could be charged with them, without a ledger to take them. */
  let early: ReturnType<Implementation['takeViolations']> | null = null;
  const settle = () => {
    const seen = impl.takeViolations();
    if (lastRan >= reported) results[lastRan] = withViolations(results[lastRan]!, seen, impl.stderrTail);
    else if (seen.count && options.run) options.run.charge(seen, options.sessionName ?? 'golden session');
    else if (seen.count)
      early = early ? { count: early.count + seen.count, first: [...early.first, ...seen.first] } : seen;
    for (; reported < results.length; reported++) options.onResult?.(results[reported]!);
  };
  for (const c of cases) {
    if (dead) {
      results.push({
        ...caseIdentity(c),
        outcome: 'error',
        detail: dead,
        durationMs: 0,
      });
      continue;
    }
    const applicable = missingCapabilities(c.requires, impl.hello.capabilities).length === 0;
    if (applicable) {
      settle();
      options.onCaseStart?.(c);
    }
    let result = await runCase(impl, c, options);
    if (applicable && early) {
      result = withViolations(result, early, impl.stderrTail);
      early = null;
    }
    results.push(result);
    if (!applicable) continue;
    lastRan = results.length - 1;
    if (needsRestart(result)) {
      if (restarts >= options.restartBudget) {
        dead = `not run: the implementation crashed or hung ${restarts + 1} times, more than the restart budget (${options.restartBudget}) allows`;
      } else {
        restarts++;
        try {
          await impl.restart();
        } catch (e) {
          dead = `not run: the implementation could not be restarted (${(e as Error).message})`;
        }
      }
    }
  }
  await impl.close().catch(() => {});
  settle();
  return results;
}
