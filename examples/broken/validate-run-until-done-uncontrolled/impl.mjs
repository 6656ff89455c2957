// "run until done" needs cancellation and a takeover channel (RUN_UNTIL_DONE_UNCONTROLLED): the reference, except that validate accepts what only RUN_UNTIL_DONE_UNCONTROLLED refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validate', 'RUN_UNTIL_DONE_UNCONTROLLED');
