import type { DigestRule } from '../digest-rules.js';

/** Digest rules of this area's contracts. */
export const CONTEXT_RECEIPTS_DIGEST_RULES: readonly DigestRule[] = [];
