// Runs the evidence verifier once in a process of its own, so that a test can bound a verifier
// that blocks (a FIFO opened without O_NONBLOCK never returns) and read the process's peak memory.
// Input: EVIDENCE_ROOT and EVIDENCE_ITEM (JSON) in the environment. Output: one JSON line
// `{ result, peakBeforeBytes, maxRssBytes }`: the process's peak RSS before the verifier ran (what
// starting it and loading the modules took, which depends on the loader, not on the verifier) and
// after.
import type { TaskTerminalEvidenceItemV1 } from '@agent-contracts/schemas';
import { evidenceVerifier } from '../../src/evidence.js';

const item = JSON.parse(process.env.EVIDENCE_ITEM ?? 'null') as TaskTerminalEvidenceItemV1;
const verify = evidenceVerifier(process.env.EVIDENCE_ROOT ?? '');
const peakBeforeBytes = process.resourceUsage().maxRSS * 1024;
const result = verify([item]);
const maxRssBytes = process.resourceUsage().maxRSS * 1024;
process.stdout.write(`${JSON.stringify({ result, peakBeforeBytes, maxRssBytes })}\n`);
