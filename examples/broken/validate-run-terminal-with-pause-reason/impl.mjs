// a run has a pause reason exactly when it is paused, never when it is terminal (RUN_STATUS_PAUSE_REASON_INCONSISTENT): the reference, except that validate accepts what only RUN_STATUS_PAUSE_REASON_INCONSISTENT refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validate', 'RUN_STATUS_PAUSE_REASON_INCONSISTENT');
