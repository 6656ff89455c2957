// Valid report lines to build crafted reports from, as `conform --report` writes them.
import type { CaseLine, Counts, RunLine, SummaryLine } from '../src/index.ts';
import { countOutcomes } from '../src/index.ts';

export const runLine = (over: Partial<RunLine> = {}): RunLine => ({
  type: 'run',
  reportVersion: 1,
  kit: { name: 'agent-contracts', version: '0.0.0' },
  protocolVersion: 1,
  implementation: { name: 'impl', version: '1.0.0', language: 'node', command: 'impl', capabilities: null },
  startedAt: '2026-12-01T00:00:00.000Z',
  filter: [],
  shard: null,
  baseline: null,
  ...over,
});

export const caseLine = (
  id: string,
  outcome: CaseLine['outcome'],
  over: Partial<CaseLine> = {},
): CaseLine => ({
  type: 'case',
  id,
  gate: 'TaskContinuityWriteGate',
  subject: 'TaskRecoveryCommitFenceV1',
  level: 'MUST',
  outcome,
  detail: `${outcome} detail`,
  durationMs: 3,
  ...over,
});

/** The summary `conform` writes for these case lines (no baseline). */
export const summaryLine = (cases: readonly CaseLine[], over: Partial<SummaryLine> = {}): SummaryLine => {
  const counts: Counts = countOutcomes(cases);
  const unexpectedFailures = cases
    .filter((c) => ['fail', 'error', 'timeout', 'crash'].includes(c.outcome) && !c.expectedFailure)
    .map((c) => c.id);
  return {
    type: 'summary',
    finishedAt: '2026-12-01T00:00:01.000Z',
    durationMs: 1000,
    counts,
    conforms: unexpectedFailures.length === 0 && counts.pass > 0,
    unexpectedFailures,
    stalePassing: [],
    ...over,
  };
};

/** JSONL text of the given values, one per line. */
export const jsonl = (lines: readonly unknown[]): string =>
  `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;

/** A complete, consistent report of these cases. */
export const reportText = (cases: readonly CaseLine[], run: Partial<RunLine> = {}): string =>
  jsonl([runLine(run), ...cases, summaryLine(cases)]);
