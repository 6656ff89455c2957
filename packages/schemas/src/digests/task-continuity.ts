import type { DigestRule } from '../digest-rules.js';

/** Digest rules of this area's contracts. */
export const TASK_CONTINUITY_DIGEST_RULES: readonly DigestRule[] = [];
