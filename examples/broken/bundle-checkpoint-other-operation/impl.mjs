// a checkpoint's operation record carries the checkpoint's idempotency key (TURN_CHECKPOINT_KEY_MISMATCH): the reference, except that validateBundle accepts what only TURN_CHECKPOINT_KEY_MISMATCH refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validateBundle', 'TURN_CHECKPOINT_KEY_MISMATCH');
