// a receipt in a chain is bound to the plan of that chain (CONTEXT_BINDING_MISMATCH): the reference, except that validateBundle accepts what only CONTEXT_BINDING_MISMATCH refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validateBundle', 'CONTEXT_BINDING_MISMATCH');
