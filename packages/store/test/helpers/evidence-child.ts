// Runs the evidence verifier once in a process of its own, so that a test can bound a verifier
// that blocks (a FIFO opened without O_NONBLOCK never returns) and read the process's peak memory.
// Input: EVIDENCE_ROOT and EVIDENCE_ITEM (JSON) in the environment. Output: one JSON line
// `{ result, maxRssBytes }`.
import type { TaskTerminalEvidenceItemV1 } from '@agent-contracts/schemas';
import { evidenceVerifier } from '../../src/evidence.js';

const item = JSON.parse(process.env.EVIDENCE_ITEM ?? 'null') as TaskTerminalEvidenceItemV1;
const result = evidenceVerifier(process.env.EVIDENCE_ROOT ?? '')([item]);
process.stdout.write(`${JSON.stringify({ result, maxRssBytes: process.resourceUsage().maxRSS * 1024 })}\n`);
