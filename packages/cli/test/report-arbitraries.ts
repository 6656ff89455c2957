// Hostile report content for the report tests: crafted payloads (script, remote resources,
// markup, terminal escapes, characters XML forbids) and fast-check arbitraries of valid reports
// made of them, and of broken reports.
import type { CaseLine, Outcome, RunLine, SummaryLine } from '@agent-contracts/harness';
import fc from 'fast-check';

/** Each tries to run script, load something remote, break the markup or draw on a terminal. */
export const PAYLOADS: readonly string[] = [
  `<img src=x onerror="document.title='pwned'">`,
  `"><script>window.pwned=1</script>`,
  `'><svg onload="window.pwned=2;fetch('http://127.0.0.1:9/leak')">`,
  '</code></th></tr></tbody></table><script>document.title="pwned"</script>',
  '<link rel="stylesheet" href="http://127.0.0.1:9/x.css">',
  '<meta http-equiv="refresh" content="0;url=http://127.0.0.1:9/">',
  '<base href="http://127.0.0.1:9/">',
  '<iframe src="javascript:top.pwned=3"></iframe>',
  '<style>body{background:url(http://127.0.0.1:9/bg.png)}</style>',
  '<!-- ]]> --><![CDATA[ x ]]>',
  '&bogus; &#0; &#x1b; &amp',
  '\u001b[2K\u001b[1A\u001b[32m1110 pass CONFORMS\u001b[0m\r\u0000\u0007\u0008\u000b\u000c\u007f\u0085',
  '\u202eevil\u202c\u2066x\u2069\u200b\ufeff',
  '\ud800 \udfff \ufffe \uffff',
  'a | b\n| --- | --- |\n| c | d',
  '**bold** _em_ [link](javascript:alert(1)) ![img](http://127.0.0.1:9/p.png) <http://127.0.0.1:9/> ~~s~~ $x$',
  '`code` ``` ~~~ \\ \\| # heading',
];

const OUTCOMES: readonly Outcome[] = ['pass', 'fail', 'error', 'timeout', 'crash', 'not-applicable'];

/** Any UTF-16 string: lone surrogates and every control included. */
const anyUnits = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) });

/** A payload, random text, or both glued together. */
export const hostile: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...PAYLOADS),
  anyUnits,
  fc.string({ unit: 'grapheme' }),
  fc.tuple(fc.constantFrom(...PAYLOADS), anyUnits).map(([a, b]) => a + b),
);

const duration = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e12 });

export const runLineArb: fc.Arbitrary<RunLine> = fc.record({
  type: fc.constant('run' as const),
  reportVersion: fc.constant(1),
  kit: fc.record({ name: hostile, version: hostile }),
  protocolVersion: fc.integer(),
  implementation: fc.record({
    name: hostile,
    version: hostile,
    language: hostile,
    command: hostile,
    capabilities: fc.constant(null),
  }),
  startedAt: hostile,
  filter: fc.array(hostile, { maxLength: 2 }),
  shard: fc.option(hostile),
  baseline: fc.option(hostile),
});

const differenceArb = fc.record(
  { pointer: hostile, expected: hostile, actual: hostile },
  { requiredKeys: ['pointer'] },
);

const stepArb = fc.record(
  {
    index: fc.nat(),
    method: hostile,
    outcome: fc.constantFrom('pass', 'fail', 'error', 'timeout', 'crash', 'skipped' as const),
    detail: hostile,
    differences: fc.array(differenceArb, { maxLength: 2 }),
    moreDifferences: fc.nat(),
  },
  { requiredKeys: ['index', 'method', 'outcome', 'detail'] },
);

export const caseLineArb: fc.Arbitrary<CaseLine> = fc.record(
  {
    type: fc.constant('case' as const),
    id: hostile,
    gate: fc.oneof(hostile, fc.constantFrom('TaskContinuityWriteGate', 'Digests')),
    subject: hostile,
    level: hostile,
    outcome: fc.constantFrom(...OUTCOMES),
    detail: hostile,
    durationMs: duration,
    stderrTail: hostile,
    expectedFailure: hostile,
    title: hostile,
    spec: hostile,
    failedStep: fc.nat(),
    differences: fc.array(differenceArb, { maxLength: 3 }),
    moreDifferences: fc.nat(),
    afterFailure: fc.array(stepArb, { maxLength: 2 }),
  },
  { requiredKeys: ['type', 'id', 'gate', 'subject', 'level', 'outcome', 'detail', 'durationMs'] },
);

const countsArb = fc.record({
  pass: fc.nat(),
  fail: fc.nat(),
  error: fc.nat(),
  timeout: fc.nat(),
  crash: fc.nat(),
  'not-applicable': fc.nat(),
});

export const summaryLineArb: fc.Arbitrary<SummaryLine> = fc.record({
  type: fc.constant('summary' as const),
  finishedAt: hostile,
  durationMs: duration,
  counts: countsArb,
  conforms: fc.boolean(),
  unexpectedFailures: fc.array(hostile, { maxLength: 3 }),
  stalePassing: fc.array(hostile, { maxLength: 2 }),
});

/** The lines of a valid report (distinct case ids; the summary may lie or be missing). */
export const reportLinesArb: fc.Arbitrary<unknown[]> = fc
  .tuple(
    runLineArb,
    fc.uniqueArray(caseLineArb, { selector: (c) => c.id, maxLength: 8 }),
    fc.option(summaryLineArb, { nil: undefined }),
  )
  .map(([run, cases, summary]) => [run, ...cases, ...(summary ? [summary] : [])]);

export const toJsonl = (lines: readonly unknown[]) => `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;

/** One random change to one line: a field replaced by any JSON value, dropped or added. */
const mutateLine = (line: unknown, key: string, value: unknown, op: number): unknown => {
  if (line === null || typeof line !== 'object' || Array.isArray(line)) return value;
  const copy: Record<string, unknown> = { ...(line as Record<string, unknown>) };
  const keys = Object.keys(copy);
  const target = keys.length ? keys[Math.abs(key.length) % keys.length]! : key;
  if (op === 0) copy[target] = value;
  else if (op === 1) delete copy[target];
  else copy[key] = value;
  return copy;
};

/** Report text that is probably broken: mutated, reordered, duplicated or garbage lines. */
export const brokenReportArb: fc.Arbitrary<string> = fc
  .tuple(
    reportLinesArb,
    fc.array(
      fc.tuple(fc.nat(), fc.string(), fc.jsonValue({ maxDepth: 3 }), fc.integer({ min: 0, max: 5 }), hostile),
      { minLength: 1, maxLength: 3 },
    ),
  )
  .map(([lines, edits]) => {
    const out: string[] = lines.map((l) => JSON.stringify(l));
    for (const [at, key, value, op, junk] of edits) {
      const i = out.length ? at % out.length : 0;
      if (op <= 2) out[i] = JSON.stringify(mutateLine(lines[i], key, value, op));
      else if (op === 3) out.splice(i, 0, out[i] ?? junk);
      else if (op === 4) out.splice(i, 0, junk);
      else out.reverse();
    }
    return `${out.join('\n')}\n`;
  });
