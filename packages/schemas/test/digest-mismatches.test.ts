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

/** Variants of a document with events: one id wrong, one type and one key changed, an odd key, no id. */
function variants(doc: Record<string, unknown>): unknown[] {
  const events = doc.events;
  if (!Array.isArray(events) || events.length === 0) return [];
  const out: unknown[] = [];
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
  const oddTrace = structuredClone(doc);
  oddTrace.traceId = 'trace-"odd"';
  out.push(oddTrace);
  return out;
}

const withShortcut = DIGEST_RULES.filter((r) => r.mismatches !== undefined);

describe('DigestRule.mismatches', () => {
  it('exists for the per-event id rules', () => {
    expect(withShortcut.map((r) => `${r.contract}${r.pointer}`)).toEqual([
      'LocalTaskTraceV1/events/*/eventId',
      'LocalTaskTraceReplayV1/events/*/eventId',
    ]);
  });

  const fixtures = listFixtures();
  for (const rule of withShortcut) {
    it(`${rule.contract}${rule.pointer}: the same answer as compute on fixtures and their variants`, () => {
      let disagreements = 0;
      const docs = fixtures.filter((f) => f.contract === rule.contract).map((f) => f.document);
      expect(docs.length).toBeGreaterThan(3);
      for (const doc of docs) {
        for (const d of [doc, ...variants(doc as Record<string, unknown>)]) {
          const expected = disagreeing(rule, d);
          disagreements += expected.length;
          expect(rule.mismatches!(d)).toEqual(expected);
        }
      }
      expect(disagreements).toBeGreaterThan(docs.length);
    });
  }
});
