// Runs golden cases against implementations. Every case ends as exactly one outcome; nothing is
// a pass unless the harness saw the expected reply to every step.
import { isDeepStrictEqual } from 'node:util';
import { missingCapabilities } from '@agent-contracts/protocol';
import {
  type Case,
  type Expectation,
  partialMismatch,
  pointerGet,
  resolveRefs,
  substituteVars,
} from './cases.js';
import { HarnessError } from './errors.js';
import type { Implementation } from './implementation.js';
import { describeViolations } from './transport/process.js';

/** How a case ended. */
export type Outcome = 'pass' | 'fail' | 'error' | 'timeout' | 'crash' | 'not-applicable';

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
}

const short = (v: unknown) => {
  let s: string | undefined;
  try {
    s = JSON.stringify(v);
  } catch {
    s = undefined;
  }
  return s === undefined ? String(v) : s.length > 300 ? `${s.slice(0, 300)}…` : s;
};

interface ValidateLike {
  ok: boolean;
  issues: Array<{ code: string; path: string }>;
}

function asValidateResult(value: unknown): ValidateLike | string {
  const v = value as Partial<ValidateLike> | null;
  if (!v || typeof v !== 'object' || typeof v.ok !== 'boolean' || !Array.isArray(v.issues)) {
    return `expected a validate result { ok: boolean, issues: [...] }, got ${short(value)}`;
  }
  if (v.issues.some((i) => !i || typeof i.code !== 'string' || typeof i.path !== 'string')) {
    return `every issue needs a string "code" and "path", got ${short(v.issues)}`;
  }
  return v as ValidateLike;
}

/** Judge one reply against a step's expectation: null when it matches, else why not. */
export function judgeReply(
  expect: Expectation,
  reply: { result: unknown } | { error: HarnessError },
): string | null {
  if ('error' in expect) {
    if ('result' in reply) return `expected refusal ${expect.error}, got result ${short(reply.result)}`;
    const data = (reply.error.detail.error as { data?: { code?: unknown } } | undefined)?.data;
    return data?.code === expect.error
      ? null
      : `expected refusal ${expect.error}, got ${short(reply.error.detail.error)}`;
  }
  if ('error' in reply)
    return `expected a result, got error ${short(reply.error.detail.error ?? reply.error.message)}`;
  if ('result' in expect) {
    return isDeepStrictEqual(reply.result, expect.result)
      ? null
      : `expected ${short(expect.result)}, got ${short(reply.result)}`;
  }
  if ('match' in expect) {
    const at = partialMismatch(expect.match, reply.result);
    if (at === null) return null;
    const p = at === '/' ? '' : at;
    return `result differs at ${at}: expected ${short(pointerGet(expect.match, p))}, got ${short(pointerGet(reply.result, p))}`;
  }
  const r = asValidateResult(reply.result);
  if (typeof r === 'string') return r;
  if ('valid' in expect) {
    return r.ok && r.issues.length === 0
      ? null
      : `expected valid, got ok=${r.ok} with issues ${short(r.issues)}`;
  }
  if (r.ok) return `expected ${expect.issue.code} at "${expect.issue.path}", but the document was accepted`;
  return r.issues.some((i) => i.code === expect.issue.code && i.path === expect.issue.path)
    ? null
    : `expected ${expect.issue.code} at "${expect.issue.path}", got ${short(r.issues)}`;
}

const FAULT_OUTCOME: Partial<Record<HarnessError['code'], Outcome>> = {
  IMPL_TIMEOUT: 'timeout',
  IMPL_EXITED: 'crash',
  IMPL_STDOUT_CLOSED: 'crash',
  IMPL_SPAWN_FAILED: 'crash',
  IMPL_NOT_RUNNING: 'crash',
};

/**
 * Run one case. Never throws: whatever goes wrong, inside the implementation or while judging its
 * reply, ends the case as an outcome other than `pass`. A protocol violation seen while the case
 * ran makes it `error`, even when every reply matched.
 */
export async function runCase(
  impl: Implementation,
  c: Case,
  options: { conformanceDir: string; timeoutMs: number },
): Promise<CaseResult> {
  const started = performance.now();
  const base = { id: c.id, gate: c.gate, subject: c.subject, level: c.level };
  const done = (outcome: Outcome, detail: string, withStderr = false): CaseResult => ({
    ...base,
    outcome,
    detail,
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
 * A result with the protocol violations seen while (or after) it ran: a pass becomes `error`;
 * any other outcome stays; the detail names the violations first and keeps its own after them.
 */
export function withViolations(
  result: CaseResult,
  seen: ReturnType<Implementation['takeViolations']>,
  stderrTail = '',
): CaseResult {
  if (seen.count === 0 || result.outcome === 'not-applicable') return result;
  return {
    ...result,
    outcome: result.outcome === 'pass' ? 'error' : result.outcome,
    detail: `${describeViolations(seen)} (then: ${result.outcome}: ${result.detail})`,
    ...(result.stderrTail === undefined && stderrTail ? { stderrTail: stderrTail.slice(-4096) } : {}),
  };
}

async function runSteps(
  impl: Implementation,
  c: Case,
  options: { conformanceDir: string; timeoutMs: number },
  done: (outcome: Outcome, detail: string, withStderr?: boolean) => CaseResult,
): Promise<CaseResult> {
  const vars = new Map<string, unknown>();
  for (const [i, step] of c.steps.entries()) {
    let params: unknown;
    try {
      params = substituteVars(resolveRefs(step.params, options.conformanceDir), vars);
    } catch (e) {
      return done('error', `step ${i}: cannot resolve its params: ${(e as Error).message}`);
    }
    let reply: { result: unknown } | { error: HarnessError };
    try {
      reply = { result: await impl.request(step.method, params, { timeoutMs: options.timeoutMs }) };
    } catch (e) {
      if (!(e instanceof HarnessError))
        return done('error', `step ${i} (${step.method}): ${(e as Error).message}`);
      const fault = FAULT_OUTCOME[e.code];
      if (fault) return done(fault, `step ${i} (${step.method}): ${e.code}: ${e.message}`, true);
      if (e.code !== 'IMPL_RPC_ERROR')
        return done('error', `step ${i} (${step.method}): ${e.code}: ${e.message}`, true);
      reply = { error: e };
    }
    const why = judgeReply(step.expect, reply);
    if (why) return done('fail', `step ${i} (${step.method}): ${why}`);
    for (const [name, pointer] of Object.entries(step.capture ?? {})) {
      const source =
        'result' in reply ? reply.result : (reply.error.detail.error as { data?: unknown } | undefined)?.data;
      const value = pointerGet(source, pointer);
      if (value === undefined)
        return done('fail', `step ${i} (${step.method}): nothing at ${pointer} to capture as "${name}"`);
      vars.set(name, value);
    }
  }
  return done('pass', `${c.steps.length} step${c.steps.length === 1 ? '' : 's'} as expected`);
}

/** Options of {@link runSuite}. */
export interface SuiteOptions {
  readonly conformanceDir: string;
  readonly timeoutMs: number;
  /** How many crashes (or timeouts, which restart too) the implementation may have in a run. */
  readonly restartBudget: number;
  /** Called with each result as soon as it is known (progress, streaming reports). */
  readonly onResult?: (result: CaseResult) => void;
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
  const settle = () => {
    const seen = impl.takeViolations();
    if (lastRan >= reported) results[lastRan] = withViolations(results[lastRan]!, seen, impl.stderrTail);
    for (; reported < results.length; reported++) options.onResult?.(results[reported]!);
  };
  for (const c of cases) {
    if (dead) {
      results.push({
        id: c.id,
        gate: c.gate,
        subject: c.subject,
        level: c.level,
        outcome: 'error',
        detail: dead,
        durationMs: 0,
      });
      continue;
    }
    const applicable = missingCapabilities(c.requires, impl.hello.capabilities).length === 0;
    if (applicable) settle();
    const result = await runCase(impl, c, options);
    results.push(result);
    if (!applicable) continue;
    lastRan = results.length - 1;
    if (result.outcome === 'crash' || result.outcome === 'timeout') {
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
