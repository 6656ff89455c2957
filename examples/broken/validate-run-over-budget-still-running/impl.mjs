// a run whose usage is beyond a limit is not running (RUN_BUDGET_EXCEEDED_WHILE_RUNNING): the reference, except that validate accepts what only RUN_BUDGET_EXCEEDED_WHILE_RUNNING refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validate', 'RUN_BUDGET_EXCEEDED_WHILE_RUNNING');
