// pnpm bench json-read: the kit's I-JSON reader (parseJsonText of @agent-contracts/digest, which
// refuses a repeated member name) against JSON.parse of the same bytes, on the lines the kit reads:
// a small reply, a report case line, a 128-event trace. Its fast path is JSON.parse plus one scan
// counting member names; the slow path (Momoa parses the text again to name the duplicate, taken
// only when an object repeats a name) is timed beside it on the same text with one name repeated.
import { parseJsonText } from '@agent-contracts/digest';
import { fmt, interleaved } from './_stats.ts';

const reply = JSON.stringify({
  jsonrpc: '2.0',
  id: 17,
  result: { ok: true, canonical: '{"a":1,"b":[1,2,3]}', sha256: 'a'.repeat(64) },
});
const caseLine = JSON.stringify({
  type: 'case',
  id: 'store/fence/stale-writer-refused',
  title: 'a writer with a stale fence is refused',
  outcome: 'fail',
  level: 'MUST',
  requirements: ['STORE-110', 'STORE-111'],
  durationMs: 12,
  detail: 'step 3: expected a refusal: a JSON-RPC error -32000 with data.code "STALE_FENCE"',
  differences: Array.from({ length: 20 }, (_, i) => ({
    pointer: `/result/items/${i}/fence`,
    expected: i,
    received: i + 1,
    layer: 'behaviour',
  })),
});
const trace = JSON.stringify({
  schemaVersion: 'LocalTaskTraceV1',
  turnKey: '019378e4-5d2a-7c31-9b6e-0f4a8d2c1e57',
  events: Array.from({ length: 128 }, (_, i) => ({
    seq: i,
    type: i % 2 ? 'PostToolUse' : 'PreToolUse',
    result: 'observed',
    occurrenceKey: `tool-call-${i >> 1}-${i % 2 ? 'post' : 'pre'}`,
    at: '2026-11-30T06:00:00.000Z',
    detail: { tool: 'shell', args: { command: 'ls', cwd: '.' } },
  })),
});

process.stdout.write(
  'json-read benchmark (ns per text, medians; ratios to JSON.parse taken within each round of interleaved batches)\n\n',
);
process.stdout.write(
  '| text | bytes | JSON.parse ns | parseJsonText / JSON.parse | refusing a repeated name / JSON.parse |\n',
);
process.stdout.write('|---|---|---|---|---|\n');
for (const [name, text] of [
  ['reply', reply],
  ['report case line', caseLine],
  ['trace, 128 events', trace],
] as const) {
  // The same text with its first object's first member written twice.
  const withDuplicate = text.replace(/^\{("[^"]*":[^,]*,)/, '{$1$1');
  if (withDuplicate === text) throw new Error(`no duplicate made in ${name}`);
  const { ns, ratio } = interleaved([
    () => JSON.parse(text),
    () => parseJsonText(text),
    () => {
      try {
        parseJsonText(withDuplicate);
      } catch {
        // the refusal is the point
      }
    },
  ]);
  process.stdout.write(
    `| ${name} | ${text.length} | ${fmt(ns[0]!, 0)} | ${fmt(ratio[1]!)}x | ${fmt(ratio[2]!)}x |\n`,
  );
}
