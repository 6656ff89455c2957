// a recovery card's noticeKey is derived from its turn and reason (TURN_RECOVERY_NOTICE_KEY_MISMATCH): the reference, except that validate accepts what only TURN_RECOVERY_NOTICE_KEY_MISMATCH refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validate', 'TURN_RECOVERY_NOTICE_KEY_MISMATCH');
