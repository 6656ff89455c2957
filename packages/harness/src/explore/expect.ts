// What an explored reply must hold: the expectation of a golden-case step, computed from the
// replies of two model worlds that differ in everything an implementation may choose. Only what
// both worlds agree on is compared; the rest is the implementation's (docs/protocol.md#explore).
import { isDeepStrictEqual } from 'node:util';
import type { Expectation } from '../cases.js';

/** A model world's reply: a result, or a spec refusal with its `data` (the code included). */
export type ModelReply =
  | { readonly result: unknown }
  | { readonly refusal: string; readonly data: Readonly<Record<string, unknown>> };

/**
 * The members of a refusal's `data` the protocol requires, by method prefix; every other member
 * (and the JSON-RPC `message`) is never compared.
 */
const REFUSAL_DATA: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['store.', ['ok', 'currentFence']],
  ['liveness.event', ['state', 'card']],
  ['trace.', ['step', 'violations', 'eventId']],
  ['checkpoint.validate', ['requiredActions']],
  ['run.step', ['requiredAction']],
  ['policy.decide', ['path']],
  ['delegate', ['path']],
];

/** The members of `a` and `b` that agree; `undefined` when nothing does (a scalar that differs). */
export function agreed(a: unknown, b: unknown): unknown {
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return undefined;
    const out = a.map((x, i) => agreed(x, b[i]));
    return out.some((x) => x === undefined) ? undefined : out;
  }
  if (a !== null && typeof a === 'object') {
    if (b === null || typeof b !== 'object' || Array.isArray(b)) return undefined;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(a)) {
      if (!Object.hasOwn(b, k)) continue;
      const m = agreed(v, (b as Record<string, unknown>)[k]);
      if (m !== undefined) out[k] = m;
    }
    return out;
  }
  return isDeepStrictEqual(a, b) ? a : undefined;
}

/**
 * A trace replay without its violations' messages, which are never compared
 * (docs/spec/local-task-trace-gate.md#localtasktracereplayv1, `violations[].message`): the
 * violations keep their codes, indexes, order and count, as the golden cases compare them
 * (scripts/cases/liveness.ts). Null for any other result.
 */
function unworded(method: string, result: unknown): unknown {
  if (method !== 'trace.replay' || !result || typeof result !== 'object') return null;
  const r = result as { violations?: unknown };
  if (!Array.isArray(r.violations)) return null;
  return {
    ...r,
    violations: r.violations.map((v) => {
      if (!v || typeof v !== 'object') return v;
      const { message: _message, ...rest } = v as Record<string, unknown>;
      return rest;
    }),
  };
}

/** Thrown when the two model worlds disagree on what kind of reply a request gets (a kit defect). */
export class ModelDisagreement extends Error {}

/**
 * The expectation of a step from the two worlds' replies: the whole result when both are equal,
 * else `match` with what they agree on; for a refusal its code and the required `data` members
 * both worlds agree on.
 */
export function expectationOf(method: string, a: ModelReply, b: ModelReply): Expectation {
  if ('result' in a && 'result' in b) {
    const replay = unworded(method, a.result);
    if (replay !== null && isDeepStrictEqual(a.result, b.result)) return { match: replay };
    if (isDeepStrictEqual(a.result, b.result)) return { result: a.result };
    const match = agreed(a.result, b.result);
    if (match === undefined)
      throw new ModelDisagreement(`${method}: the model worlds' results share nothing`);
    return { match: unworded(method, match) ?? match };
  }
  if ('refusal' in a && 'refusal' in b && a.refusal === b.refusal) {
    const keys = REFUSAL_DATA.find(([prefix]) => method.startsWith(prefix))?.[1] ?? [];
    const pick = (d: Readonly<Record<string, unknown>>) =>
      Object.fromEntries(keys.filter((k) => Object.hasOwn(d, k)).map((k) => [k, d[k]]));
    const data = agreed(pick(a.data), pick(b.data)) as Record<string, unknown>;
    return Object.keys(data).length ? { error: a.refusal, data } : { error: a.refusal };
  }
  throw new ModelDisagreement(`${method}: the model worlds answer differently`);
}
