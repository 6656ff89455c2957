// a receipt is complete only from correlated PostToolUse evidence (CONTEXT_RECEIPT_COMPLETION_UNPROVEN): the reference, except that validate accepts what only CONTEXT_RECEIPT_COMPLETION_UNPROVEN refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validate', 'CONTEXT_RECEIPT_COMPLETION_UNPROVEN');
