// @module-tag unit
// The worked examples of the spec pages, checked against the digest package and the validators:
// a `document` block is valid, a `refusal` block fails with the code and path it names, a `digest`
// block's canonical form, digest and derived id are what the digest package computes, and equal
// the field of the document they claim to be. Every gate page carries all three kinds.
import { canonicalize, derivedId, digestOf } from '@agent-contracts/digest';
import { GATES } from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import { validate } from '../src/index.ts';
import { parseWorkedExamples, specPages, type WorkedExampleBlock } from './worked-example-blocks.ts';

interface DigestBlock {
  readonly value: unknown;
  readonly canonical: string;
  readonly digest: string;
  readonly derivedId?: { readonly prefix: string; readonly length: number; readonly id: string };
  readonly field?: { readonly document: string; readonly pointer: string };
}

interface RefusalBlock {
  readonly from?: string;
  readonly document?: unknown;
  readonly set?: Readonly<Record<string, unknown>>;
  readonly remove?: readonly string[];
  readonly issue: { readonly code: string; readonly path: string };
}

const tokens = (pointer: string): string[] =>
  pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'));

function at(doc: unknown, pointer: string): unknown {
  let v: unknown = doc;
  for (const t of tokens(pointer)) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, t)) return undefined;
    v = (v as Record<string, unknown>)[t];
  }
  return v;
}

function edit(doc: unknown, pointer: string, value: unknown, remove: boolean): void {
  const path = tokens(pointer);
  const last = path.pop();
  const parent = at(doc, path.length === 0 ? '' : `/${path.join('/')}`) as Record<string, unknown>;
  if (last === undefined || parent === null || typeof parent !== 'object' || !Object.hasOwn(parent, last))
    throw new Error(`${pointer} does not exist in the base document`);
  if (remove) {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else parent[last] = value;
}

const pages = specPages().map(({ page, text }) => ({ page, ...parseWorkedExamples(page, text) }));
const all = pages.flatMap((p) => p.blocks);

function documentsOf(page: string): Map<string, WorkedExampleBlock> {
  return new Map(all.filter((b) => b.page === page && b.kind === 'document').map((b) => [b.name, b]));
}

describe('worked examples of the spec', () => {
  it('are well-formed: every marker has a JSON block, names are unique per page', () => {
    expect(pages.flatMap((p) => p.problems)).toEqual([]);
    for (const b of all) expect(b.parseError, `${b.page}:${b.line}`).toBeNull();
    for (const p of pages) {
      const names = p.blocks.map((b) => `${b.kind}:${b.name}`);
      expect(new Set(names).size, p.page).toBe(names.length);
    }
    expect(all.length).toBeGreaterThan(0);
  });

  for (const gatePage of new Set(Object.values(GATES))) {
    it(`${gatePage} has a document, a digest of one of its fields and a refusal`, () => {
      const kinds = all.filter((b) => b.page === gatePage);
      expect(kinds.some((b) => b.kind === 'document')).toBe(true);
      expect(kinds.some((b) => b.kind === 'digest' && (b.json as DigestBlock).field !== undefined)).toBe(
        true,
      );
      expect(kinds.some((b) => b.kind === 'refusal')).toBe(true);
    });
  }

  for (const b of all) {
    const label = `${b.page}:${b.line} ${b.kind} ${b.name}`;
    if (b.kind === 'document') {
      it(`${label} is a valid ${b.arg}`, () => {
        expect(b.arg, 'a document marker names its contract').not.toBeNull();
        const r = validate(b.json, { contract: b.arg! });
        expect(r.ok ? [] : r.issues).toEqual([]);
      });
    } else if (b.kind === 'digest') {
      it(`${label}: canonical form, digest and derived id recompute`, () => {
        const d = b.json as DigestBlock;
        expect(canonicalize(d.value)).toBe(d.canonical);
        expect(digestOf(d.value)).toBe(d.digest);
        if (d.derivedId)
          expect(derivedId(d.derivedId.prefix, d.value, d.derivedId.length)).toBe(d.derivedId.id);
        if (d.field) {
          const doc = documentsOf(b.page).get(d.field.document);
          expect(doc, `no document block ${d.field.document} on ${b.page}`).toBeDefined();
          expect(at(doc!.json, d.field.pointer)).toBe(d.derivedId?.id ?? d.digest);
        }
      });
    } else {
      it(`${label} is refused`, () => {
        expect(b.arg, 'a refusal marker names its contract').not.toBeNull();
        const r = b.json as RefusalBlock;
        let doc: unknown = r.document;
        if (r.from !== undefined) {
          const base = documentsOf(b.page).get(r.from);
          expect(base, `no document block ${r.from} on ${b.page}`).toBeDefined();
          doc = structuredClone(base!.json);
          for (const [pointer, value] of Object.entries(r.set ?? {})) edit(doc, pointer, value, false);
          for (const pointer of r.remove ?? []) edit(doc, pointer, undefined, true);
        }
        const result = validate(doc, { contract: b.arg! });
        expect(result.ok).toBe(false);
        if (result.ok) return;
        const hits = result.issues.filter((i) => i.code === r.issue.code && i.path === r.issue.path);
        expect(hits, JSON.stringify(result.issues, null, 1)).not.toEqual([]);
      });
    }
  }
});
