// a degradation path never degrades to a route an earlier step already took (ROUTE_DEGRADATION_CYCLE): the reference, except that validate accepts what only ROUTE_DEGRADATION_CYCLE refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validate', 'ROUTE_DEGRADATION_CYCLE');
