import { derivedId, digestOf } from '@agent-contracts/digest';
import type { DigestRule } from '../digest-rules.js';

type Doc = Record<string, unknown>;

const asDoc = (value: unknown): Doc =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Doc) : {};
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

function omit(value: unknown, keys: readonly string[]): Doc {
  const out: Doc = {};
  for (const [k, v] of Object.entries(asDoc(value))) if (!keys.includes(k)) out[k] = v;
  return out;
}

/**
 * Fields an identical re-delivery of the same hook event may change (times and telemetry); they
 * are left out of the observation id, so a duplicate event is idempotent while any difference in
 * evidence yields a different id.
 */
export const OBSERVATION_ID_EXCLUDED_FIELDS = [
  'observationId',
  'attemptedAt',
  'observedAt',
  'bytes',
  'chars',
  'hostDeliveredBytes',
  'latencyMs',
  'tokens',
] as const;

/** `obs-` + first 24 hex of the JCS SHA-256 of the record without the excluded fields. */
export function observationIdOf(observation: unknown): string {
  return derivedId('obs-', omit(observation, OBSERVATION_ID_EXCLUDED_FIELDS), 24);
}

function observationIdRule(contract: string): DigestRule {
  return {
    contract,
    pointer: '/observations/*/observationId',
    code: 'CONTEXT_OBSERVATION_ID_MISMATCH',
    covers:
      '`obs-` + first 24 hex of JCS SHA-256 of the observation record without `observationId`, `attemptedAt`, `observedAt`, `bytes`, `chars`, `hostDeliveredBytes`, `latencyMs` and `tokens`.',
    compute: (doc) =>
      asArray(asDoc(doc).observations).map((o, i) => ({
        pointer: `/observations/${i}/observationId`,
        expected: observationIdOf(o),
      })),
  };
}

/** The ledger id of a context epoch: `ledger-` + first 24 hex of JCS SHA-256 of `{contextEpoch}`. */
export function ledgerIdOf(contextEpoch: string): string {
  return derivedId('ledger-', { contextEpoch }, 24);
}

/**
 * Digest rules of this area's contracts. Within a contract, rules are listed in dependency order:
 * a rule's inputs never include a field computed by a later rule (fixture builders apply them in
 * this order).
 */
export const CONTEXT_RECEIPTS_DIGEST_RULES: readonly DigestRule[] = [
  {
    contract: 'ContextReadReceiptV1',
    pointer: '/receiptId',
    code: 'CONTEXT_RECEIPT_ID_MISMATCH',
    covers: '`receipt-` + first 24 hex of JCS SHA-256 of `{planId, verificationMode}`.',
    compute: (doc) => {
      const d = asDoc(doc);
      return [
        {
          pointer: '/receiptId',
          expected: derivedId('receipt-', { planId: d.planId, verificationMode: d.verificationMode }, 24),
        },
      ];
    },
  },
  observationIdRule('ContextReadReceiptV2'),
  {
    contract: 'ContextReadReceiptV2',
    pointer: '/reuseFrom/sourceIdentitiesDigest',
    code: 'CONTEXT_RECEIPT_REUSE_INCONSISTENT',
    covers:
      'JCS SHA-256 of the receipt\u2019s own `sourceIdentities` array (delivery reuse requires the prior receipt\u2019s to be equal); only when `reuseFrom` is not null.',
    compute: (doc) => {
      const d = asDoc(doc);
      return d.reuseFrom === null || d.reuseFrom === undefined
        ? []
        : [{ pointer: '/reuseFrom/sourceIdentitiesDigest', expected: digestOf(d.sourceIdentities ?? []) }];
    },
  },
  {
    contract: 'ContextReadReceiptV2',
    pointer: '/receiptId',
    code: 'CONTEXT_RECEIPT_ID_MISMATCH',
    covers:
      '`receipt-` + first 24 hex of JCS SHA-256 of the whole receipt without `receiptId` and `updatedAt`.',
    compute: (doc) => [
      { pointer: '/receiptId', expected: derivedId('receipt-', omit(doc, ['receiptId', 'updatedAt']), 24) },
    ],
  },
  {
    contract: 'ContextReuseDecisionV1',
    pointer: '/decisionId',
    code: 'CONTEXT_REUSE_DECISION_ID_MISMATCH',
    covers: '`reuse-` + first 24 hex of JCS SHA-256 of the whole decision without `decisionId`.',
    compute: (doc) => [
      { pointer: '/decisionId', expected: derivedId('reuse-', omit(doc, ['decisionId']), 24) },
    ],
  },
  {
    contract: 'ContextSourceObservationLedgerV1',
    pointer: '/ledgerId',
    code: 'CONTEXT_SOURCE_OBSERVATION_LEDGER_ID_MISMATCH',
    covers: '`ledger-` + first 24 hex of JCS SHA-256 of `{contextEpoch}` (the `identity.contextEpoch`).',
    compute: (doc) => [
      { pointer: '/ledgerId', expected: ledgerIdOf(String(asDoc(asDoc(doc).identity).contextEpoch)) },
    ],
  },
  observationIdRule('ContextSourceObservationLedgerV1'),
  {
    contract: 'ContextSourceObservationLedgerV1',
    pointer: '/fold/foldDigest',
    code: 'CONTEXT_SOURCE_OBSERVATION_FOLD_DIGEST_MISMATCH',
    covers:
      'JCS SHA-256 of `{identity, sources, satisfiedSourceIds, missingSourceIds}`: the ledger\u2019s `identity` and the fold\u2019s three lists; only when `fold` is not null.',
    compute: (doc) => {
      const d = asDoc(doc);
      if (d.fold === null || d.fold === undefined) return [];
      const f = asDoc(d.fold);
      return [
        {
          pointer: '/fold/foldDigest',
          expected: digestOf({
            identity: d.identity,
            sources: f.sources,
            satisfiedSourceIds: f.satisfiedSourceIds,
            missingSourceIds: f.missingSourceIds,
          }),
        },
      ];
    },
  },
  {
    contract: 'ContextSourceObservationLedgerV1',
    pointer: '/ledgerDigest',
    code: 'CONTEXT_SOURCE_OBSERVATION_LEDGER_DIGEST_MISMATCH',
    covers: 'JCS SHA-256 of the whole ledger without `ledgerDigest`.',
    compute: (doc) => [{ pointer: '/ledgerDigest', expected: digestOf(omit(doc, ['ledgerDigest'])) }],
  },
];
