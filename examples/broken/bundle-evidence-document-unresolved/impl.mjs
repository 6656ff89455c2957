// every contract document an evidence entry names is in the bundle, with that digest and id (EVIDENCE_MATRIX_DOCUMENT_UNRESOLVED): the reference, except that validateBundle accepts what only EVIDENCE_MATRIX_DOCUMENT_UNRESOLVED refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validateBundle', 'EVIDENCE_MATRIX_DOCUMENT_UNRESOLVED');
