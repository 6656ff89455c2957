// a summary is never the source of truth of a fact kind (MEMORY_MODEL_SUMMARY_AS_SOURCE_OF_TRUTH): the reference, except that validate accepts what only MEMORY_MODEL_SUMMARY_AS_SOURCE_OF_TRUTH refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validate', 'MEMORY_MODEL_SUMMARY_AS_SOURCE_OF_TRUTH');
