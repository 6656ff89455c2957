// a route decision takes its canonical intent from the IntentSeedV1, never from keywords (ROUTE_INTENT_FROM_KEYWORDS): the reference, except that validate accepts what only ROUTE_INTENT_FROM_KEYWORDS refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validate', 'ROUTE_INTENT_FROM_KEYWORDS');
