// no permission-adapter state creates a local shadow deny (TOOL_PERMISSION_SHADOW_DENY): the reference, except that validate accepts what only TOOL_PERMISSION_SHADOW_DENY refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validate', 'TOOL_PERMISSION_SHADOW_DENY');
