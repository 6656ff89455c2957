import { type EngineRefusal, refusal } from '../refusal.js';

/** Outcome of a pure check: `ok`, or a refusal with the spec's code and a message saying what to do. */
export type TaskCheckResult = { readonly ok: true } | EngineRefusal;

/** The passing {@link TaskCheckResult}. */
export const OK: TaskCheckResult = Object.freeze({ ok: true as const });

/** A failing {@link TaskCheckResult}. */
export function fail(code: string, message: string): TaskCheckResult {
  return refusal(code, message);
}
