// The LocalTaskTraceGate rules over the area's fixtures: every semantic fixture fails with its
// code at its path and with no other code (it breaks exactly one rule), every valid document
// passes, and the trace-replay bundles judge as recorded.
import { describe, expect, it } from 'vitest';
import {
  LOCAL_TASK_TRACE_BUNDLES,
  LOCAL_TASK_TRACE_FIXTURES,
} from '../../../../scripts/fixtures/local-task-trace.ts';
import { BUNDLE_KINDS, validate, validateBundle } from '../../src/index.ts';
import { LOCAL_TASK_TRACE_BUNDLE_RULES, LOCAL_TASK_TRACE_RULES } from '../../src/rules/local-task-trace.ts';

const PAGE_CODES = [
  'TRACE_BOUNDS_EXCEEDED',
  'TRACE_SEQUENCE_INVALID',
  'TRACE_DUPLICATE_EVENT',
  'TRACE_EVENT_INVALID',
  'TRACE_TERMINAL_INVALID',
  'TRACE_PREFIX_INVALID',
];

describe('LOCAL_TASK_TRACE_RULES', () => {
  it('has one rule per semantic code of the page, each citing the page', () => {
    expect(
      LOCAL_TASK_TRACE_RULES.filter((r) => r.contract === 'LocalTaskTraceV1').map((r) => r.code),
    ).toEqual(PAGE_CODES);
    expect(
      LOCAL_TASK_TRACE_RULES.filter((r) => r.contract === 'LocalTaskTraceReplayV1').map((r) => r.code),
    ).toEqual(['TRACE_REPLAY_MISMATCH']);
    for (const r of [...LOCAL_TASK_TRACE_RULES, ...LOCAL_TASK_TRACE_BUNDLE_RULES])
      expect(r.specSection).toMatch(/^docs\/spec\/local-task-trace-gate\.md#invariants(-1)?$/);
    expect(BUNDLE_KINDS).toContain('trace-replay');
  });

  it('every semantic code (and TRACE_ID_MISMATCH) has at least one fixture', () => {
    const produced = new Set(
      LOCAL_TASK_TRACE_FIXTURES.flatMap((s) => (s.semantic ?? []).map((f) => f.expect.code)),
    );
    for (const code of [...PAGE_CODES, 'TRACE_ID_MISMATCH', 'TRACE_REPLAY_MISMATCH'])
      expect(produced).toContain(code);
  });
});

for (const set of LOCAL_TASK_TRACE_FIXTURES) {
  describe(set.contract, () => {
    for (const [name, doc] of Object.entries(set.valid)) {
      it(`valid ${name} passes every rule`, () => {
        const r = validate(doc);
        expect(r.ok ? [] : r.issues).toEqual([]);
      });
    }
    for (const f of set.semantic ?? []) {
      it(`${f.name} fails with exactly ${f.expect.code}, at ${f.expect.path}`, () => {
        const r = validate(f.document);
        if (r.ok) expect.fail('accepted');
        expect(r.issues.filter((i) => i.code === f.expect.code && i.path === f.expect.path)).not.toEqual([]);
        expect([...new Set(r.issues.map((i) => i.code))]).toEqual([f.expect.code]);
        for (const i of r.issues) expect(i.severity).toBe('error');
      });
    }
  });
}

for (const set of LOCAL_TASK_TRACE_BUNDLES) {
  describe(`bundle ${set.kind}`, () => {
    it('has at least 2 valid bundles and an invalid one per bundle code', () => {
      expect(Object.keys(set.valid).length).toBeGreaterThanOrEqual(2);
      const codes = new Set(set.invalid.map((f) => f.expect.code));
      for (const r of LOCAL_TASK_TRACE_BUNDLE_RULES) expect(codes).toContain(r.code);
    });
    for (const [name, documents] of Object.entries(set.valid)) {
      it(`valid ${name}`, () => {
        const r = validateBundle({ kind: set.kind, documents });
        expect(r.ok ? [] : r.issues).toEqual([]);
      });
    }
    for (const f of set.invalid) {
      it(`${f.name} fails with exactly ${f.expect.code} at ${f.expect.path}`, () => {
        for (const d of f.documents) expect(validate(d).ok).toBe(true);
        const r = validateBundle({ kind: set.kind, documents: f.documents });
        if (r.ok) expect.fail('accepted');
        expect(r.issues.filter((i) => i.code === f.expect.code && i.path === f.expect.path)).not.toEqual([]);
        expect([...new Set(r.issues.map((i) => i.code))]).toEqual([f.expect.code]);
      });
    }
    it('refuses a bundle that is not [trace, replay]', () => {
      const [trace, replay] = Object.values(set.valid)[0]!;
      const r = validateBundle({ kind: set.kind, documents: [replay, trace] });
      expect(r.ok ? [] : r.issues.map((i) => i.code)).toEqual(['BUNDLE_INVALID']);
    });
  });
}
