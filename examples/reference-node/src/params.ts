// Param readers for the liveness, checkpoint and trace methods: malformed params are JSON-RPC
// -32602 (InvalidParams); what the spec refuses is left to the engines.
import { hasLoneSurrogate } from '@agent-contracts/digest';
import { InvalidParams } from '@agent-contracts/protocol';

/** The params object of `method`. */
export function objectParams(params: unknown, method: string): Record<string, unknown> {
  if (params === undefined || params === null) return {};
  if (typeof params !== 'object' || Array.isArray(params))
    throw new InvalidParams(`${method}: params must be an object (see docs/protocol.md)`);
  return params as Record<string, unknown>;
}

/** Whether `value` is a JSON object (not an array). */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A required string member. */
export function str(o: Record<string, unknown>, key: string, where: string): string {
  const v = o[key];
  if (typeof v !== 'string' || v === '')
    throw new InvalidParams(`${where}.${key} must be a non-empty string`);
  return v;
}

/** An optional string member (absent -> undefined). */
export function optStr(o: Record<string, unknown>, key: string, where: string): string | undefined {
  return o[key] === undefined ? undefined : str(o, key, where);
}

/** An optional member from a closed set of strings. */
export function optOneOf<T extends string>(
  o: Record<string, unknown>,
  key: string,
  values: readonly T[],
  where: string,
): T | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v))
    throw new InvalidParams(`${where}.${key} must be one of ${values.join(', ')}`);
  return v as T;
}

/** A required member from a closed set of strings. */
export function oneOf<T extends string>(
  o: Record<string, unknown>,
  key: string,
  values: readonly T[],
  where: string,
): T {
  const v = optOneOf(o, key, values, where);
  if (v === undefined) throw new InvalidParams(`${where}.${key} is required (${values.join(', ')})`);
  return v;
}

/** An optional array of strings. */
export function optStrings(o: Record<string, unknown>, key: string, where: string): string[] | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
    throw new InvalidParams(`${where}.${key} must be an array of strings`);
  return v as string[];
}

/** An optional RFC 3339 timestamp, as milliseconds since the epoch. */
export function optTime(o: Record<string, unknown>, key: string, where: string): number | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  const ms = typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v) ? Date.parse(v) : Number.NaN;
  if (Number.isNaN(ms)) throw new InvalidParams(`${where}.${key} must be an RFC 3339 timestamp`);
  return ms;
}

/**
 * InvalidParams when `o` has a member outside `members`: a member the params schema does not
 * define makes the request malformed (docs/protocol.md, D-GEN-90).
 */
export function closed(o: Record<string, unknown>, members: readonly string[], where: string): void {
  for (const k of Object.keys(o))
    if (!members.includes(k)) throw new InvalidParams(`${where}.${k} is not a member of ${where}`);
}

/**
 * InvalidParams when a string anywhere in `value` (member names included) has a lone UTF-16
 * surrogate: no document made from it could have a digest (GEN-508).
 */
export function plainStrings(value: unknown, where: string): void {
  const walk = (v: unknown, at: string): void => {
    if (typeof v === 'string') {
      if (hasLoneSurrogate(v))
        throw new InvalidParams(`${at} has a lone surrogate; send well-formed Unicode`);
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) walk(v[i], `${at}[${i}]`);
    } else if (isObject(v))
      for (const [k, x] of Object.entries(v)) {
        if (hasLoneSurrogate(k)) throw new InvalidParams(`${at} has a member name with a lone surrogate`);
        walk(x, `${at}.${k}`);
      }
  };
  walk(value, where);
}
