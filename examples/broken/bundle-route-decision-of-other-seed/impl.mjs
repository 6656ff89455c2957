// a route decision's seed reference resolves to the seed it routes (ROUTE_SEED_REF_MISMATCH): the reference, except that validateBundle accepts what only ROUTE_SEED_REF_MISMATCH refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validateBundle', 'ROUTE_SEED_REF_MISMATCH');
