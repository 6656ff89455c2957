// each delegate permission is covered by its delegator's (DELEGATION_PERMISSION_NOT_CONTAINED): the reference, except that validateBundle accepts what only DELEGATION_PERMISSION_NOT_CONTAINED refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validateBundle', 'DELEGATION_PERMISSION_NOT_CONTAINED');
