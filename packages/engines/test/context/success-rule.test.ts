// @module-tag unit
// The success rule of docs/spec/context-acquisition-gate.md ("Success rule", "Latest record",
// "Derived fields"), stated once in records.ts (`satisfiesAt`, `satisfyingRecord`) and used by the
// receipt, ledger and reuse engines, the validators' receipt and ledger rules and the fixture
// generators: each of its five clauses refuses on its own, and a source is judged at its latest
// correlated record.
import type {
  ContextSourceAttemptObservation,
  ContextSourceObservation,
  ContextSourceResultObservation,
} from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import { latestIndex, latestRecord, satisfiesAt, satisfyingRecord } from '../../src/index.ts';

const SOURCE = 'profile:testing.md';
const result = (over: Partial<ContextSourceResultObservation> = {}): ContextSourceResultObservation => ({
  observationId: 'obs-a1d66c3178d4d9ca5d841f64',
  hookEvent: 'PostToolUse',
  contextEpoch: 'ctx-a0f219c886ca15d34e64',
  planId: 'plan-ddbb4706ec2eacb27a923d12',
  activeRoot: '/home/dev/work/billing-api',
  hostSessionId: 'sess-1',
  argsDigest: null,
  outcome: 'observed-success',
  successful: true,
  observable: true,
  transportSuccess: true,
  activeRootMatch: true,
  correlationValid: true,
  sourceRefsMatch: true,
  schemaMatch: true,
  targetMatch: true,
  bodyObserved: true,
  cache: false,
  reusedObservationId: null,
  resultDigest: '97a883eb52951e4d79d0fe87df718b3e003bf79540823c1d66c7637c971abfd3',
  contentIdentity: {
    schemaVersion: 'ContentIdentityV1',
    algorithm: 'sha256',
    sourceKey: 'profile://billing-api/testing.md#delivered',
    contractVersion: 'profile-doc@1',
    digest: '97a883eb52951e4d79d0fe87df718b3e003bf79540823c1d66c7637c971abfd3',
    bytes: 212,
  },
  bytes: 212,
  chars: 212,
  hostDeliveredBytes: 212,
  latencyMs: 693,
  tokens: null,
  toolCallId: 'toolu_1',
  sourceId: SOURCE,
  sourceKind: 'profile',
  sourceLayer: 'project',
  attemptedAt: '2026-11-30T05:53:08.412Z',
  observedAt: '2026-11-30T05:53:09.105Z',
  ...over,
});
const attempt = (): ContextSourceAttemptObservation => ({
  observationId: 'obs-000000000000000000000001',
  hookEvent: 'PreToolUse',
  toolCallId: 'toolu_1',
  sourceId: SOURCE,
  sourceKind: 'profile',
  actionClass: 'context-read',
  contextEpoch: 'ctx-a0f219c886ca15d34e64',
  planId: 'plan-ddbb4706ec2eacb27a923d12',
  activeRoot: '/home/dev/work/billing-api',
  hostSessionId: 'sess-1',
  argsDigest: null,
  attemptedAt: '2026-11-30T05:53:08.412Z',
  observedAt: null,
  outcome: 'attempted',
});
const FLAGS = [
  'successful',
  'observable',
  'transportSuccess',
  'activeRootMatch',
  'correlationValid',
  'sourceRefsMatch',
  'schemaMatch',
  'targetMatch',
  'bodyObserved',
] as const;

describe('satisfiesAt: the success rule, clause by clause', () => {
  it('a correlated read result with every flag, the body and its identity satisfies; its attempt does not', () => {
    const records: ContextSourceObservation[] = [attempt(), result()];
    expect(satisfiesAt(records, 1, false)).toBe(true);
    expect(satisfiesAt(records, 0, false)).toBe(false);
    expect(satisfiesAt(records, 2, false)).toBe(false);
    expect(satisfiesAt(records, -1, false)).toBe(false);
  });
  it('clause 1: a baseline-ready result satisfies; any other outcome does not', () => {
    expect(satisfiesAt([result({ outcome: 'baseline-ready' })], 0, false)).toBe(true);
    for (const outcome of ['failed', 'invalid', 'unobservable', 'wrong-root'] as const)
      expect(satisfiesAt([result({ outcome })], 0, false), outcome).toBe(false);
  });
  it.each(FLAGS)('clause 2: %s false satisfies nothing', (flag) => {
    expect(satisfiesAt([result({ [flag]: false })], 0, true)).toBe(false);
  });
  it('clause 3: a result without a content identity satisfies nothing', () => {
    expect(satisfiesAt([result({ contentIdentity: null })], 0, false)).toBe(false);
  });
  it('clause 4: a cached result satisfies only as a reuse result of a document that allows reuse', () => {
    const reuse = result({ cache: true, reusedObservationId: 'obs-6a89d6e8ae43974627b66a68' });
    expect(satisfiesAt([reuse], 0, true)).toBe(true);
    expect(satisfiesAt([reuse], 0, false)).toBe(false);
    expect(satisfiesAt([result({ cache: true })], 0, true)).toBe(false);
  });
  it('clause 5: another result of the same call and source makes both satisfy nothing; of another source, not', () => {
    const twin = result({ observationId: 'obs-000000000000000000000002', resultDigest: 'a'.repeat(64) });
    expect([satisfiesAt([result(), twin], 0, false), satisfiesAt([result(), twin], 1, false)]).toEqual([
      false,
      false,
    ]);
    const other = result({ observationId: 'obs-000000000000000000000003', sourceId: 'memory:status' });
    expect([satisfiesAt([result(), other], 0, false), satisfiesAt([result(), other], 1, false)]).toEqual([
      true,
      true,
    ]);
  });
  it('clause 5 compares records by position, so the same record object listed twice is a conflict', () => {
    const r = result();
    expect(satisfiesAt([r, r], 0, false)).toBe(false);
  });
});

describe('satisfyingRecord: a source is satisfied iff its latest record satisfies the success rule', () => {
  const later = (over: Partial<ContextSourceResultObservation>) =>
    result({ observationId: 'obs-000000000000000000000009', toolCallId: 'toolu_2', ...over });
  it('the latest correlated record is the one judged: a later failure unsatisfies an earlier success', () => {
    const records = [result(), later({ outcome: 'failed', transportSuccess: false })];
    expect(latestIndex(records, SOURCE)).toBe(1);
    expect(satisfyingRecord(records, SOURCE, false)).toBeUndefined();
  });
  it('a later uncorrelated record is not the latest record, so the earlier success stands', () => {
    const records = [result(), later({ outcome: 'invalid', correlationValid: false })];
    expect(latestIndex(records, SOURCE)).toBe(0);
    expect(latestRecord(records, SOURCE)).toBe(records[0]);
    expect(satisfyingRecord(records, SOURCE, false)).toBe(records[0]);
  });
  it('a source with no result record has no latest record and is not satisfied', () => {
    expect(latestIndex([attempt()], SOURCE)).toBe(-1);
    expect(latestRecord([attempt()], SOURCE)).toBeUndefined();
    expect(satisfyingRecord([attempt()], SOURCE, true)).toBeUndefined();
    expect(satisfyingRecord([result()], 'memory:status', false)).toBeUndefined();
  });
});
