import type { DigestRule } from '../digest-rules.js';

/** Digest rules of this area's contracts. */
export const TURN_LIVENESS_DIGEST_RULES: readonly DigestRule[] = [];
