// a tainted run's egress needs a data-flow policy or an approval (PERMISSION_TAINTED_EGRESS): the reference, except that validate accepts what only PERMISSION_TAINTED_EGRESS refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validate', 'PERMISSION_TAINTED_EGRESS');
