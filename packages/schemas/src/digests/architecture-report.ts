import type { DigestRule } from '../digest-rules.js';

/** Digest rules of this area's contracts. */
export const ARCHITECTURE_REPORT_DIGEST_RULES: readonly DigestRule[] = [];
