// The names and fixed values every store case shares: the spec page, the gate, the start time,
// the named hashes and the task id derived from a case id.
import { createHash } from 'node:crypto';

export const PAGE = 'docs/spec/task-continuity-write-gate.md';
export const GATE = 'TaskContinuityWriteGate';
export const T0 = '2026-11-30T06:00:00.000Z';

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** A fixed SHA-256 hex value named by `label` (sessions, routes, evidence digests). */
export const H = (label: string) => sha256(`agent-contracts conformance: ${label}`);
export const PROJECT = H('project root');

/** A UUIDv8 derived from the case id, so that every case writes its own task (as exploration's). */
export { taskIdOf } from '@agent-contracts/harness/explore';
