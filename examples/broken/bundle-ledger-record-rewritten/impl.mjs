// a ledger revision never rewrites a recorded observation (CONTEXT_SOURCE_OBSERVATION_REWRITTEN): the reference, except that validateBundle accepts what only CONTEXT_SOURCE_OBSERVATION_REWRITTEN refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validateBundle', 'CONTEXT_SOURCE_OBSERVATION_REWRITTEN');
