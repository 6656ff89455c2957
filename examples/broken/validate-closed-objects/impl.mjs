// every contract object is closed (SCHEMA_ADDITIONAL_PROPERTY): the reference, except that validate accepts what only SCHEMA_ADDITIONAL_PROPERTY refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validate', 'SCHEMA_ADDITIONAL_PROPERTY');
