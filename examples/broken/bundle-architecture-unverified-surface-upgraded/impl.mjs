// a V2 report's capability field stays unverified while a surface it references is unverified (ARCH_CAPABILITY_SURFACE_STATUS_MISMATCH): the reference, except that validateBundle accepts what only ARCH_CAPABILITY_SURFACE_STATUS_MISMATCH refuses.
import { acceptIssue } from '../lib/accept-issue.mjs';

acceptIssue('validateBundle', 'ARCH_CAPABILITY_SURFACE_STATUS_MISMATCH');
