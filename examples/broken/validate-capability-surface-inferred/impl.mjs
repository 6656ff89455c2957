// a capability aspect is verified only on direct observation, never from a declaration, a name or a look-alike (CAPABILITY_SURFACE_INFERRED): the reference, except that validate accepts what only CAPABILITY_SURFACE_INFERRED refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validate', 'CAPABILITY_SURFACE_INFERRED');
