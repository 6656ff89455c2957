import type { FaultScenario } from '../scenario.js';
import type { FaultWorld } from '../world.js';

/**
 * A driver routine: runs one scenario in a fresh {@link FaultWorld} and returns what it observed
 * when every pass criterion held. It throws `FaultCheckFailure` for a criterion that did not
 * hold and `FaultNotApplicable` when the scenario cannot apply to this target.
 */
export type FaultRoutine = (world: FaultWorld, scenario: FaultScenario) => Promise<string>;

/** A JSON value with sorted keys, so the harness can fingerprint states whatever the store's key order. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

/** A numeric parameter of a scenario, with a default. */
export function param(s: FaultScenario, name: string, fallback: number): number {
  const v = s.parameters[name];
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

/** A string-list parameter of a scenario, with a default. */
export function listParam(s: FaultScenario, name: string, fallback: readonly string[]): string[] {
  const v = s.parameters[name];
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : [...fallback];
}
