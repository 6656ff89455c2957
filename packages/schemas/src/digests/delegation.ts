import { derivedId, digestOf } from '@agent-contracts/digest';
import type { DelegationContractV1 } from '../contracts/delegation.js';
import type { DigestRule } from '../digest-rules.js';

/** `delegationId`: `dlg-` + 24 hex of the digest of `{parent: {kind, ref}, delegate, inputSnapshot}`. */
export function computeDelegationId(
  doc: Pick<DelegationContractV1, 'parent' | 'delegate' | 'inputSnapshot'>,
): string {
  return derivedId(
    'dlg-',
    {
      parent: { kind: doc.parent.kind, ref: doc.parent.ref },
      delegate: doc.delegate,
      inputSnapshot: { ref: doc.inputSnapshot.ref, digest: doc.inputSnapshot.digest },
    },
    24,
  );
}

/** `delegationDigest`: digest of the whole document except `delegationDigest`. */
export function computeDelegationDigest(
  doc: Omit<DelegationContractV1, 'delegationDigest'> & { delegationDigest?: string },
): string {
  const { delegationDigest: _omit, ...rest } = doc;
  return digestOf(rest);
}

/** Digest rules of this area's contracts. */
export const DELEGATION_DIGEST_RULES: readonly DigestRule[] = [
  {
    contract: 'DelegationContractV1',
    pointer: '/delegationId',
    code: 'DELEGATION_ID_MISMATCH',
    covers:
      '`"dlg-"` + the first 24 hex characters of digestOf(`{parent: {kind, ref}, delegate, inputSnapshot: {ref, digest}}`).',
    compute: (document) => [
      { pointer: '/delegationId', expected: computeDelegationId(document as DelegationContractV1) },
    ],
  },
  {
    contract: 'DelegationContractV1',
    pointer: '/delegationDigest',
    code: 'DELEGATION_DIGEST_MISMATCH',
    covers: 'digestOf(the whole document without the `delegationDigest` member).',
    compute: (document) => [
      { pointer: '/delegationDigest', expected: computeDelegationDigest(document as DelegationContractV1) },
    ],
  },
];
