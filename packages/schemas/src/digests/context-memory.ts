import { derivedId, digestOf } from '@agent-contracts/digest';
import type { ContextMemoryModelV1 } from '../contracts/context-memory.js';
import type { DigestRule } from '../digest-rules.js';

/** `modelId`: `cmm-` + 24 hex of digestOf(`{subject: {system}}`). */
export function computeContextMemoryModelId(doc: { subject: { system: string } }): string {
  return derivedId('cmm-', { subject: { system: doc.subject.system } }, 24);
}

/** `modelDigest`: digest of the whole document except `modelDigest`. */
export function computeContextMemoryModelDigest(
  doc: Omit<ContextMemoryModelV1, 'modelDigest'> & { modelDigest?: string },
): string {
  const { modelDigest: _omit, ...rest } = doc;
  return digestOf(rest);
}

/** Digest rules of this area's contracts. */
export const CONTEXT_MEMORY_DIGEST_RULES: readonly DigestRule[] = [
  {
    contract: 'ContextMemoryModelV1',
    pointer: '/modelId',
    code: 'MEMORY_MODEL_ID_MISMATCH',
    covers:
      '`"cmm-"` + the first 24 hex characters of digestOf(`{subject: {system: subject.system}}`); `subject.revision` is excluded so the id is stable across revisions.',
    compute: (document) => [
      { pointer: '/modelId', expected: computeContextMemoryModelId(document as ContextMemoryModelV1) },
    ],
  },
  {
    contract: 'ContextMemoryModelV1',
    pointer: '/modelDigest',
    code: 'MEMORY_MODEL_DIGEST_MISMATCH',
    covers:
      'digestOf(the whole document without the `modelDigest` member): schemaVersion, modelId, subject, evaluatedAt, factKinds and handoff.',
    compute: (document) => [
      {
        pointer: '/modelDigest',
        expected: computeContextMemoryModelDigest(document as ContextMemoryModelV1),
      },
    ],
  },
];
