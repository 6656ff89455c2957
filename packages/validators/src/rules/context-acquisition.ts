import type { BundleRule, SemanticRule } from './types.js';

/** Semantic rules of this area's contracts (one per code), in spec order. */
export const CONTEXT_ACQUISITION_RULES: readonly SemanticRule[] = [];

/** Cross-document rules of this area's bundle kinds. */
export const CONTEXT_ACQUISITION_BUNDLE_RULES: readonly BundleRule[] = [];
