// every completion criterion sets the members its kind needs, so a machine can run it (TASK_CONTRACT_CRITERION_NOT_CHECKABLE): the reference, except that validate accepts what only TASK_CONTRACT_CRITERION_NOT_CHECKABLE refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validate', 'TASK_CONTRACT_CRITERION_NOT_CHECKABLE');
