// a running run has every loop counter below its threshold (RUN_LOOP_UNHANDLED): the reference, except that validate accepts what only RUN_LOOP_UNHANDLED refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validate', 'RUN_LOOP_UNHANDLED');
