// a mandatory field of a V2 architecture report is evidenced only by a contract document, never by its summary and loose evidence (ARCH_MANDATORY_FIELD_PROMPT_ONLY): the reference, except that validate accepts what only ARCH_MANDATORY_FIELD_PROMPT_ONLY refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validate', 'ARCH_MANDATORY_FIELD_PROMPT_ONLY');
