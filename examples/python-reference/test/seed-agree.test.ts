// @module-tag integration
// Producing a seed (docs/spec/context-acquisition-gate.md, "Producing a seed", CAG-002, CAG-003;
// D-CTX-55) off the wire, by both references: the TypeScript engine's `formIntentSeed` and the
// Python reference's `form_seed` get the same input records, hand-picked edges and records drawn
// by fast-check with a fixed seed, and must give the same seed or the same refusal (code and
// path). Through `context.plan` the message schema refuses most of these records before either
// producer sees them, so the protocol's cases cannot compare them.
import { formIntentSeed, ManualClock } from '@agent-contracts/engines';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pythonJson } from './helpers/python-json.ts';

const NOW = Date.parse('2026-12-02T05:00:00.000Z');

// Answers [{ok, seed} | {ok: false, code, path} | {crash}, ...] for the records given.
const FORM = `
from agent_ref.context_plan import form_seed
from agent_ref.errors import Refusal
out = []
for rec in data:
    try:
        out.append({"ok": True, "seed": form_seed(rec, int(sys.argv[1]))})
    except Refusal as r:
        out.append({"ok": False, "code": r.code, "path": r.data.get("path")})
    except Exception as e:
        out.append({"crash": repr(e)})
json.dump(out, sys.stdout)
`;

/** The Python reference's answer for each record. */
const python = (records: unknown[]) => pythonJson<unknown[]>(FORM, records, [String(NOW)]);

/** The engine's answer, in the Python reference's shape (its paths are under the `seed` member). */
function engine(record: unknown): unknown {
  const r = formIntentSeed(record, new ManualClock(NOW));
  return r.ok ? { ok: true, seed: r.seed } : { ok: false, code: r.code, path: `/seed${r.path}` };
}

const EDGES: object[] = [
  {},
  { semantic: 'fix' },
  { intent: 'fix' },
  { semantic: 'fix', intent: 'fix' },
  { semantic: 'fix', intent: 'dev' },
  { semantic: 'fix', intent: null },
  { semantic: null, intent: 'fix' },
  { semantic: '', intent: 'fix' },
  { semantic: 7 },
  { semantic: 'Fix' },
  { semantic: 'fix', bogus: 1 },
  { semantic: 'fix', schemaVersion: 'IntentSeedV1' },
  { semantic: 'fix', schemaVersion: 'IntentSeedV2' },
  { semantic: 'Fix', schemaVersion: 'IntentSeedV2' },
  { schemaVersion: 'IntentSeedV2' },
  { semantic: ['fix'] },
  { semantic: { fix: true } },
  { intent: 7 },
  { semantic: 'fix', intent: '' },
  { semantic: 'fix', riskHint: ['high'] },
  { semantic: 'fix', targetHint: ['acme'] },
  { semantic: 'fix', createdAt: 5 },
  { semantic: 'fix', contextEpoch: 5 },
  { semantic: 'fix', contextEpoch: '' },
  { semantic: 'fix', contextEpoch: 'x'.repeat(257) },
  // D-CTX-55: a key given as null is not given, and its default applies.
  { semantic: 'fix', riskHint: null },
  { semantic: 'fix', confidence: null },
  { semantic: 'fix', targetHint: null },
  { semantic: 'fix', createdAt: null },
  { semantic: 'fix', contextEpoch: null },
  { semantic: 'fix', continuationHint: null },
  // D-CTX-55: confidence is a number; a boolean is not one.
  { semantic: 'fix', confidence: true },
  { semantic: 'fix', confidence: false },
  { semantic: 'fix', confidence: '0.5' },
  { semantic: 'fix', confidence: 0.59 },
  { semantic: 'fix', confidence: 1.5 },
  { semantic: 'fix', confidence: -0.1 },
  { semantic: 'fix', riskHint: 'critical', confidence: 0 },
  { semantic: 'fix', riskHint: 'High' },
  { semantic: 'fix', riskHint: 3 },
  { semantic: 'fix', continuationHint: true },
  { semantic: 'fix', continuationHint: 'true' },
  { semantic: 'fix', targetHint: '  acme  ' },
  { semantic: 'fix', targetHint: '   ' },
  { semantic: 'fix', targetHint: 'x'.repeat(256) },
  { semantic: 'fix', targetHint: 'x'.repeat(257) },
  { semantic: 'fix', targetHint: ` ${'x'.repeat(256)} ` },
  { semantic: 'fix', createdAt: '2026-01-01T00:00:00Z' },
  { semantic: 'fix', createdAt: '2026-01-01T00:00:00.123Z' },
  { semantic: 'fix', createdAt: 'yesterday' },
  { semantic: 'fix', contextEpoch: 'ctx-host' },
  { semantic: 'fix', contextEpoch: 'a b' },
];

/** Input records drawn from the values each key may or may not accept. */
const record = fc.record(
  {
    semantic: fc.constantFrom('fix', 'audit', 'resume', 'dev', null, '', 'keyword'),
    intent: fc.constantFrom('fix', 'audit', null, ''),
    riskHint: fc.constantFrom('normal', 'high', 'critical', null, 'low'),
    confidence: fc.oneof(fc.constantFrom(null, 0, 0.6, 1), fc.double({ min: -0.5, max: 1.5, noNaN: true })),
    targetHint: fc.oneof(fc.constant(null), fc.string({ maxLength: 8 })),
    continuationHint: fc.constantFrom(true, false, null),
    createdAt: fc.constantFrom(null, '2026-03-04T05:06:07.089Z', '2026-03-04T05:06:07Z'),
    contextEpoch: fc.constantFrom(null, 'ctx-host', 'ctx-other'),
    schemaVersion: fc.constantFrom('IntentSeedV1', 'IntentSeedV2'),
  },
  { requiredKeys: [] },
);

describe('the two references produce the same seed from the same input record', () => {
  it('hand-picked edges: the same seed, or the same code at the same path', () => {
    expect(python(EDGES)).toEqual(EDGES.map(engine));
  });
  it('200 records drawn with a fixed seed (fast-check): the same answers', () => {
    const drawn = fc.sample(record, { numRuns: 200, seed: 34 });
    expect(python(drawn)).toEqual(drawn.map(engine));
  });
});
