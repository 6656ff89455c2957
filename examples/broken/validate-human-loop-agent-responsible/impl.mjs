// final responsibility for an action class is never the model or the agent (HUMAN_LOOP_RESPONSIBILITY_NOT_HUMAN): the reference, except that validate accepts what only HUMAN_LOOP_RESPONSIBILITY_NOT_HUMAN refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validate', 'HUMAN_LOOP_RESPONSIBILITY_NOT_HUMAN');
