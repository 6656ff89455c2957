// one recovery card per noticeKey across a turn's cards (TURN_RECOVERY_NOTICE_DUPLICATE): the reference, except that validateBundle accepts what only TURN_RECOVERY_NOTICE_DUPLICATE refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validateBundle', 'TURN_RECOVERY_NOTICE_DUPLICATE');
