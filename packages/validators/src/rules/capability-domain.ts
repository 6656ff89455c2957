import type { BundleRule, SemanticRule } from './types.js';

/** Semantic rules of this area's contracts (one per code), in spec order. */
export const CAPABILITY_DOMAIN_RULES: readonly SemanticRule[] = [];

/** Cross-document rules of this area's bundle kinds. */
export const CAPABILITY_DOMAIN_BUNDLE_RULES: readonly BundleRule[] = [];
