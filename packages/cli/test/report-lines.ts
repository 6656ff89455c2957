// Builders of JSONL report lines for the report tests: a run line, case lines, a summary line,
// each with the fields a test overrides.

export const run = {
  type: 'run',
  reportVersion: 1,
  kit: { name: 'agent-contracts', version: '0.0.0' },
  protocolVersion: 1,
  implementation: { name: 'crafted', version: '1', language: 'node', command: 'x', capabilities: null },
  startedAt: '2026-12-01T00:00:00.000Z',
  filter: [],
  shard: null,
  baseline: null,
};
export const kase = (id: string, outcome: string, over: Record<string, unknown> = {}) => ({
  type: 'case',
  id,
  gate: 'TaskContinuityWriteGate',
  subject: 'TaskRecoveryCommitFenceV1',
  level: 'MUST',
  outcome,
  detail: `${outcome} detail`,
  durationMs: 2,
  ...over,
});
export const summary = (over: Record<string, unknown> = {}) => ({
  type: 'summary',
  finishedAt: '2026-12-01T00:00:01.000Z',
  durationMs: 1000,
  counts: { pass: 1, fail: 0, error: 0, timeout: 0, crash: 0, 'not-applicable': 0 },
  conforms: true,
  unexpectedFailures: [],
  stalePassing: [],
  ...over,
});
