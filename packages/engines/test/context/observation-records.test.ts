// @module-tag unit
// The rules every document holding observation records shares (docs/spec/context-acquisition-gate.md,
// "Observation records", "Limits"), written once in records.ts: the outcome classification table
// row by row, eviction down to the limit (never a latest record of a source or the attempt of
// one), and the failure markers of a tool result at any level; and what shared.ts gives every
// context engine: code-unit order and the content identity of a delivered body.
import type {
  ContextSourceAttemptObservation,
  ContextSourceObservation,
  ContextSourceResultObservation,
} from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import {
  byCodeUnits,
  bySourceId,
  classifyOutcome,
  contentIdentityOf,
  evict,
  hasFailureMarker,
  latestRecord,
  sortedUnique,
} from '../../src/index.ts';

const OK = {
  activeRootMatch: true,
  correlationValid: true,
  observable: true,
  transportSuccess: true,
  sourceRefsMatch: true,
  schemaMatch: true,
  targetMatch: true,
  successful: true,
};
type Flag = keyof typeof OK;
const off = (...flags: Flag[]) => ({ ...OK, ...Object.fromEntries(flags.map((f) => [f, false])) });

describe('classifyOutcome: the first matching row fixes the outcome', () => {
  it.each([
    ['row 1', off('activeRootMatch', 'correlationValid', 'observable', 'successful'), 'wrong-root'],
    ['row 2', off('correlationValid', 'observable', 'transportSuccess'), 'invalid'],
    ['row 3', off('observable', 'transportSuccess', 'sourceRefsMatch', 'successful'), 'unobservable'],
    ['row 4', off('transportSuccess', 'sourceRefsMatch', 'schemaMatch', 'successful'), 'failed'],
    ['row 5, sourceRefsMatch', off('sourceRefsMatch', 'successful'), 'invalid'],
    ['row 5, schemaMatch', off('schemaMatch', 'successful'), 'invalid'],
    ['row 5, schemaMatch alone', off('schemaMatch'), 'invalid'],
    ['row 5, targetMatch alone', off('targetMatch'), 'invalid'],
    ['row 6', off('successful'), 'failed'],
  ] as const)('%s', (_row, flags, outcome) => {
    expect(classifyOutcome(flags, 'observed-success')).toBe(outcome);
  });
  it('row 7: otherwise the success outcome of the record kind', () => {
    expect(classifyOutcome(OK, 'observed-success')).toBe('observed-success');
    expect(classifyOutcome(OK, 'baseline-ready')).toBe('baseline-ready');
  });
});

const attempt = (sourceId: string, toolCallId: string): ContextSourceAttemptObservation => ({
  observationId: `obs-${`a-${sourceId}-${toolCallId}`
    .replace(/[^a-f0-9]/g, '0')
    .padEnd(24, '0')
    .slice(0, 24)}`,
  hookEvent: 'PreToolUse',
  toolCallId,
  sourceId,
  sourceKind: 'profile',
  actionClass: 'context-read',
  contextEpoch: 'ctx-a',
  planId: 'plan-ddbb4706ec2eacb27a923d12',
  activeRoot: '/srv/acme',
  hostSessionId: 'sess-1',
  argsDigest: null,
  attemptedAt: '2026-11-30T05:53:08.412Z',
  observedAt: null,
  outcome: 'attempted',
});
const result = (
  sourceId: string,
  toolCallId: string,
  correlationValid = true,
): ContextSourceResultObservation => ({
  observationId: 'obs-a1d66c3178d4d9ca5d841f64',
  hookEvent: 'PostToolUse',
  toolCallId,
  sourceId,
  sourceKind: 'profile',
  contextEpoch: 'ctx-a',
  planId: 'plan-ddbb4706ec2eacb27a923d12',
  activeRoot: '/srv/acme',
  hostSessionId: 'sess-1',
  argsDigest: null,
  attemptedAt: '2026-11-30T05:53:08.412Z',
  observedAt: '2026-11-30T05:53:09.105Z',
  outcome: correlationValid ? 'observed-success' : 'invalid',
  ...OK,
  correlationValid,
  sourceLayer: 'profile',
  bodyObserved: true,
  cache: false,
  reusedObservationId: null,
  resultDigest: null,
  contentIdentity: null,
  bytes: null,
  chars: null,
  hostDeliveredBytes: null,
  latencyMs: null,
  tokens: null,
});
const names = (records: readonly ContextSourceObservation[] | null) =>
  records?.map((r) => `${r.hookEvent === 'PreToolUse' ? 'pre' : 'post'} ${r.sourceId} ${r.toolCallId}`) ??
  null;

describe('evict: the oldest records that are neither a latest record nor its attempt go first', () => {
  const A = 'profile:a.md';
  const B = 'profile:b.md';
  it('at or under the limit nothing is evicted, and the list is a copy', () => {
    const records = [attempt(A, 'c1'), result(A, 'c1')];
    const kept = evict(records, 2);
    expect(kept).toEqual(records);
    expect(kept).not.toBe(records);
    expect(evict(records, 5)).toEqual(records);
  });
  it('over the limit: the oldest evictable records, exactly as many as needed', () => {
    const records = [attempt(A, 'c0'), result(A, 'c0'), attempt(A, 'c1'), result(A, 'c1'), attempt(B, 'c2')];
    expect(names(evict(records, 3))).toEqual([
      'pre profile:a.md c1',
      'post profile:a.md c1',
      'pre profile:b.md c2',
    ]);
    expect(names(evict(records, 4))).toEqual([
      'post profile:a.md c0',
      'pre profile:a.md c1',
      'post profile:a.md c1',
      'pre profile:b.md c2',
    ]);
  });
  it('the attempt kept is the one of the latest record: its call and its source', () => {
    const records = [attempt(A, 'c0'), result(A, 'c0'), attempt(A, 'c1'), attempt(B, 'c1'), result(A, 'c1')];
    expect(names(evict(records, 2))).toEqual(['pre profile:a.md c1', 'post profile:a.md c1']);
  });
  it('an uncorrelated result is not a latest record; a source without a result keeps nothing', () => {
    const records = [attempt(B, 'c3'), result(A, 'c0'), result(A, 'c1', false), attempt(B, 'c4')];
    expect(names(evict(records, 1))).toEqual(['post profile:a.md c0']);
    expect(latestRecord(records, A)).toBe(records[1]);
  });
  it('when too few records may be evicted: null', () => {
    const records = [attempt(A, 'c1'), result(A, 'c1'), attempt(B, 'c2')];
    expect(evict(records, 1)).toBeNull();
    expect(names(evict(records, 2))).toEqual(['pre profile:a.md c1', 'post profile:a.md c1']);
  });
});

describe('hasFailureMarker: success:false, ok:false, isError:true, is_error:true or error at any level', () => {
  it.each([
    [{ success: false }],
    [{ ok: false }],
    [{ isError: true }],
    [{ is_error: true }],
    [{ error: null }],
    [{ content: [{ text: 'x' }, { error: 'denied' }] }],
    [[{ text: 'x' }, [{ ok: false }]]],
    [{ a: { b: { c: { success: false } } } }],
    [{ text: 'x', detail: { ok: false }, n: 1 }],
    [[null, 'x', { isError: true }]],
  ])('%j carries one', (value) => {
    expect(hasFailureMarker(value)).toBe(true);
  });
  it.each([
    [{ success: true, ok: true, isError: false, is_error: false }],
    [{ text: 'body', meta: null, n: 1, list: [null, 'x', 2] }],
    [{ errors: [], message: 'error' }],
    [null],
    ['error'],
    [[]],
    [[null, 'ok: false']],
  ])('%j carries none', (value) => {
    expect(hasFailureMarker(value)).toBe(false);
  });
  it('a marker at any depth is found (D-RCP-57), 10000 levels down too, without exhausting the stack', () => {
    const nest = (levels: number, inner: unknown = { success: false }) => {
      let v: unknown = inner;
      for (let i = 0; i < levels; i++) v = i % 2 ? [v] : { v };
      return v;
    };
    for (const levels of [64, 65, 70, 10_000]) {
      expect(hasFailureMarker(nest(levels)), String(levels)).toBe(true);
      expect(hasFailureMarker(nest(levels, { success: true })), String(levels)).toBe(false);
    }
  });
  it('a value holding itself is walked once: it ends, and finds a marker anywhere in it', () => {
    const loop: Record<string, unknown> = { text: 'x' };
    loop.self = loop;
    loop.list = [loop, { a: 1 }];
    expect(hasFailureMarker(loop)).toBe(false);
    (loop.list as unknown[]).push({ ok: false });
    expect(hasFailureMarker(loop)).toBe(true);
  });
});

describe('code-unit order and the content identity of a body (shared.ts)', () => {
  it('byCodeUnits compares UTF-16 code units: -1, 0, 1', () => {
    expect([byCodeUnits('a', 'b'), byCodeUnits('b', 'a'), byCodeUnits('a', 'a')]).toEqual([-1, 1, 0]);
    expect(byCodeUnits('B', 'a')).toBe(-1);
    // U+10000 is the surrogate pair D800 DC00, before U+FFFF in code units (not in code points).
    expect(byCodeUnits('\u{10000}', '\uffff')).toBe(-1);
    expect(sortedUnique(['b', 'a', 'B', 'a'])).toEqual(['B', 'a', 'b']);
  });
  it('bySourceId sorts by sourceId and keeps equal ids in their order', () => {
    const list = [
      { sourceId: 'profile:b.md', n: 1 },
      { sourceId: 'memory:status', n: 2 },
      { sourceId: 'profile:b.md', n: 3 },
      { sourceId: 'profile:a.md', n: 4 },
      { sourceId: 'profile:b.md', n: 5 },
    ];
    expect(bySourceId(list).map((x) => x.n)).toEqual([2, 4, 1, 3, 5]);
  });
  it('the source key is NFKC, trimmed, with / as its only separator', () => {
    const id = contentIdentityOf(' profile://acme\\docs\\ﬁle.md ', { text: 'body' });
    expect(id.sourceKey).toBe('profile://acme/docs/file.md');
    expect([id.digest, id.bytes, id.contractVersion]).toEqual([
      '230d8358dc8e8890b4c58deeb62912ee2f20357ae92a5cc861b98e68fe31acb5',
      4,
      '1',
    ]);
  });
});
