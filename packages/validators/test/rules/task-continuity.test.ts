// @module-tag unit
// TaskContinuityWriteGate rules, judged on the area's fixture builder: every valid document and
// bundle passes every rule; every semantic and bundle fixture fails with exactly its one issue
// (code and path), so a fixture never passes by tripping another rule. Plus direct cases for
// branches the fixtures do not pin down.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type {
  FencedTaskWriteOwnerLeaseV2,
  TaskOperationRecordV1,
  TaskRecoveryStateV5,
  WorkflowTaskTerminalReceiptV1,
} from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import {
  TASK_CONTINUITY_BUNDLES,
  TASK_CONTINUITY_FIXTURES,
} from '../../../../scripts/fixtures/task-continuity.ts';
import { type Issue, validate, validateBundle } from '../../src/index.ts';
import { sameJson } from '../../src/rules/json.ts';
import {
  compareTime,
  generationDelta,
  TASK_CONTINUITY_BUNDLE_RULES,
  TASK_CONTINUITY_RULES,
} from '../../src/rules/task-continuity/index.ts';

const errors = (issues: readonly Issue[]) => issues.filter((i) => i.severity === 'error');
const brief = (issues: readonly Issue[]) => issues.map((i) => `${i.code} ${i.path}`);
const issuesOf = (doc: unknown) => {
  const r = validate(doc);
  return r.ok ? [...r.warnings] : [...r.issues];
};

const set = (contract: string) => TASK_CONTINUITY_FIXTURES.find((s) => s.contract === contract)!;
const valid = <T>(contract: string, name: string) => structuredClone(set(contract).valid[name]) as T;
const bundle = (kind: string) => TASK_CONTINUITY_BUNDLES.find((b) => b.kind === kind)!;

describe('task-continuity semantic fixtures', () => {
  for (const s of TASK_CONTINUITY_FIXTURES) {
    for (const [name, doc] of Object.entries(s.valid)) {
      it(`${s.contract}/valid/${name} passes every rule`, () => {
        expect(brief(errors(issuesOf(doc)))).toEqual([]);
      });
    }
    for (const f of s.semantic ?? []) {
      it(`${s.contract}/${f.name} fails with exactly ${f.expect.code} at ${f.expect.path}`, () => {
        const issues = issuesOf(f.document);
        expect(brief(errors(issues))).toEqual([`${f.expect.code} ${f.expect.path}`]);
        expect(issues[0]!.message.length).toBeGreaterThan(30);
      });
    }
  }

  it('every semantic code of the area has a fixture', () => {
    const codes = new Set(TASK_CONTINUITY_RULES.map((r) => r.code));
    const covered = new Set(
      TASK_CONTINUITY_FIXTURES.flatMap((s) => (s.semantic ?? []).map((f) => f.expect.code)),
    );
    expect([...codes].filter((c) => !covered.has(c))).toEqual([]);
  });
});

describe('task-continuity bundles', () => {
  for (const b of TASK_CONTINUITY_BUNDLES) {
    for (const [name, documents] of Object.entries(b.valid)) {
      it(`${b.kind}/valid/${name} passes`, () => {
        const r = validateBundle({ kind: b.kind, documents });
        expect(r.ok ? [] : brief(r.issues)).toEqual([]);
      });
    }
    for (const f of b.invalid) {
      it(`${b.kind}/${f.name} fails with exactly ${f.expect.code} at ${f.expect.path}`, () => {
        for (const doc of f.documents) expect(brief(errors(issuesOf(doc)))).toEqual([]);
        const r = validateBundle({ kind: b.kind, documents: f.documents });
        expect(r.ok).toBe(false);
        if (!r.ok) expect(brief(errors(r.issues))).toEqual([`${f.expect.code} ${f.expect.path}`]);
      });
    }
  }

  it('every bundle code has an invalid fixture', () => {
    const covered = new Set(
      TASK_CONTINUITY_BUNDLES.flatMap((b) => b.invalid.map((f) => `${b.kind}:${f.expect.code}`)),
    );
    const missing = TASK_CONTINUITY_BUNDLE_RULES.map((r) => `${r.bundle}:${r.code}`).filter(
      (k) => !covered.has(k),
    );
    expect(missing).toEqual([]);
  });

  const lifecycle = () =>
    structuredClone(
      bundle('envelope-sequence').valid['task-a-lifecycle-closed-and-reopened']!,
    ) as TaskRecoveryStateV5[];

  it('refuses a reordered sequence and a fork', () => {
    const docs = lifecycle();
    const swapped = [docs[0], docs[2], docs[1]];
    const r = validateBundle({ kind: 'envelope-sequence', documents: swapped });
    expect(r.ok ? [] : r.issues.map((i) => i.code)).toContain('LIFECYCLE_STATE_SEQUENCE_INVALID');
    const fork = [docs[0], docs[1], docs[1]];
    const f = validateBundle({ kind: 'envelope-sequence', documents: fork });
    expect(f.ok ? [] : brief(f.issues)).toContain('LIFECYCLE_STATE_SEQUENCE_INVALID /documents/2/sequence');
  });

  it('refuses a document of another contract in a sequence', () => {
    const docs = lifecycle();
    const receipt = docs[8]!.terminalReceipt;
    const r = validateBundle({ kind: 'envelope-sequence', documents: [docs[0], receipt] });
    expect(r.ok ? [] : brief(r.issues)).toEqual([
      'LIFECYCLE_STATE_SEQUENCE_INVALID /documents/1/schemaVersion',
    ]);
  });

  it('accepts any window of consecutive envelopes, including a single one', () => {
    const docs = lifecycle();
    for (let i = 0; i < docs.length; i++) {
      expect(validateBundle({ kind: 'envelope-sequence', documents: docs.slice(i, i + 3) }).ok).toBe(true);
    }
  });

  it('a context of another envelope is a readback mismatch', () => {
    const docs = bundle('write-context-readback').valid;
    const [envelope] = docs['after-renew']!;
    const [, context] = docs['after-state-commit']!;
    const r = validateBundle({ kind: 'write-context-readback', documents: [envelope, context] });
    expect(r.ok ? [] : brief(r.issues)).toEqual([
      'TASK_WRITE_CONTEXT_READBACK_MISMATCH /documents/1/envelopeDigest',
    ]);
  });
});

describe('task-continuity rule helpers and direct cases', () => {
  it('compares timestamps by instant, beyond milliseconds', () => {
    expect(compareTime('2026-11-30T05:41:12Z', '2026-11-30T05:41:12.000Z')).toBe(0);
    expect(compareTime('2026-11-30T05:41:12.0000001Z', '2026-11-30T05:41:12Z')).toBe(1);
    expect(compareTime('2026-11-30T05:41:11.999999999Z', '2026-11-30T05:41:12Z')).toBe(-1);
  });

  it('JSON equality ignores key order only', () => {
    expect(sameJson({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
  });

  it('generation deltas follow invariant 12', () => {
    const plusOne = [
      'owner-release',
      'owner-reacquire',
      'owner-handoff-prepare',
      'owner-takeover-prepare',
      'owner-terminal',
      'owner-reopen',
    ];
    const zero = [
      'state',
      'operation-prepare',
      'operation-settle',
      'owner-acquire',
      'owner-renew',
      'owner-handoff-accept',
      'owner-takeover-accept',
    ];
    for (const k of plusOne) expect(generationDelta(k as never), k).toBe(1);
    for (const k of zero) expect(generationDelta(k as never), k).toBe(0);
  });

  it('an aborted-zero-effect record with any dispatch trace is refused', () => {
    const rec = valid<TaskOperationRecordV1>('TaskOperationRecordV1', 'aborted-zero-effect');
    const r = validate({ ...rec, effect: 'unknown' }, { digests: false });
    expect(r.ok ? [] : brief(r.issues)).toEqual(['TASK_OPERATION_PHASE_SHAPE_INVALID /effect']);
  });

  it('lease refs must match their pending status, both ways', () => {
    const lease = valid<FencedTaskWriteOwnerLeaseV2>(
      'FencedTaskWriteOwnerLeaseV2',
      'takeover-pending-before-expiry',
    );
    const r = validate({ ...lease, takeoverRef: null }, { digests: false });
    expect(r.ok ? [] : brief(r.issues)).toContain('FENCED_TASK_WRITE_OWNER_INVALID /takeoverRef');
  });

  it('receipt evidence checks report each broken item', () => {
    const receipt = valid<WorkflowTaskTerminalReceiptV1>('WorkflowTaskTerminalReceiptV1', 'completed');
    receipt.evidence[1]!.path = receipt.evidence[0]!.path;
    receipt.evidence[2]!.path = receipt.evidence[0]!.path;
    const r = validate(receipt, { digests: false });
    expect(r.ok ? [] : brief(r.issues)).toEqual([
      'TASK_TERMINAL_EVIDENCE_DUPLICATE /evidence/1/path',
      'TASK_TERMINAL_EVIDENCE_DUPLICATE /evidence/2/path',
    ]);
  });
});

describe('task-continuity bundles on disk (conformance/bundles)', () => {
  const root = fileURLToPath(new URL('../../../../conformance/bundles/', import.meta.url));
  for (const kind of ['envelope-sequence', 'write-context-readback']) {
    for (const state of ['valid', 'invalid'] as const) {
      const dir = join(root, kind, state);
      const files = existsSync(dir)
        ? readdirSync(dir).filter((f) => f.endsWith('.json') && !f.endsWith('.expected.json'))
        : [];
      it(`${kind}/${state} is generated`, () => expect(files.length).toBeGreaterThan(0));
      for (const file of files) {
        it(`${kind}/${state}/${file}`, () => {
          const r = validateBundle(JSON.parse(readFileSync(join(dir, file), 'utf8')));
          if (state === 'valid') {
            expect(r.ok ? [] : brief(r.issues)).toEqual([]);
            return;
          }
          const expected = JSON.parse(
            readFileSync(join(dir, file.replace(/\.json$/, '.expected.json')), 'utf8'),
          );
          expect(r.ok ? [] : brief(errors(r.issues))).toEqual([`${expected.code} ${expected.instancePath}`]);
        });
      }
    }
  }
});
