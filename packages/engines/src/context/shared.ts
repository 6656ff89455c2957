// What the context engines share: code-unit order, the content identity of a delivered body, and
// the source key a source's bodies are identified under (docs/spec/context-acquisition-gate.md,
// "Computing an identity").
import { canonicalize, sha256Hex } from '@agent-contracts/digest';
import type { ContentIdentityV1 } from '@agent-contracts/schemas';

/** Ascending order of UTF-16 code units (the order every sorted list of the page uses). */
export const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** `list` sorted by code units, without duplicates. */
export const sortedUnique = <T extends string>(list: Iterable<T>): T[] =>
  [...new Set(list)].sort(byCodeUnits);

/** `list` sorted by `sourceId`. */
export const bySourceId = <T extends { sourceId: string }>(list: readonly T[]): T[] =>
  [...list].sort((a, b) => byCodeUnits(a.sourceId, b.sourceId));

/** A delivered body: raw text (hashed as its UTF-8 bytes) or a JSON value (hashed in its JCS form). */
export type DeliveredBody =
  | { readonly text: string; readonly contractVersion?: string }
  | { readonly value: unknown; readonly contractVersion: string };

/**
 * The `ContentIdentityV1` of a delivered body under `sourceKey` (NFKC, trimmed, `\` as `/`).
 * Throws the digest package's `DigestError` for a JSON value JCS cannot canonicalize.
 */
export function contentIdentityOf(sourceKey: string, body: DeliveredBody): ContentIdentityV1 {
  const bytes = 'text' in body ? body.text : canonicalize(body.value);
  const utf8 = new TextEncoder().encode(bytes);
  return {
    schemaVersion: 'ContentIdentityV1',
    algorithm: 'sha256',
    sourceKey: sourceKey.normalize('NFKC').trim().replaceAll('\\', '/'),
    contractVersion: body.contractVersion ?? '1',
    digest: sha256Hex(utf8),
    bytes: utf8.length,
  };
}

/** The source key of a plan source: `profile://<project>/<file>` or `memory://<project>/<query>`. */
export function sourceKeyOf(project: string, sourceId: string): string {
  const i = sourceId.indexOf(':');
  const scheme = sourceId.slice(0, i);
  return `${scheme}://${project}/${sourceId.slice(i + 1)}`;
}

/** Risk ranks: `normal` < `high` < `critical`. */
export const RISK_RANK = { normal: 0, high: 1, critical: 2 } as const;
