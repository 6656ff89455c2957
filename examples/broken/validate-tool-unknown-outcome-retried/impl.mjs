// an unknown-outcome error is queried before it is retried (TOOL_CONTRACT_UNKNOWN_OUTCOME_BLIND_RETRY): the reference, except that validate accepts what only TOOL_CONTRACT_UNKNOWN_OUTCOME_BLIND_RETRY refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validate', 'TOOL_CONTRACT_UNKNOWN_OUTCOME_BLIND_RETRY');
