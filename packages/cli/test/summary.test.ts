// @module-tag unit
// The console summary groups failures by root cause: each cause once, with its count and its
// cases; under each case only its own differences and later steps (issue 21: the grouped entry
// printed the first case's later steps for all of them).
import type { CaseLine, RunLine, SummaryLine } from '@agent-contracts/harness';
import { describe, expect, it } from 'vitest';
import { painter } from '../src/color.ts';
import { renderSummary } from '../src/commands/conform/summary.ts';
import { kase, run, summary } from './report-lines.ts';

const shape = (i: number) => ({
  pointer: `/result/envelopes/${i}/taskOperationSetDigest`,
  keyword: 'required',
  schema: 'StoreReplayResult',
  message: "must have required property 'taskOperationSetDigest'",
  kind: 'shape' as const,
});

/** A case failing on the shared shape cause, with a later step of its own. */
const failing = (id: string, laterStatus: string) =>
  kase(id, 'fail', {
    detail:
      'step 2 (store.replay): the reply breaks its schema: StoreReplayResult at /result/envelopes/0/taskOperationSetDigest: required (x)',
    failedStep: 1,
    differences: [shape(0)],
    differenceCounts: { shape: 1, behaviour: 0 },
    reply: { expected: 'the result {"ok":true}', received: '{"result":{"ok":true}}' },
    afterFailure: [
      {
        index: 2,
        method: 'store.read',
        outcome: 'fail',
        detail: 'the result differs',
        differences: [
          { pointer: '/result/status', expected: '"open"', actual: `"${laterStatus}"`, kind: 'behaviour' },
        ],
      },
    ],
  }) as unknown as CaseLine;

const render = (cases: CaseLine[]) =>
  renderSummary(
    run as unknown as RunLine,
    cases,
    summary({
      conforms: false,
      counts: { pass: 0, fail: cases.length, error: 0, timeout: 0, crash: 0, 'not-applicable': 0 },
    }) as unknown as SummaryLine,
    painter(false),
    null,
    new Map(),
  );

describe('root causes in the console summary', () => {
  const cases = [
    failing('s/a', 'closed'),
    failing('s/b', 'done'),
    failing('s/c', 'closed'),
    failing('s/d', 'gone'),
  ];
  const out = render(cases);

  it('names each shared cause once, with its count and its cases, behaviour before shape', () => {
    const lines = out.split('\n');
    const top = lines.indexOf('Top causes (each once, with the cases it fails; a case can have several):');
    expect(top).toBeGreaterThan(-1);
    expect(lines[top + 1]).toBe('   1. 2 cases  behaviour: /result/status: expected "open", got "closed"');
    expect(lines[top + 2]).toBe('      s/a, s/c');
    expect(lines[top + 3]).toBe(
      "   2. 4 cases  shape: /result/envelopes/*/taskOperationSetDigest breaks StoreReplayResult (required: must have required property 'taskOperationSetDigest')",
    );
    expect(lines[top + 4]).toBe('      s/a, s/b, s/c, ... (and 1 more)');
    // A cause of one case only is no root cause of several: it is said under its case.
    expect(out).not.toMatch(/\d+ cases {2}behaviour: \/result\/status: expected "open", got "done"/);
  });

  it('shows under each case only its own later steps, numbered from 1', () => {
    const entry = (id: string) => {
      const at = out.indexOf(`fail     ${id}\n`);
      expect(at, id).toBeGreaterThan(-1);
      return out.slice(
        at,
        out.indexOf('\n  fail', at + 1) === -1 ? undefined : out.indexOf('\n  fail', at + 1),
      );
    };
    expect(entry('s/b')).toContain('then step 3 (store.read), after the failure: fail');
    expect(entry('s/b')).toContain('behaviour: /result/status: "open" -> "done"');
    expect(entry('s/b')).not.toContain('"closed"');
    expect(entry('s/d')).toContain('"gone"');
    expect(entry('s/a')).toContain('shape: 1 difference of cause 2 (see "Top causes")');
    expect(entry('s/a')).toContain('[cause 1, 2 cases]');
    expect(entry('s/a')).toContain('expected: the result {"ok":true}');
    expect(entry('s/a')).toContain('received: {"result":{"ok":true}}');
  });

  it('items that read the same but for their ids are one entry naming them', () => {
    const same = render([failing('s/a', 'closed'), failing('s/b', 'closed'), failing('s/c', 'closed')]);
    expect(same).toContain('fail     3 items alike, s/a, s/b, s/c');
    expect(same.match(/then step 3/g)).toHaveLength(1);
  });

  it('an older shape failing many cases never pushes a behaviour bug out of the list', () => {
    // 25 shape causes of 3 cases each, and one behaviour bug of 2 cases: before, the 20 most
    // frequent were listed, all of shape, and the cases named a cause number never printed.
    const shapeCase = (k: number, i: number) =>
      kase(`shape/${k}/${i}`, 'fail', {
        detail: `step 1 (store.read): the reply breaks its schema (m${k})`,
        failedStep: 0,
        differences: [
          {
            pointer: `/result/m${k}`,
            keyword: 'required',
            schema: 'StoreReadResult',
            kind: 'shape' as const,
          },
        ],
      }) as unknown as CaseLine;
    const bug = (id: string) =>
      kase(id, 'fail', {
        detail: 'step 1 (store.read): the result differs',
        failedStep: 0,
        differences: [
          { pointer: '/result/status', expected: '"open"', actual: '"closed"', kind: 'behaviour' },
        ],
      }) as unknown as CaseLine;
    const many: CaseLine[] = [];
    for (let k = 0; k < 25; k++) for (let i = 0; i < 3; i++) many.push(shapeCase(k, i));
    many.push(bug('bug/1'), bug('bug/2'));
    const text = render(many);
    const lines = text.split('\n');
    const top = lines.indexOf('Top causes (each once, with the cases it fails; a case can have several):');
    expect(lines[top + 1]).toBe('   1. 2 cases  behaviour: /result/status: expected "open", got "closed"');
    expect(lines[top + 3]).toBe('   2. 3 cases  shape: /result/m0 breaks StoreReadResult (required)');
    expect(lines[top + 41]).toBe('  21. 3 cases  shape: /result/m19 breaks StoreReadResult (required)');
    expect(lines[top + 43]).toBe(
      '  ... and 5 more causes shared by several cases (shown under their cases, and in the HTML report)',
    );
    // Every cause number a case names is one the list printed.
    for (const m of text.matchAll(/cause (\d+)/g)) expect(Number(m[1])).toBeLessThanOrEqual(21);
    // A cause past the list is shown whole under its cases.
    expect(text).toContain('shape: /result/m24: breaks StoreReadResult (required) -> (nothing)');
  });
});

describe('the verdict line says what it covers', () => {
  const caps = {
    contracts: [],
    bundles: [],
    digest: true,
    store: false,
    liveness: false,
    checkpoint: true,
    trace: false,
    clock: false,
    crashPoints: [],
  };
  const declared = { ...run, implementation: { ...run.implementation, capabilities: caps } };
  const lines = [
    kase('d/1', 'pass'),
    kase('d/2', 'pass'),
    kase('s/1', 'not-applicable'),
  ] as unknown as CaseLine[];
  const verdictOf = (
    over: Record<string, unknown>,
    unreachable: string | null = null,
    r: object = declared,
  ) =>
    renderSummary(
      r as unknown as RunLine,
      lines,
      summary({
        counts: { pass: 2, fail: 0, error: 0, timeout: 0, crash: 0, 'not-applicable': 1 },
        ...over,
      }) as unknown as SummaryLine,
      painter(false),
      unreachable,
      new Map(),
    )
      .trimEnd()
      .split('\n')
      .at(-1);

  it('conforming: the declared capabilities and how many cases applied, of all', () => {
    expect(verdictOf({})).toBe('CONFORMS: digest, checkpoint; 2 of 3 cases applicable');
    expect(verdictOf({ warnings: ['d/1'] })).toBe(
      'CONFORMS (with 1 warning): digest, checkpoint; 2 of 3 cases applicable',
    );
  });

  it('not conforming, and no verdict in a shard, are scoped alike', () => {
    expect(verdictOf({ conforms: false })).toBe(
      'DOES NOT CONFORM: digest, checkpoint; 2 of 3 cases applicable',
    );
    expect(
      verdictOf(
        {
          conforms: false,
          counts: { pass: 0, fail: 0, error: 0, timeout: 0, crash: 0, 'not-applicable': 3 },
        },
        null,
        { ...declared, shard: '2/3' },
      ),
    ).toBe('NO VERDICT (nothing applicable in this shard): digest, checkpoint; 2 of 3 cases applicable');
  });

  it('an implementation that never answered hello declared nothing', () => {
    expect(verdictOf({ conforms: false }, 'IMPL_EXITED: hello: exited', run)).toBe(
      'DOES NOT CONFORM: no capability declared (it never answered hello); 2 of 3 cases applicable',
    );
  });
});

describe('a start that failed', () => {
  const render = (unreachable: string) =>
    renderSummary(
      run as unknown as RunLine,
      [
        kase('d/1', 'error', { detail: 'the implementation could not be started: ' }),
      ] as unknown as CaseLine[],
      summary({
        conforms: false,
        counts: { pass: 0, fail: 0, error: 1, timeout: 0, crash: 0, 'not-applicable': 0 },
      }) as unknown as SummaryLine,
      painter(false),
      unreachable,
      new Map(),
    );

  it('is said under its heading, with the reason', () => {
    expect(render('IMPL_EXITED: hello: exited with code 1\nCannot find module')).toContain(
      'The implementation could not be started or did not answer hello:\n  IMPL_EXITED: hello: exited with code 1\n  Cannot find module\n',
    );
  });

  it('never prints the heading with nothing under it, even when no reason was given', () => {
    for (const silent of ['', ' \n\n ']) {
      const out = render(silent);
      const at = out.indexOf('could not be started or did not answer hello:\n');
      expect(at, JSON.stringify(silent)).toBeGreaterThan(-1);
      const next = out.slice(at).split('\n')[1]!;
      expect(next.trim()).not.toBe('');
      expect(next).toContain('no reason was given');
    }
  });
});

describe('what did not apply', () => {
  const caps = {
    contracts: ['TaskContractV1'],
    bundles: [],
    digest: true,
    store: false,
    liveness: false,
    checkpoint: false,
    trace: false,
    clock: false,
    crashPoints: [],
  };
  const declared = { ...run, implementation: { ...run.implementation, capabilities: caps } };
  const na = (id: string, over: Record<string, unknown> = {}) =>
    kase(id, 'not-applicable', { gate: 'RunControlGate', subject: 'RunStateV1', ...over });
  const cases = [
    kase('d/1', 'pass', { gate: 'Digests', subject: 'jcs' }),
    na('r/1'),
    na('r/2'),
    na('v/1', { gate: 'TaskContractGate', subject: 'ToolContractV1' }),
    na('v/2', { gate: 'TaskContractGate', subject: 'EvaluationReportV1' }),
    na('faults/store/x', { subject: 'fault-matrix' }),
    na('faults/field/pg', { subject: 'fault-matrix', detail: 'it needs a PostgreSQL state location' }),
  ] as unknown as CaseLine[];
  const requires = new Map<string, readonly string[]>([
    ['d/1', ['digest']],
    ['r/1', ['run']],
    ['r/2', ['run', 'clock']],
    ['v/1', ['contract:ToolContractV1']],
    ['v/2', ['contract:EvaluationReportV1', 'contract:TaskContractV1']],
    ['faults/store/x', ['store', 'clock']],
    ['faults/field/pg', ['digest']],
  ]);
  const out = renderSummary(
    declared as unknown as RunLine,
    cases,
    summary({
      counts: { pass: 1, fail: 0, error: 0, timeout: 0, crash: 0, 'not-applicable': 6 },
    }) as unknown as SummaryLine,
    painter(false),
    null,
    requires,
  );

  it('is one line per capability not declared, with its cases and fault scenarios, not a row per gate', () => {
    const at = out.indexOf('\nNot applicable: 6 items');
    expect(at, out).toBeGreaterThan(-1);
    expect(out.slice(at).split('\n').slice(1, 8)).toEqual([
      'Not applicable: 6 items (one that needs several undeclared capabilities is counted under each):',
      '  n/a: capability "contracts" does not list EvaluationReportV1, ToolContractV1: 2 cases',
      '  n/a: capability "store" not declared: 1 fault scenario',
      '  n/a: capability "clock" not declared: 1 case, 1 fault scenario',
      '  n/a: capability "run" not declared: 2 cases',
      '  n/a: 1 fault scenario: it needs a PostgreSQL state location',
      '',
    ]);
    // Gates and contracts where nothing applied have no row.
    expect(out).toContain('Digests');
    expect(out).not.toContain('RunControlGate');
    expect(out).not.toContain('TaskContractGate');
    expect(out).not.toMatch(/ n\/a$/m);
  });
});
