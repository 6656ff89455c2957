// Which capability a not-applicable case or scenario lacks: the summary's "Not applicable" lines
// and the progress count items under each capability the implementation does not declare.
import { CAPABILITIES, type Capabilities, missingCapabilities } from '@agent-contracts/protocol';

/** A required token's capability (its `hello` key) and, of a list capability, the name it names. */
export function capabilityOf(token: string): { readonly key: string; readonly name?: string } {
  const colon = token.indexOf(':');
  const prefix = colon < 0 ? token : token.slice(0, colon);
  const key = CAPABILITIES.find((e) => e.token === prefix)?.key ?? token;
  return colon < 0 ? { key } : { key, name: token.slice(colon + 1) };
}

/** Whether a capability key names a list capability (`contracts`, `bundles`, `crashPoints`). */
export function isListCapability(key: string): boolean {
  return CAPABILITIES.some((e) => e.key === key && e.kind === 'list');
}

/** The capabilities (keys, each once) an item needing `requires` lacks, given what is declared. */
export function undeclaredCapabilities(requires: readonly string[], caps: Capabilities): string[] {
  return [...new Set(missingCapabilities(requires, caps).map((t) => capabilityOf(t).key))];
}

/** Capability keys in the order of docs/protocol.md, any other after them. */
export function byCapabilityOrder(a: string, b: string): number {
  const order: readonly string[] = CAPABILITIES.map((c) => c.key);
  const rank = (k: string) => (order.includes(k) ? order.indexOf(k) : order.length);
  return rank(a) - rank(b);
}
