// no party holds both a deciding/accepting and an executing/verifying role of a repair (REPAIR_ROLE_SEPARATION_VIOLATED): the reference, except that validate accepts what only REPAIR_ROLE_SEPARATION_VIOLATED refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validate', 'REPAIR_ROLE_SEPARATION_VIOLATED');
