// @module-tag unit
// A digest rule's optional `mismatches` is a shortcut for validators: it must give exactly the
// entries of `compute` that disagree with the document, on every fixture and on documents whose
// ids, types and keys were changed (including keys that are not their own JCS text).
import { describe, expect, it } from 'vitest';
import { DIGEST_RULES } from '../src/index.ts';
import { listFixtures } from './helpers.ts';

const own = (doc: unknown, pointer: string): unknown => {
  let node: unknown = doc;
  for (const token of pointer.split('/').slice(1)) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
};

function disagreeing(rule: (typeof DIGEST_RULES)[number], doc: unknown) {
  return rule
    .compute(doc)
    .map((e) => ({ ...e, actual: own(doc, e.pointer) }))
    .filter((e) => e.actual !== e.expected);
}

/** Variants of a plan's source refs: one digest wrong, one ref changed, one digest absent. */
function refVariants(doc: Record<string, unknown>): unknown[] {
  const out: unknown[] = [];
  for (const bucket of ['baselineSources', 'selectedSources', 'excludedSources', 'unclassifiedSources']) {
    const sources = doc[bucket];
    if (!Array.isArray(sources) || sources.length === 0) continue;
    const edit = (f: (ref: Record<string, unknown>) => void) => {
      const copy = structuredClone(doc) as Record<string, Array<{ sourceRefs: Record<string, unknown>[] }>>;
      for (const source of copy[bucket]!)
        if (Array.isArray(source?.sourceRefs)) for (const ref of source.sourceRefs.slice(-1)) f(ref);
      out.push(copy);
    };
    edit((r) => {
      r.metadataDigest = '0'.repeat(64);
    });
    edit((r) => {
      r.path = 'caf\u00e9 "quoted"\\';
    });
    edit((r) => {
      delete r.metadataDigest;
    });
  }
  const context = doc.baselineContext as Record<string, unknown> | undefined;
  if (context !== undefined) {
    for (const at of [['readme', 'sourceRefs'], ['configSourceRefs']]) {
      const copy = structuredClone(doc) as Record<string, unknown>;
      let refs: unknown = copy.baselineContext;
      for (const key of at) refs = (refs as Record<string, unknown> | undefined)?.[key];
      if (!Array.isArray(refs)) continue;
      for (const ref of refs as Record<string, unknown>[]) ref.metadataDigest = 'f'.repeat(64);
      out.push(copy);
    }
  }
  return out;
}

/** Variants of a document with events: one id wrong, one type and one key changed, an odd key, no id. */
function variants(doc: Record<string, unknown>): unknown[] {
  if (doc.schemaVersion === 'ContextReadPlanV2' || doc.schemaVersion === 'ContextReadPlanV1')
    return refVariants(doc);
  const out: unknown[] = [];
  const oddTrace = structuredClone(doc);
  oddTrace.traceId = 'trace-"odd"';
  out.push(oddTrace);
  const noId = structuredClone(doc);
  delete noId.traceId;
  out.push(noId);
  const dropped = structuredClone(doc);
  dropped.prefixDigest = 'a'.repeat(64);
  out.push(dropped);
  const noPrefix = structuredClone(doc);
  delete noPrefix.prefixDigest;
  out.push(noPrefix);
  const events = doc.events;
  if (!Array.isArray(events) || events.length === 0) return out;
  const edit = (f: (e: Record<string, unknown>[]) => void) => {
    const copy = structuredClone(doc) as { events: Record<string, unknown>[] };
    f(copy.events);
    out.push(copy);
  };
  edit((e) => {
    e[0]!.eventId = 'event-000000000000000000000000';
  });
  edit((e) => {
    e.at(-1)!.occurrenceKey = 'caf\u00e9 "quoted"\\';
  });
  edit((e) => {
    e[0]!.type = 'Stop\n';
  });
  edit((e) => {
    delete e[0]!.eventId;
  });
  edit((e) => {
    (e as unknown[])[0] = 'not an event';
  });
  return out;
}

const withShortcut = DIGEST_RULES.filter((r) => r.mismatches !== undefined);

describe('DigestRule.mismatches', () => {
  it('exists for the per-event id rules', () => {
    expect(withShortcut.map((r) => `${r.contract}${r.pointer}`).sort()).toEqual(
      [
        'LocalTaskTraceV1/traceId',
        'LocalTaskTraceV1/events/*/eventId',
        'LocalTaskTraceV1/prefixDigest',
        'LocalTaskTraceReplayV1/events/*/eventId',
        ...['/baselineSources', '/selectedSources', '/excludedSources', '/unclassifiedSources'].map(
          (b) => `ContextReadPlanV2${b}/*/sourceRefs/*/metadataDigest`,
        ),
        'ContextReadPlanV1/selectedSources/*/sourceRefs/*/metadataDigest',
        'ContextReadPlanV1/baselineContext/readme/sourceRefs/*/metadataDigest',
        'ContextReadPlanV1/baselineContext/configSourceRefs/*/metadataDigest',
      ].sort(),
    );
  });

  const fixtures = listFixtures();
  for (const rule of withShortcut) {
    it(`${rule.contract}${rule.pointer}: the same answer as compute on fixtures and their variants`, () => {
      let disagreements = 0;
      const docs = fixtures.filter((f) => f.contract === rule.contract).map((f) => f.document);
      expect(docs.length).toBeGreaterThan(3);
      // Documents with at least one field the rule covers: each has variants that break one.
      const covered = docs.filter((doc) => {
        try {
          return rule.compute(doc).length > 0;
        } catch {
          return false;
        }
      }).length;
      expect(covered).toBeGreaterThan(3);
      for (const doc of docs) {
        for (const d of [doc, ...variants(doc as Record<string, unknown>)]) {
          const expected = disagreeing(rule, d);
          disagreements += expected.length;
          expect(rule.mismatches!(d)).toEqual(expected);
        }
      }
      expect(disagreements).toBeGreaterThanOrEqual(covered);
    });
  }
});
