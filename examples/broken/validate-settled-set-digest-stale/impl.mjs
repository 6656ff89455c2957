// a settled set's digest is recomputed (TASK_OPERATION_SET_DIGEST_MISMATCH): the reference, except that validate accepts what only TASK_OPERATION_SET_DIGEST_MISMATCH refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validate', 'TASK_OPERATION_SET_DIGEST_MISMATCH');
