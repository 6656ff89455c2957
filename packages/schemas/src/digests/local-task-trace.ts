import type { DigestRule } from '../digest-rules.js';

/** Digest rules of this area's contracts. */
export const LOCAL_TASK_TRACE_DIGEST_RULES: readonly DigestRule[] = [];
