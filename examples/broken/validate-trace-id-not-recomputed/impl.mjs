// a trace's traceId and eventIds are recomputed (TRACE_ID_MISMATCH): the reference, except that validate accepts what only TRACE_ID_MISMATCH refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validate', 'TRACE_ID_MISMATCH');
