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
