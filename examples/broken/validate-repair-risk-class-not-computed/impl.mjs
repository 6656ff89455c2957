// a repair's risk class is computed from its coded criteria, never set by who runs it (REPAIR_ROLE_RISK_CLASS_MISMATCH): the reference, except that validate accepts what only REPAIR_ROLE_RISK_CLASS_MISMATCH refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validate', 'REPAIR_ROLE_RISK_CLASS_MISMATCH');
