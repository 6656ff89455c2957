// Shared by the rules of ContextReadReceiptV2, ContextReadReceiptV1, ContextReuseDecisionV1,
// ContextSourceObservationLedgerV1 and the bundle `context-acquisition-chain`: the spec anchors, the
// contract types under short names, and time, JSON and list helpers.
import type {
  ContentIdentityV1,
  ContextPlanObservation,
  ContextReadBindingV1,
  ContextReadPlanV2,
  ContextReadReceiptV1,
  ContextReadReceiptV2,
  ContextReuseDecisionV1,
  ContextSourceAttemptObservation,
  ContextSourceObservation,
  ContextSourceObservationLedgerV1,
  ContextSourceResultObservation,
  IntentSeedV1,
  LegacyContextReadObservation,
} from '@agent-contracts/schemas';
import { DIGEST_RULES } from '@agent-contracts/schemas';

export const PAGE = 'docs/spec/context-acquisition-gate.md';
export const RECEIPT_V2 = `${PAGE}#contextreadreceiptv2`;
export const RECEIPT_V1 = `${PAGE}#contextreadreceiptv1`;
export const REUSE = `${PAGE}#contextreusedecisionv1`;
export const LEDGER = `${PAGE}#contextsourceobservationledgerv1`;
export const BUNDLES = `${PAGE}#bundles`;

/** The bundle kind of one ContextAcquisitionGate chain (seed, plan, ledger, receipts, reuse). */
export const CONTEXT_ACQUISITION_CHAIN = 'context-acquisition-chain';

// The contract types the rules read, from the schemas package (documents are schema-valid when
// rules run), under the short names the rules use.
export type Json = unknown;
export type Binding = ContextReadBindingV1;
export type ContentIdentity = ContentIdentityV1;
export type Attempt = ContextSourceAttemptObservation;
export type Result = ContextSourceResultObservation;
export type Observation = ContextSourceObservation;
export type PlanObservation = ContextPlanObservation;
export type ReceiptV2 = ContextReadReceiptV2;
export type LegacyObservation = LegacyContextReadObservation;
export type ReceiptV1 = ContextReadReceiptV1;
export type Decision = ContextReuseDecisionV1;
export type Ledger = ContextSourceObservationLedgerV1;
export type PlanV2 = ContextReadPlanV2;
export type Seed = IntentSeedV1;

/** Sortable key of an RFC 3339 UTC timestamp (`YYYY-MM-DDTHH:MM:SS(.f{1,9})?Z`), exact to 1 ns. */
function timeKey(t: string): string {
  return t.slice(0, 19) + (t[19] === '.' ? t.slice(20, -1).padEnd(9, '0') : '000000000');
}
export const lt = (a: string, b: string) => timeKey(a) < timeKey(b);
export const le = (a: string, b: string) => timeKey(a) <= timeKey(b);
export const sameTime = (a: string, b: string) => timeKey(a) === timeKey(b);

/** Deterministic JSON text with sorted keys, for equality of JSON values (not a digest). */
function canon(value: Json): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canon).join(',')}]`;
  const obj = value as Record<string, Json>;
  return `{${Object.keys(obj)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canon(obj[k])}`)
    .join(',')}}`;
}
export const equalJson = (a: Json, b: Json) => canon(a) === canon(b);

export const sortedCopy = (list: readonly string[]) => [...list].sort();
export const isSortedUnique = (list: readonly string[]) => list.every((v, i) => i === 0 || list[i - 1]! < v);
export const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((v, i) => v === b[i]);
export const show = (list: readonly string[]) => `[${list.join(', ')}]`;

const sourceIdentitiesRule = DIGEST_RULES.find(
  (r) => r.contract === 'ContextReadReceiptV2' && r.pointer === '/reuseFrom/sourceIdentitiesDigest',
);
/** JCS SHA-256 of a `sourceIdentities` array, through the registered digest rule. */
export function sourceIdentitiesDigest(identities: Json): string | null {
  return sourceIdentitiesRule?.compute({ reuseFrom: {}, sourceIdentities: identities })[0]?.expected ?? null;
}
