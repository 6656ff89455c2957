// a run state's stateDigest is recomputed after every edit (RUN_STATE_DIGEST_MISMATCH): the reference, except that validate accepts what only RUN_STATE_DIGEST_MISMATCH refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validate', 'RUN_STATE_DIGEST_MISMATCH');
