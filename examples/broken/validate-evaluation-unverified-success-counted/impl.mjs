// an evaluation counts only verified runs as successes (EVALUATION_UNVERIFIED_SUCCESS_COUNTED): the reference, except that validate accepts what only EVALUATION_UNVERIFIED_SUCCESS_COUNTED refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validate', 'EVALUATION_UNVERIFIED_SUCCESS_COUNTED');
