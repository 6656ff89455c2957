// @module-tag unit
// The ContextMemoryStateGate rules: each semantic fixture breaks exactly its rule, the valid
// fixtures break none, and the edges the page settles (memory owns memory facts, immutable facts
// need no freshness, a summary needs no pin, duplicates are judged by their first record).
import type { ContextMemoryModelV1 } from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import { describeSemanticFixtures, issuesOf, listFixtures, restamp } from '../helpers.ts';

const CONTRACT = 'ContextMemoryModelV1';
const fixtures = listFixtures().filter((f) => f.contract === CONTRACT);
const valid = fixtures.filter((f) => f.kind === 'valid');

const base = () =>
  structuredClone(
    valid.find((f) => f.name === 'coding-agent-store-and-files')!.document,
  ) as ContextMemoryModelV1;
const issues = (doc: ContextMemoryModelV1) => issuesOf(restamp(CONTRACT, doc));

describeSemanticFixtures(CONTRACT, 12);

describe('rule details', () => {
  it('memory is the source of truth of a memory fact, and of nothing else', () => {
    const d = base();
    const pref = d.factKinds.findIndex((r) => r.factKind === 'user-preference');
    expect(d.factKinds[pref]!.sourceOfTruth?.kind).toBe('memory');
    expect(issues(d)).toEqual([]);
    d.factKinds[0]!.sourceOfTruth = { kind: 'memory', locator: 'memory://tasks', contract: null };
    expect(issues(d)).toEqual(['MEMORY_MODEL_MEMORY_AS_SOURCE_OF_TRUTH /factKinds/0/sourceOfTruth/kind']);
  });

  it('an immutable fact kind needs no freshness rule; making it mutable does', () => {
    const d = base();
    const trace = d.factKinds.findIndex((r) => r.factKind === 'turn-trace');
    expect(d.factKinds[trace]!.freshness).toBeNull();
    expect(issues(d)).toEqual([]);
    d.factKinds[trace]!.mutable = true;
    expect(issues(d)).toEqual([`MEMORY_MODEL_FRESHNESS_MISSING /factKinds/${trace}/freshness`]);
  });

  it('newest-wins is refused like derived-view-wins', () => {
    const d = base();
    d.factKinds[2]!.onConflict = 'newest';
    expect(issues(d)).toEqual(['MEMORY_MODEL_SUMMARY_OVERRIDES_SOURCE /factKinds/2/onConflict']);
  });

  it('a summary in a handoff needs no pin; a reference to an immutable fact needs none either', () => {
    const d = base();
    d.handoff.items = [
      { factKind: 'turn-trace', carries: 'source-ref', pinned: false },
      { factKind: 'turn-trace', carries: 'summary', pinned: false },
    ];
    expect(issues(d)).toEqual([]);
  });

  it('a handoff source-ref of another fact kind does not back a summary', () => {
    const d = base();
    d.handoff.items = [
      { factKind: 'workspace-file', carries: 'source-ref', pinned: true },
      { factKind: 'task-state', carries: 'summary', pinned: false },
    ];
    expect(issues(d)).toEqual(['MEMORY_MODEL_HANDOFF_SUMMARY_WITHOUT_SOURCE /handoff/items/1']);
  });

  it('every missing layer is reported once', () => {
    const d = base();
    d.factKinds = d.factKinds.filter((r) => r.layer === 'state');
    d.handoff.items = [{ factKind: 'task-state', carries: 'source-ref', pinned: true }];
    expect(issues(d)).toEqual([
      'MEMORY_MODEL_LAYER_MISSING /factKinds',
      'MEMORY_MODEL_LAYER_MISSING /factKinds',
      'MEMORY_MODEL_LAYER_MISSING /factKinds',
    ]);
  });
});
