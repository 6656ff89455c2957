// an unknown-outcome call is retried only after a query that found no effect (RUN_TOOL_CALL_BLIND_RETRY): the reference, except that validate accepts what only RUN_TOOL_CALL_BLIND_RETRY refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validate', 'RUN_TOOL_CALL_BLIND_RETRY');
