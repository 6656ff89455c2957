// The rules of ContextReadReceiptV2, ContextReadReceiptV1, ContextReuseDecisionV1 and
// ContextSourceObservationLedgerV1, and of the bundle kind `context-acquisition-chain`
// (docs/spec/context-acquisition-gate.md), one file per contract (RULE_FILES names each).
import type { BundleRule, SemanticRule } from '../types.js';
import { CHAIN_RULES } from './chain.js';
import { LEDGER_RULES } from './ledger.js';
import { RECEIPT_V1_RULES } from './receipt-v1.js';
import { RECEIPT_V2_RULES } from './receipt-v2.js';
import { REUSE_RULES } from './reuse-decision.js';

export { CONTEXT_ACQUISITION_CHAIN } from './shared.js';
export { CHAIN_RULES, LEDGER_RULES, RECEIPT_V1_RULES, RECEIPT_V2_RULES, REUSE_RULES };

export const CONTEXT_RECEIPTS_RULES: readonly SemanticRule[] = [
  ...RECEIPT_V2_RULES,
  ...RECEIPT_V1_RULES,
  ...REUSE_RULES,
  ...LEDGER_RULES,
];

/** Cross-document rules of this area's bundle kinds. */
export const CONTEXT_RECEIPTS_BUNDLE_RULES: readonly BundleRule[] = CHAIN_RULES;
