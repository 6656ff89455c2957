// a planContentId is recomputed from its inputs (CONTEXT_PLAN_CONTENT_ID_MISMATCH): the reference, except that validate accepts what only CONTEXT_PLAN_CONTENT_ID_MISMATCH refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validate', 'CONTEXT_PLAN_CONTENT_ID_MISMATCH');
