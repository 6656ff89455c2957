// The capability vocabulary of protocol v1 (docs/protocol.md#hello-v1): what `hello` declares,
// and the tokens golden cases and fault scenarios name in `requires`. This list is the only
// place the vocabulary is spelled; the `Capabilities` type, the token syntax and the check of
// a `hello` result are derived from it.
import type { Capabilities } from './messages/hello.js';

/** How a capability is declared in `hello` and named in `requires`. */
export interface CapabilityEntry {
  /** The member of `capabilities` in `hello`'s result. */
  readonly key: keyof Capabilities;
  /**
   * `flag`: a boolean, required as the token `<key>`; `list`: an array of names, required as
   * `<token>:<name>` for one of them.
   */
  readonly kind: 'flag' | 'list';
  /** The token (`list`: its prefix) cases and scenarios name in `requires`. */
  readonly token: string;
  /** The characters a name of a `list` capability is made of (a regular expression source). */
  readonly name?: string;
  /**
   * `true` for a capability added after protocol v1 was released (docs/spec/decisions.md
   * D-GEN-60): `hello` may leave it out, which means not declared, so implementations written
   * before it existed keep conforming.
   */
  readonly optional?: true;
}

/** Every capability, in the order of docs/protocol.md. */
export const CAPABILITIES = [
  { key: 'contracts', kind: 'list', token: 'contract', name: '[A-Za-z0-9]+' },
  { key: 'bundles', kind: 'list', token: 'bundle', name: '[a-z0-9-]+' },
  { key: 'digest', kind: 'flag', token: 'digest' },
  { key: 'store', kind: 'flag', token: 'store' },
  { key: 'liveness', kind: 'flag', token: 'liveness' },
  { key: 'checkpoint', kind: 'flag', token: 'checkpoint' },
  { key: 'trace', kind: 'flag', token: 'trace' },
  { key: 'clock', kind: 'flag', token: 'clock' },
  { key: 'crashPoints', kind: 'list', token: 'crash', name: '[a-z0-9-]+' },
  { key: 'run', kind: 'flag', token: 'run', optional: true },
  { key: 'policy', kind: 'flag', token: 'policy', optional: true },
  { key: 'delegation', kind: 'flag', token: 'delegation', optional: true },
  { key: 'context', kind: 'flag', token: 'context', optional: true },
] as const satisfies readonly CapabilityEntry[];

// Compile-time: the list names every member of `Capabilities` and nothing else.
type Listed = (typeof CAPABILITIES)[number]['key'];
const _everyKeyListed: Record<Exclude<keyof Capabilities, Listed>, never> = {};
void _everyKeyListed;

/** A capability token as `requires` names it: `store`, `contract:<Name>`, `crash:<point>`, ... */
export const CAPABILITY_TOKEN = new RegExp(
  `^(${CAPABILITIES.map((c) => (c.kind === 'flag' ? c.token : `${c.token}:${c.name}`)).join('|')})$`,
);

/** Whether a string is a well-formed capability token. */
export function isCapabilityToken(token: unknown): token is string {
  return typeof token === 'string' && CAPABILITY_TOKEN.test(token);
}

/** Which required capability tokens the declared capabilities do not satisfy (unknown ones included). */
export function missingCapabilities(requires: readonly string[], caps: Capabilities): string[] {
  return requires.filter((token) => {
    const colon = token.indexOf(':');
    const prefix = colon < 0 ? token : token.slice(0, colon);
    const entry = CAPABILITIES.find((c) => c.token === prefix && (c.kind === 'list') === colon >= 0);
    if (!entry) return true;
    const declared: unknown = caps[entry.key];
    if (entry.kind === 'flag') return declared !== true;
    return !Array.isArray(declared) || !declared.includes(token.slice(colon + 1));
  });
}

/**
 * What is wrong with the `capabilities` of a `hello` result, or null when every capability is
 * declared with its type (a boolean, or an array of strings). An optional capability may be
 * absent (not declared), but when present it has its type.
 */
export function capabilitiesProblem(caps: unknown): string | null {
  if (!caps || typeof caps !== 'object' || Array.isArray(caps)) return '"capabilities" must be an object';
  for (const c of CAPABILITIES as readonly CapabilityEntry[]) {
    const v = (caps as Record<string, unknown>)[c.key];
    if (c.optional && !Object.hasOwn(caps, c.key)) continue;
    const ok =
      c.kind === 'list' ? Array.isArray(v) && v.every((x) => typeof x === 'string') : typeof v === 'boolean';
    const type = c.kind === 'list' ? 'an array of strings ([] for none)' : 'a boolean';
    if (!Object.hasOwn(caps, c.key)) return `"capabilities.${c.key}" is missing: it must be ${type}`;
    if (!ok) return `"capabilities.${c.key}" must be ${type}`;
  }
  return null;
}

/** The members `capabilities` must hold in every `hello` result (the optional ones aside), in order. */
export const REQUIRED_CAPABILITIES: readonly string[] = (CAPABILITIES as readonly CapabilityEntry[])
  .filter((c) => !c.optional)
  .map((c) => c.key);

/**
 * The capability tokens a `hello` declares, in the order of {@link CAPABILITIES}: `<token>` for
 * each flag that is `true`, `<token>:<name>` for each name of a list (as `requires` names them).
 * Entries of the wrong type declare nothing.
 *
 * @example
 * declaredCapabilities({ ...caps, digest: true, contracts: ['TaskContractV1'] });
 * // ['contract:TaskContractV1', 'digest']
 */
export function declaredCapabilities(caps: Capabilities): string[] {
  const out: string[] = [];
  for (const c of CAPABILITIES as readonly CapabilityEntry[]) {
    const v: unknown = caps[c.key];
    if (c.kind === 'flag') {
      if (v === true) out.push(c.token);
    } else if (Array.isArray(v)) {
      for (const name of v) if (typeof name === 'string') out.push(`${c.token}:${name}`);
    }
  }
  return out;
}
