// a verified behaviour claim has direct evidence; report and memory never verify behaviour (EVIDENCE_MATRIX_BEHAVIOUR_PROSE_ONLY): the reference, except that validate accepts what only EVIDENCE_MATRIX_BEHAVIOUR_PROSE_ONLY refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validate', 'EVIDENCE_MATRIX_BEHAVIOUR_PROSE_ONLY');
