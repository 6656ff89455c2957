// a task's tool reference copies the side-effect level of the tool contract it names (TASK_CONTRACT_TOOL_FACTS_MISMATCH): the reference, except that validateBundle accepts what only TASK_CONTRACT_TOOL_FACTS_MISMATCH refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validateBundle', 'TASK_CONTRACT_TOOL_FACTS_MISMATCH');
