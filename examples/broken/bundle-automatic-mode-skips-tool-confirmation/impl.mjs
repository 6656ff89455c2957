// automatic mode never skips a confirmation the tool boundary marks non-waivable (HUMAN_LOOP_AUTO_WAIVES_NON_WAIVABLE): the reference, except that validateBundle accepts what only HUMAN_LOOP_AUTO_WAIVES_NON_WAIVABLE refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validateBundle', 'HUMAN_LOOP_AUTO_WAIVES_NON_WAIVABLE');
