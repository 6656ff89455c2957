import type { DigestRule } from '../digest-rules.js';

/** Digest rules of this area's contracts. */
export const CAPABILITY_DOMAIN_DIGEST_RULES: readonly DigestRule[] = [];
