// a delegation never grants the wildcard (DELEGATION_WILDCARD_GRANT): the reference, except that validate accepts what only DELEGATION_WILDCARD_GRANT refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validate', 'DELEGATION_WILDCARD_GRANT');
