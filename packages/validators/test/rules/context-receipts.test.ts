// @module-tag unit
// Receipt, reuse and ledger rules, and the `context-acquisition-chain` bundle, judged on the area's
// fixture builder: every valid document and chain passes; every semantic and bundle fixture fails
// with its one code at its path (and no other error code, except where one invariant implies
// another); plus direct cases for the gate's promises the fixtures do not pin down.
import type { ContextReadReceiptV2, ContextSourceResultObservation } from '@agent-contracts/schemas';
import { DIGEST_RULES } from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import {
  CONTEXT_RECEIPTS_BUNDLES,
  CONTEXT_RECEIPTS_FIXTURES,
} from '../../../../scripts/fixtures/context-receipts.ts';
import { type Issue, validate, validateBundle } from '../../src/index.ts';
import {
  CONTEXT_RECEIPTS_BUNDLE_RULES,
  CONTEXT_RECEIPTS_RULES,
} from '../../src/rules/context-receipts/index.ts';

const errors = (issues: readonly Issue[]) => issues.filter((i) => i.severity === 'error');
const brief = (issues: readonly Issue[]) => issues.map((i) => `${i.code} ${i.path}`);
const issuesOf = (doc: unknown) => {
  const r = validate(doc);
  return r.ok ? [...r.warnings] : [...r.issues];
};
const bundleIssues = (documents: unknown[]) => {
  const r = validateBundle({ kind: 'context-acquisition-chain', documents });
  return r.ok ? [...r.warnings] : [...r.issues];
};

/** Reseal a receipt after an edit (observation ids, reuse digest, receipt id). */
function reseal<T>(contract: string, doc: T): T {
  const setAt = (pointer: string, value: unknown) => {
    const tokens = pointer.split('/').slice(1);
    let node = doc as Record<string, unknown>;
    for (const t of tokens.slice(0, -1)) node = node[t] as Record<string, unknown>;
    node[tokens.at(-1)!] = value;
  };
  for (const rule of DIGEST_RULES.filter((r) => r.contract === contract))
    for (const { pointer, expected } of rule.compute(doc)) setAt(pointer, expected);
  return doc;
}

const set = (contract: string) => CONTEXT_RECEIPTS_FIXTURES.find((s) => s.contract === contract)!;
const validDoc = <T>(contract: string, name: string) => structuredClone(set(contract).valid[name]) as T;
const chain = CONTEXT_RECEIPTS_BUNDLES.find((b) => b.kind === 'context-acquisition-chain')!;

// One invariant implies another here: granting delivery from a V1 receipt also skips check 6.
const IMPLIED: Record<string, string[]> = {
  'delivery-granted-from-v1-receipt': ['CONTEXT_REUSE_REASON_ORDER_VIOLATED'],
};

describe('context-receipts semantic fixtures', () => {
  for (const s of CONTEXT_RECEIPTS_FIXTURES) {
    for (const [name, doc] of Object.entries(s.valid)) {
      it(`${s.contract}/${name} passes every rule`, () => expect(brief(issuesOf(doc))).toEqual([]));
    }
    for (const f of s.semantic ?? []) {
      it(`${s.contract}/${f.name} fails only with ${f.expect.code} at ${f.expect.path}`, () => {
        const found = errors(issuesOf(f.document));
        expect(brief(found)).toContain(`${f.expect.code} ${f.expect.path}`);
        const allowed = new Set([f.expect.code, ...(IMPLIED[f.name] ?? [])]);
        expect(brief(found.filter((i) => !allowed.has(i.code)))).toEqual([]);
      });
    }
  }

  it('has a semantic or digest fixture for every single-document code of the area', () => {
    const produced = new Set(
      CONTEXT_RECEIPTS_FIXTURES.flatMap((s) =>
        (s.semantic ?? []).map((f) => `${s.contract}:${f.expect.code}`),
      ),
    );
    const shared = new Set(
      CONTEXT_RECEIPTS_FIXTURES.flatMap((s) => (s.semantic ?? []).map((f) => f.expect.code)),
    );
    for (const r of CONTEXT_RECEIPTS_RULES) {
      // Observation-record rules are shared by receipts and ledgers; one fixture per code suffices.
      expect(produced.has(`${r.contract}:${r.code}`) || shared.has(r.code), `${r.contract}:${r.code}`).toBe(
        true,
      );
    }
    const digestCodes = DIGEST_RULES.filter((r) => set(r.contract) !== undefined && r.code).map(
      (r) => r.code!,
    );
    for (const code of digestCodes) expect(shared.has(code), code).toBe(true);
  });
});

describe('context-acquisition-chain bundles', () => {
  it('has at least two valid chains and a fixture for every bundle code', () => {
    expect(Object.keys(chain.valid).length).toBeGreaterThanOrEqual(2);
    const codes = new Set(chain.invalid.map((f) => f.expect.code));
    for (const r of CONTEXT_RECEIPTS_BUNDLE_RULES) expect(codes.has(r.code), r.code).toBe(true);
  });
  for (const [name, documents] of Object.entries(chain.valid)) {
    it(`${name} is a valid chain`, () => expect(brief(bundleIssues(documents))).toEqual([]));
  }
  for (const f of chain.invalid) {
    it(`${f.name} fails only with ${f.expect.code} at ${f.expect.path}`, () => {
      const found = errors(bundleIssues(f.documents));
      expect(brief(found)).toContain(`${f.expect.code} ${f.expect.path}`);
      expect(brief(found.filter((i) => i.code !== f.expect.code))).toEqual([]);
    });
  }
});

describe('completion needs correlated PostToolUse success with content identity', () => {
  const complete = () =>
    validDoc<ContextReadReceiptV2>('ContextReadReceiptV2', 'relevant-complete-post-tool-use');

  it('a PreToolUse-only receipt claiming relevant-complete is refused', () => {
    const doc = validDoc<ContextReadReceiptV2>('ContextReadReceiptV2', 'attempted-pre-tool-use-only');
    doc.status = 'relevant-complete';
    doc.satisfiedSourceIds = [...doc.satisfiedSourceIds, ...doc.missingSourceIds].sort();
    doc.missingSourceIds = [];
    doc.completedAt = doc.updatedAt;
    const codes = errors(issuesOf(reseal('ContextReadReceiptV2', doc))).map((i) => i.code);
    expect(codes).toContain('CONTEXT_RECEIPT_SATISFIED_NOT_DERIVED');
  });

  it('a computation-cache hit (cache: true, no reusedObservationId) satisfies nothing', () => {
    const doc = complete();
    const i = doc.observations.findIndex(
      (o) => o.hookEvent === 'PostToolUse' && o.sourceId === 'memory:status',
    );
    (doc.observations[i] as ContextSourceResultObservation).cache = true;
    const found = brief(errors(issuesOf(reseal('ContextReadReceiptV2', doc))));
    expect(found).toContain('CONTEXT_RECEIPT_SATISFIED_NOT_DERIVED /satisfiedSourceIds');
  });

  it('a result without contentIdentity leaves the source missing', () => {
    const doc = complete();
    const i = doc.observations.findIndex(
      (o) => o.hookEvent === 'PostToolUse' && o.sourceId === 'profile:architecture.md',
    );
    (doc.observations[i] as ContextSourceResultObservation).contentIdentity = null;
    const found = brief(errors(issuesOf(reseal('ContextReadReceiptV2', doc))));
    expect(found).toContain('CONTEXT_RECEIPT_SATISFIED_NOT_DERIVED /satisfiedSourceIds');
  });

  it('a path-observable receipt never completes', () => {
    const doc = validDoc<ContextReadReceiptV2>('ContextReadReceiptV2', 'path-observable-fallback-unverified');
    doc.status = 'relevant-complete';
    doc.completedAt = doc.updatedAt;
    const codes = errors(issuesOf(reseal('ContextReadReceiptV2', doc))).map((i) => i.code);
    expect(codes).toEqual(
      expect.arrayContaining(['CONTEXT_RECEIPT_FALLBACK_COMPLETE', 'CONTEXT_RECEIPT_COMPLETION_UNPROVEN']),
    );
  });

  it('compares timestamps as instants, whatever their fraction digits', () => {
    const doc = complete();
    // 10.705Z written as 10.7050Z is the same instant: still valid.
    doc.updatedAt = doc.updatedAt.replace('Z', '0Z');
    expect(brief(errors(issuesOf(reseal('ContextReadReceiptV2', doc))))).toEqual([]);
    // A whole-second updatedAt of 10Z is before 10.702Z: the last record is after the write.
    doc.updatedAt = '2026-11-30T05:53:10Z';
    const found = brief(errors(issuesOf(reseal('ContextReadReceiptV2', doc))));
    expect(found.some((f) => f.startsWith('CONTEXT_RECEIPT_TIMESTAMP_BACKFILLED'))).toBe(true);
  });
});

describe('chain layout', () => {
  const devChain = chain.valid['dev-read-complete-consumed']!;

  it('refuses a chain that does not start with its seed', () => {
    const docs = [devChain[1], devChain[0], ...devChain.slice(2)];
    expect(brief(errors(bundleIssues(docs)))).toEqual([
      'CONTEXT_ACQUISITION_CHAIN_OUT_OF_ORDER /documents/0/schemaVersion',
    ]);
  });

  it('refuses a chain that ends before its receipt', () => {
    expect(brief(errors(bundleIssues(devChain.slice(0, 4))))).toEqual([
      'CONTEXT_ACQUISITION_CHAIN_OUT_OF_ORDER /documents',
    ]);
  });

  it('refuses a receipt listed before the ledger snapshots', () => {
    const docs = [devChain[0], devChain[1], devChain[4], devChain[2], devChain[3]];
    expect(brief(errors(bundleIssues(docs)))).toEqual([
      'CONTEXT_ACQUISITION_CHAIN_OUT_OF_ORDER /documents/3/schemaVersion',
    ]);
  });

  it('refuses a plan that does not embed the chain seed verbatim', () => {
    const seed = structuredClone(devChain[0]) as { confidence: number };
    seed.confidence = 0.91;
    const found = brief(errors(bundleIssues([seed, ...devChain.slice(1)])));
    expect(found).toEqual(['CONTEXT_ACQUISITION_CHAIN_OUT_OF_ORDER /documents/1/identity/intentSeed']);
  });

  it('a reuse chain whose prior receipt is V1 is never delivery reuse', () => {
    const reuse = chain.valid['dev-delivery-reuse-same-session']!;
    const v1 = set('ContextReadReceiptV1').valid['legacy-relevant-complete'];
    const found = errors(bundleIssues([...reuse.slice(0, 5), v1]));
    expect(found.map((i) => i.code)).toContain('CONTEXT_RECEIPT_REUSE_UNPROVEN');
  });
});
