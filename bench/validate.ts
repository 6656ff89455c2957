// pnpm bench validate: parse + full validation (structural, digests, semantic rules, strict
// date-time) of LocalTaskTraceV1 documents with 1, 16 and 128 events and of a ContextReadPlanV2,
// valid and invalid, as a ratio to JSON.parse of the same bytes, and against zod's safeParse of
// the same documents; plus the cold start of `agent-contracts validate small.json` (built CLI;
// `--no-build` reuses an existing build, `--no-cold` skips the cold start).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalize, sha256Hex, withCanonicalMemo } from '@agent-contracts/digest';
import { appendToTrace, closeTrace, ManualClock, openTrace } from '@agent-contracts/engines';
import { DIGEST_RULES } from '@agent-contracts/schemas';
import { validate } from '@agent-contracts/validators';
import { ZOD_SCHEMAS } from '@agent-contracts/zod';
import { CLI_BIN, ensureBuilt, repo } from './_build.ts';
import { fmt, interleaved, median } from './_stats.ts';

function trace(events: number): unknown {
  const clock = new ManualClock(Date.parse('2026-11-30T06:00:00.000Z'));
  const opened = openTrace(null, { turnKey: '019378e4-5d2a-7c31-9b6e-0f4a8d2c1e57' }, clock);
  if (!opened.ok) throw new Error(opened.message);
  let t: unknown = opened.trace;
  for (let i = 0; i < events - 1; i++) {
    clock.advance(250);
    const r = appendToTrace(
      t,
      {
        type: i % 2 ? 'PostToolUse' : 'PreToolUse',
        result: 'observed',
        occurrenceKey: `tool-call-${i >> 1}-${i % 2 ? 'post' : 'pre'}`,
        payload: {
          toolCallId: `call_${(i >> 1).toString().padStart(4, '0')}`,
          toolName: 'read_file',
          artifactPaths: ['src/index.ts'],
        },
      },
      clock,
    );
    if (!r.ok) throw new Error(r.message);
    t = r.trace;
  }
  clock.advance(250);
  const closed = closeTrace(t, 'complete', 'host-stop', clock);
  if (!closed.ok) throw new Error(closed.message);
  return closed.trace;
}

/** The same trace with one event's sequence broken: caught only by a semantic rule. */
function broken(doc: unknown): unknown {
  const copy = structuredClone(doc) as { events: Array<{ sequence: number }> };
  const mid = copy.events[copy.events.length >> 1]!;
  mid.sequence += 1;
  return copy;
}

const fixture = (rel: string) => JSON.parse(readFileSync(join(repo, 'conformance/fixtures', rel), 'utf8'));
const planDir = join(repo, 'conformance/fixtures/ContextReadPlanV2');
const planValid = fixture(`ContextReadPlanV2/valid/${readdirSync(join(planDir, 'valid')).sort()[0]}`);
const semanticPlan = readdirSync(join(planDir, 'invalid')).find((f) => {
  if (!f.endsWith('.expected.json')) return false;
  return JSON.parse(readFileSync(join(planDir, 'invalid', f), 'utf8')).layer === 'semantic';
});
const planInvalid = fixture(`ContextReadPlanV2/invalid/${semanticPlan!.replace('.expected.json', '.json')}`);

const docs: Array<[string, unknown, boolean]> = [];
for (const n of [1, 16, 128]) {
  const t = trace(n);
  docs.push(
    [`LocalTaskTraceV1 ${n} event${n === 1 ? '' : 's'}`, t, true],
    [`LocalTaskTraceV1 ${n} events, invalid`, broken(t), false],
  );
}
docs.push(['ContextReadPlanV2', planValid, true], ['ContextReadPlanV2, invalid', planInvalid, false]);

/**
 * Every column of a row is timed side by side (interleaved(): 41 rounds, each a batch of every
 * column in turn, after a warm-up that lets V8 optimise the code under test); the ratios are the
 * medians of the ratios within each round, which hold on a loaded machine. Cold start is measured
 * separately below.
 */
console.log(
  'validate benchmark (ns per document, medians; ratios taken within each round of interleaved batches)\n',
);
console.log(
  `${'document'.padEnd(36)} ${'bytes'.padStart(7)} ${'JSON.parse'.padStart(11)} ${'schema'.padStart(7)} ${'+rules'.padStart(7)} ${'parse+validate'.padStart(15)} ${'ratio'.padStart(7)} ${'zod safeParse'.padStart(14)} ${'vs zod'.padStart(7)}`,
);
const NO_RULES = { digests: false, rules: [] } as const;
const NO_DIGESTS = { digests: false } as const;
for (const [name, doc, valid] of docs) {
  const text = JSON.stringify(doc);
  const contract = (doc as { schemaVersion: string }).schemaVersion;
  const ok = validate(JSON.parse(text)).ok;
  if (ok !== valid) throw new Error(`${name}: expected ${valid ? 'valid' : 'invalid'}`);
  const zod = (ZOD_SCHEMAS as Record<string, { safeParse(v: unknown): unknown }>)[contract]!;
  const { ns, ratio } = interleaved([
    () => JSON.parse(text),
    () => validate(JSON.parse(text), NO_RULES),
    () => validate(JSON.parse(text), NO_DIGESTS),
    () => validate(JSON.parse(text)),
    () => zod.safeParse(JSON.parse(text)),
  ]);
  const [parse, , , full, z] = ns as [number, number, number, number, number];
  const vsZod = ratio[4]! / ratio[3]!;
  console.log(
    `${name.padEnd(36)} ${String(text.length).padStart(7)} ${fmt(parse, 0).padStart(11)} ${`${fmt(ratio[1]!)}x`.padStart(7)} ${`${fmt(ratio[2]!)}x`.padStart(7)} ${fmt(full, 0).padStart(15)} ${`${fmt(ratio[3]!)}x`.padStart(7)} ${fmt(z, 0).padStart(14)} ${`${fmt(vsZod)}x`.padStart(7)}`,
  );
}
console.log(
  '\nratio = parse + full validation (schema, semantic rules, every digest and derived id recomputed) / JSON.parse\n' +
    '  (targets: 3x for one event, 2.5x at 128 events, 4x for the plan); schema = parse + the structural check\n' +
    '  only; +rules = parse + schema + semantic rules, digests not recomputed; vs zod = zod time / ours, both\n' +
    '  including the parse (target: above 1x on every trace).',
);
console.log(
  'Note: zod checks the schema only; ours also recomputes every digest and runs the semantic rules.',
);

// The floor the spec sets: a LocalTaskTraceV1 of n events has n + 1 derived ids (traceId and every
// eventId), each a SHA-256 of a small JCS text, and validation must recompute them all. Hashing
// those texts alone, prepared in advance, is the part of the ratio no implementation can remove.
{
  const [, t] = docs.find(([name]) => name === 'LocalTaskTraceV1 128 events')! as [
    string,
    {
      traceId: string;
      turnKey: string;
      openedAt: string;
      events: Array<{ type: string; occurrenceKey: string }>;
    },
    boolean,
  ];
  const text = JSON.stringify(t);
  const inputs = [
    canonicalize({ turnKey: t.turnKey, openedAt: t.openedAt }),
    ...t.events.map((e) =>
      canonicalize({ traceId: t.traceId, type: e.type, occurrenceKey: e.occurrenceKey }),
    ),
  ];
  const { ns, ratio } = interleaved([
    () => JSON.parse(text),
    () => {
      for (const input of inputs) sha256Hex(input);
    },
  ]);
  console.log(
    `\nhashing floor at 128 events: ${inputs.length} SHA-256 of the derived-id inputs alone take ${fmt(ns[1]!, 0)} ns = ${fmt(ratio[1]!)}x JSON.parse (${fmt(ns[0]!, 0)} ns); the target ratio includes parsing, so the floor is ${fmt(1 + ratio[1]!)}x before any schema or rule check.`,
  );
}

// The plan's counterpart: the spec makes validation recompute planContentId (JCS + SHA-256 of the
// whole identityInputs), baselineDigest, planId and every ref's metadataDigest. Those digest rules
// alone, next to the time budget that beating zod twice over leaves.
{
  const text = JSON.stringify(planValid);
  const plan = JSON.parse(text);
  const rules = DIGEST_RULES.filter((r) => r.contract === 'ContextReadPlanV2');
  const zod = (ZOD_SCHEMAS as Record<string, { safeParse(v: unknown): unknown }>).ContextReadPlanV2!;
  const { ns, ratio } = interleaved([
    () => JSON.parse(text),
    () =>
      withCanonicalMemo(() => {
        for (const rule of rules) rule.compute(plan);
      }),
    () => zod.safeParse(JSON.parse(text)),
  ]);
  console.log(
    `digest floor of ContextReadPlanV2: its ${rules.length} digest rules alone take ${fmt(ns[1]!, 0)} ns = ${fmt(ratio[1]!)}x JSON.parse (${fmt(ns[0]!, 0)} ns); zod's schema-only check with its parse is ${fmt(ratio[2]!)}x.`,
  );
}

// Cold start of the built CLI, interleaved with bare node (`--no-cold` skips it).
if (process.argv.includes('--no-cold')) process.exit(0);
ensureBuilt();
const dir = mkdtempSync(join(tmpdir(), 'bench-validate-'));
const small = join(dir, 'small.json');
writeFileSync(
  small,
  JSON.stringify({ schemaVersion: 'TaskRecoveryCommitFenceV1', stateSequence: 3, writerGeneration: 1 }),
);
const node = () => {
  const t = performance.now();
  spawnSync(process.execPath, ['-e', '0']);
  return performance.now() - t;
};
const cli = () => {
  const t = performance.now();
  const r = spawnSync(process.execPath, [CLI_BIN, 'validate', small]);
  if (r.status !== 0) throw new Error(`validate small.json exited ${r.status}: ${r.stderr}`);
  return performance.now() - t;
};
const nodes: number[] = [];
const clis: number[] = [];
for (let i = 0; i < 25; i++) {
  nodes.push(node());
  clis.push(cli());
}
rmSync(dir, { recursive: true, force: true });
console.log(
  `\ncold start: agent-contracts validate small.json ${fmt(median(clis), 0)} ms wall (median of 25, interleaved; target <= 150 ms); bare \`node -e 0\` ${fmt(median(nodes), 0)} ms; difference ${fmt(median(clis.map((c, i) => c - nodes[i]!)), 0)} ms`,
);
