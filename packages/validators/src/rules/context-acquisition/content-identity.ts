// Semantic rules of ContentIdentityV1 (docs/spec/context-acquisition-gate.md#invariants-1).
import type { ContentIdentityV1 } from '@agent-contracts/schemas';
import { reportingRule } from '../kit.js';
import type { SemanticRule } from '../types.js';
import { CONTENT_INVARIANTS, nfkcMessage, notNfkc } from './shared.js';

/** Semantic rules of ContentIdentityV1. */
export const CONTENT_IDENTITY_RULES: readonly SemanticRule[] = [
  reportingRule<ContentIdentityV1>(
    'CONTENT_SOURCE_KEY_NOT_NORMALIZED',
    'ContentIdentityV1',
    CONTENT_INVARIANTS,
    'ContentIdentityV1 invariant 1: sourceKey equals its Unicode NFKC form.',
    (d, report) => {
      if (notNfkc(d.sourceKey)) report('/sourceKey', nfkcMessage(d.sourceKey));
    },
  ),
];
