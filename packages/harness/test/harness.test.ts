// @module-tag unit
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { missingCapabilities } from '@agent-contracts/protocol';
import { describe, expect, it } from 'vitest';
import {
  type Case,
  CaseCorpusError,
  type CaseResult,
  checkHello,
  diffReports,
  FAULT_KIND_NAMES,
  globMatch,
  HarnessDefect,
  HarnessError,
  inShard,
  judgeReply,
  judgeRun,
  judgeStep,
  lintCases,
  loadCases,
  loadFaultScenarios,
  type ProtocolViolation,
  parseBaseline,
  parseReport,
  parseShard,
  RunLedger,
  resolveRefs,
  runCase,
  runSuite,
  updatedBaseline,
} from '../src/index.ts';
import { jsonl, runLine } from './report-lines.ts';

/** The `hello` of an implementation that declares only the digest capability. */
const DIGEST_ONLY_HELLO = {
  name: 'n',
  version: 'v',
  language: 'l',
  protocolVersion: 1,
  capabilities: {
    contracts: [],
    bundles: [],
    digest: true,
    store: false,
    liveness: false,
    checkpoint: false,
    trace: false,
    clock: false,
    crashPoints: [],
  },
};
/** `request` of a fake implementation: the runner reads every reply through `call`, never this. */
const unused = async (): Promise<never> => {
  throw new Error('the runner sent a request through request(), not call()');
};
const conformanceDir = fileURLToPath(new URL('../../../conformance/', import.meta.url));
const result = (id: string, outcome: CaseResult['outcome']): CaseResult => ({
  id,
  gate: 'G',
  subject: 'S',
  level: 'MUST',
  outcome,
  detail: outcome,
  durationMs: 1,
});

describe('golden cases', () => {
  it('the committed cases are well-formed, with unique ids, covering every fixture and vector', () => {
    const cases = loadCases(conformanceDir);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    const vectors = JSON.parse(readFileSync(`${conformanceDir}vectors/jcs.json`, 'utf8')) as {
      vectors: { id: string }[];
    };
    expect(vectors.vectors.length).toBeGreaterThan(40);
    expect(
      cases
        .filter((c) => c.id.startsWith('digest/jcs/'))
        .map((c) => c.id)
        .sort(),
    ).toEqual(vectors.vectors.map((v) => `digest/jcs/${v.id}`).sort());
    expect(cases.some((c) => c.id.startsWith('validate/TaskOperationRecordV1/invalid/'))).toBe(true);
  });

  it('every case of store, liveness, checkpoint and trace also needs clock, as docs/protocol.md#hello says', () => {
    const all = [...loadCases(conformanceDir), ...loadFaultScenarios(conformanceDir, FAULT_KIND_NAMES)];
    const timed = all.filter((c) =>
      c.requires.some((t) => ['store', 'liveness', 'checkpoint', 'trace'].includes(t)),
    );
    expect(timed.length).toBeGreaterThan(400);
    expect(timed.filter((c) => !c.requires.includes('clock')).map((c) => c.id)).toEqual([]);
    const crash = all.filter((c) => c.requires.some((t) => t.startsWith('crash:')));
    expect(crash.every((c) => c.requires.includes('store') && c.requires.includes('clock'))).toBe(true);
  });

  it('lint refuses duplicate ids, missing steps, bad capability tokens and bad expectations', () => {
    const good = {
      id: 'g/x/1',
      title: 't',
      gate: 'G',
      subject: 'S',
      spec: 'docs/spec/index.md#gates',
      requirements: ['GEN-006'],
      level: 'MUST',
      requires: ['digest'],
      steps: [{ method: 'digest', params: {}, expect: { result: 1 } }],
    };
    expect(lintCases('f', { cases: [good] }, new Set())).toEqual([]);
    expect(lintCases('f', { cases: [good, good] }, new Set()).join()).toMatch(/duplicate id/);
    expect(lintCases('f', { cases: [{ ...good, steps: [] }] }, new Set()).join()).toMatch(/observes nothing/);
    expect(lintCases('f', { cases: [{ ...good, requires: ['telepathy'] }] }, new Set()).join()).toMatch(
      /capability/,
    );
    expect(
      lintCases(
        'f',
        { cases: [{ ...good, steps: [{ method: 'm', expect: { valid: true, result: 1 } }] }] },
        new Set(),
      ).join(),
    ).toMatch(/exactly one/);
    const expecting = (expect: unknown) =>
      lintCases('f', { cases: [{ ...good, steps: [{ method: 'm', expect }] }] }, new Set()).join();
    expect(expecting({ error: 'A', data: { step: 'A7' } })).toBe('');
    expect(expecting({ data: { step: 'A7' } })).toMatch(/exactly one/);
    expect(expecting({ result: 1, data: {} })).toMatch(/exactly one/);
    expect(expecting({ error: { code: 'A' } })).toMatch(/"expect.error" is the spec code/);
    // Steps are numbered from 1, as in every other text.
    expect(expecting({ data: {} })).toMatch(/ step 1: "expect" needs exactly one/);
    expect(lintCases('f', { cases: [{ ...good, level: 'MAY' }] }, new Set()).join()).toMatch(/level/);
    for (const requirements of [undefined, [], ['tcw-1'], ['TCW-001', 'TCW-001'], 'TCW-001'])
      expect(lintCases('f', { cases: [{ ...good, requirements }] }, new Set()).join()).toMatch(
        /"requirements" must list the ids/,
      );
    expect(lintCases('f', {}, new Set())).toHaveLength(1);
  });

  it('a malformed case corpus is a CaseCorpusError naming the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cases-'));
    mkdirSync(join(dir, 'cases'));
    writeFileSync(join(dir, 'cases', 'broken.json'), '{ not json');
    expect(() => loadCases(dir)).toThrow(CaseCorpusError);
    expect(() => loadCases(dir)).toThrow(/broken\.json/);
  });
});

/** A reply that is a JSON-RPC refusal with this spec code. */
const refusalReply = (code: string) => ({
  error: { code: -32000, message: 'm', data: { code } },
  refusal: code,
});

describe('judging replies', () => {
  it('valid needs ok and no issues; issue needs the exact code at the exact path', () => {
    expect(judgeReply({ valid: true }, { result: { ok: true, issues: [] } })).toBeNull();
    expect(judgeReply({ valid: true }, { result: { ok: false, issues: [{ code: 'X', path: '' }] } })).toMatch(
      /expected valid/,
    );
    const issue = { issue: { code: 'SCHEMA_MINIMUM', path: '/a' } } as const;
    expect(
      judgeReply(issue, { result: { ok: false, issues: [{ code: 'SCHEMA_MINIMUM', path: '/a' }] } }),
    ).toBeNull();
    expect(
      judgeReply(issue, { result: { ok: false, issues: [{ code: 'SCHEMA_MINIMUM', path: '/b' }] } }),
    ).toMatch(/expected/);
    expect(judgeReply(issue, { result: { ok: true, issues: [] } })).toMatch(/accepted/);
  });

  it('a malformed result is a failure, never a pass', () => {
    expect(judgeReply({ valid: true }, { result: true })).toMatch(/validate result/);
    expect(judgeReply({ valid: true }, { result: { ok: true, issues: [{ code: 1 }] } })).toMatch(/string/);
  });

  it('error expectations match the spec code in data.code', () => {
    expect(judgeReply({ error: 'DIGEST_INPUT_INVALID' }, refusalReply('DIGEST_INPUT_INVALID'))).toBeNull();
    expect(judgeReply({ error: 'DIGEST_INPUT_INVALID' }, refusalReply('OTHER'))).toMatch(/expected refusal/);
    expect(judgeReply({ error: 'DIGEST_INPUT_INVALID' }, { result: {} })).toMatch(/got a result/);
    expect(judgeReply({ result: { a: 1 } }, refusalReply('X'))).toMatch(/expected a result/);
  });

  it('an error expectation with data needs the code and the data the spec requires the refusal to carry', () => {
    const refused = (data: Record<string, unknown>) => ({
      error: { code: -32000, message: 'refused', data: { code: 'TRACE_DUPLICATE_EVENT', ...data } },
      refusal: 'TRACE_DUPLICATE_EVENT',
    });
    const expect7 = { error: 'TRACE_DUPLICATE_EVENT', data: { step: 'A7', eventId: 'e1' } };
    expect(judgeStep(expect7, refused({ step: 'A7', eventId: 'e1', more: 1 }))).toBeNull();
    const wrong = judgeStep(expect7, refused({ step: 'A3', eventId: 'e1' }));
    expect(wrong?.detail).toMatch(
      /^refusal TRACE_DUPLICATE_EVENT as expected, but its data differs at 1 pointer/,
    );
    expect(wrong?.differences).toEqual([
      { pointer: '/error/data/step', expected: '"A7"', actual: '"A3"', kind: 'behaviour' },
    ]);
    const missing = judgeStep(expect7, refused({ step: 'A7' }));
    expect(missing?.differences).toEqual([
      { pointer: '/error/data/eventId', expected: '"e1"', kind: 'behaviour' },
    ]);
    expect(judgeStep(expect7, { result: {} })?.detail).toMatch(/got a result/);
  });

  it('capabilities decide applicability', () => {
    const caps = {
      contracts: ['A'],
      bundles: [],
      digest: true,
      store: false,
      liveness: false,
      checkpoint: false,
      trace: false,
      clock: false,
      crashPoints: [],
    };
    expect(missingCapabilities(['contract:A', 'digest'], caps)).toEqual([]);
    expect(missingCapabilities(['contract:B', 'store', 'crash:after-prepare'], caps)).toEqual([
      'contract:B',
      'store',
      'crash:after-prepare',
    ]);
  });
});

describe('shards, globs, baselines, diffs', () => {
  it('shards are stable and partition any id set', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, total: 3 });
    for (const bad of ['0/3', '4/3', '1/0', 'x', '1-3']) expect(parseShard(bad)).toBeNull();
    const ids = Array.from({ length: 500 }, (_, i) => `validate/C/valid/case-${i}`);
    const shards = [1, 2, 3, 4].map((index) => ids.filter((id) => inShard(id, { index, total: 4 })));
    expect(shards.flat().sort()).toEqual([...ids].sort());
    for (const s of shards) expect(s.length).toBeGreaterThan(80);
    expect(inShard('a/b', { index: 1, total: 1 })).toBe(true);
  });

  it('globs match ids with * across slashes, and escape regex characters', () => {
    expect(globMatch('validate/*/invalid/*', 'validate/X/invalid/y')).toBe(true);
    expect(globMatch('digest/jcs/jcs-rfc-3.2.2-*', 'digest/jcs/jcs-rfc-3.2.2-primitives')).toBe(true);
    expect(globMatch('digest/jcs/jcs-rfc-3.2.2-*', 'digest/jcs/jcs-rfc-3x2x2-primitives')).toBe(false);
  });

  it('a run conforms only with no unexpected failure, no stale entry and something applicable', () => {
    const base = parseBaseline(JSON.stringify({ expectedFailures: [{ id: 'a/*', reason: 'known' }] }));
    expect(judgeRun([result('a/1', 'fail'), result('b/1', 'pass')], base).conforms).toBe(true);
    expect(judgeRun([result('a/1', 'fail'), result('b/1', 'crash')], base).unexpectedFailures).toEqual([
      'b/1',
    ]);
    expect(judgeRun([result('a/1', 'pass'), result('b/1', 'pass')], base).stalePassing).toEqual(['a/*']);
    expect(judgeRun([result('b/1', 'not-applicable')], null).conforms).toBe(false);
    expect(judgeRun([result('b/1', 'timeout')], null).conforms).toBe(false);
  });

  it('baseline update keeps reasons and lists exactly the failures', () => {
    const prev = parseBaseline(
      JSON.stringify({ expectedFailures: [{ id: 'a/1', reason: 'tracked in #12' }] }),
    );
    const next = updatedBaseline(
      [result('a/1', 'fail'), result('a/2', 'error'), result('a/3', 'pass')],
      prev,
    );
    // Only a fail can be expected: the error is not listed (issue 20, finding 4).
    expect(next.expectedFailures).toEqual([{ id: 'a/1', reason: 'tracked in #12' }]);
    expect(() => parseBaseline('{"expectedFailures":[{"id":"*","reason":"r"}]}')).toThrow(
      /matches every case/,
    );
    expect(() => parseBaseline('{"expectedFailures":[],"expectedFailures":[]}')).toThrow(/two members/);
    expect(() => parseBaseline('[]')).toThrow(/expectedFailures/);
    expect(() => parseBaseline('{"expectedFailures":[{"id":"x"}]}')).toThrow(/reason/);
  });

  it('diff classifies by id', () => {
    const report = (cases: CaseResult[]) =>
      parseReport(jsonl([runLine(), ...cases.map((c) => ({ type: 'case', ...c }))]));
    const d = diffReports(
      report([result('x', 'pass'), result('y', 'fail'), result('z', 'fail'), result('gone', 'pass')]),
      report([result('x', 'fail'), result('y', 'pass'), result('z', 'crash'), result('new', 'pass')]),
    );
    expect(d).toEqual({
      fixed: ['y'],
      broken: ['x'],
      added: ['new'],
      removed: ['gone'],
      changed: ['z'],
      vanished: [],
      selectionChanged: false,
    });
    // A failing case that vanished from a run of the same selection is a regression; with another
    // filter it is only removed (issue 20, finding 5).
    const failing = report([result('x', 'pass'), result('y', 'fail')]);
    expect(diffReports(failing, report([result('x', 'pass')]))).toMatchObject({
      vanished: ['y'],
      selectionChanged: false,
    });
    const filtered = parseReport(
      jsonl([
        { ...runLine(), filter: ['x'] },
        { type: 'case', ...result('x', 'pass') },
      ]),
    );
    expect(diffReports(failing, filtered)).toMatchObject({ vanished: ['y'], selectionChanged: true });
    expect(() => parseReport(jsonl([runLine()]).repeat(2))).toThrow(/second run line/);
  });
});

describe('partial matches, captures and variables', () => {
  it('match: objects partially, arrays by length and element', async () => {
    const { partialMismatch } = await import('../src/cases.ts');
    expect(partialMismatch({ a: 1 }, { a: 1, b: 2 })).toBeNull();
    expect(partialMismatch({ a: { b: [1, { c: 2 }] } }, { a: { b: [1, { c: 2, d: 3 }] } })).toBeNull();
    expect(partialMismatch({ a: [1] }, { a: [1, 2] })).toBe('/a');
    expect(partialMismatch({ a: 1 }, { a: 2 })).toBe('/a');
    expect(partialMismatch({ z: null }, {})).toBe('/z');
  });

  it('runCase captures values and substitutes them into later steps', async () => {
    const { runCase } = await import('../src/runner.ts');
    const seen: unknown[] = [];
    const impl = {
      hello: DIGEST_ONLY_HELLO,
      stderrTail: '',
      pid: undefined,
      takeViolations: () => ({ count: 0, first: [] }),
      async call(method: string, params: unknown) {
        seen.push(params);
        return { result: method === 'first' ? { token: 'abc', n: 2 } : { echoed: params } };
      },
      request: unused,
      async restart() {},
      async kill() {},
      pause() {},
      resume() {},
      async close() {},
    };
    const base = {
      id: 'x/y/z',
      title: 't',
      gate: 'G',
      subject: 'S',
      spec: 'docs/spec/index.md#gates',
      requirements: ['GEN-006'],
      level: 'MUST' as const,
      requires: ['digest'],
    };
    const ok = await runCase(
      impl,
      {
        ...base,
        steps: [
          { method: 'first', expect: { match: { n: 2 } }, capture: { tok: '/token' } },
          { method: 'second', params: { t: { $var: 'tok' } }, expect: { match: { echoed: { t: 'abc' } } } },
        ],
      },
      { conformanceDir, timeoutMs: 1000 },
    );
    expect(ok.outcome, ok.detail).toBe('pass');
    expect(seen[1]).toEqual({ t: 'abc' });
    const unbound = await runCase(
      impl,
      { ...base, steps: [{ method: 'second', params: { $var: 'nope' }, expect: { match: {} } }] },
      { conformanceDir, timeoutMs: 1000 },
    );
    expect(unbound.outcome).toBe('error');
    const missing = await runCase(
      impl,
      { ...base, steps: [{ method: 'first', expect: { match: {} }, capture: { x: '/absent' } }] },
      { conformanceDir, timeoutMs: 1000 },
    );
    expect(missing.outcome).toBe('fail');
  });
});

describe('references stay inside the conformance data', () => {
  it('a $fixture that leaves through a symbolic link, or is not a regular file, is refused', () => {
    const root = mkdtempSync(join(tmpdir(), 'ac-refs-'));
    const outside = mkdtempSync(join(tmpdir(), 'ac-outside-'));
    writeFileSync(join(outside, 'secret.json'), '{"secret":true}');
    mkdirSync(join(root, 'fixtures', 'A'), { recursive: true });
    writeFileSync(join(root, 'fixtures', 'A', 'ok.json'), '{"ok":true}');
    symlinkSync(join(outside, 'secret.json'), join(root, 'fixtures', 'A', 'leak.json'));
    symlinkSync(outside, join(root, 'fixtures', 'dir-link'));
    mkdirSync(join(root, 'fixtures', 'A', 'sub.json'));
    expect(resolveRefs({ $fixture: 'A/ok.json' }, root)).toEqual({ ok: true });
    const refused = (rel: string) => {
      try {
        resolveRefs({ doc: { $fixture: rel } }, root);
      } catch (e) {
        expect(e).toBeInstanceOf(CaseCorpusError);
        return (e as Error).message;
      }
      throw new Error(`${rel} was read`);
    };
    expect(refused('A/leak.json')).toContain('symbolic link');
    expect(refused('dir-link/secret.json')).toContain('symbolic link');
    expect(refused('../fixtures/A/ok.json')).toContain('leaves the conformance directory');
    expect(refused('/etc/passwd')).toContain('leaves the conformance directory');
    expect(refused('A/sub.json')).toContain('not a regular file');
    expect(refused('A/missing.json')).toContain('ENOENT');
  });
});

/**
 * A scripted in-memory implementation. Protocol violations "arrive" at chosen calls of
 * takeViolations (numbered from 1), which is how the harness observes them.
 */
function scripted(result: unknown, arrivals: ReadonlyMap<number, ProtocolViolation['code']> = new Map()) {
  let takes = 0;
  return {
    hello: DIGEST_ONLY_HELLO,
    stderrTail: '',
    pid: undefined,
    takeViolations() {
      const code = arrivals.get(++takes);
      return code ? { count: 1, first: [{ code, message: `injected ${code}` }] } : { count: 0, first: [] };
    },
    async call() {
      return { result };
    },
    request: unused,
    async restart() {},
    async kill() {},
    pause() {},
    resume() {},
    async close() {},
  };
}

const digestCase = (id: string, requires = ['digest']) => ({
  id,
  title: 't',
  gate: 'G',
  subject: 'S',
  spec: 'docs/spec/index.md#gates',
  requirements: ['GEN-006'],
  level: 'MUST' as const,
  requires,
  steps: [{ method: 'digest', expect: { match: { ok: 1 } } }],
});

describe('protocol violations fail a case, whenever they happen', () => {
  const opts = { conformanceDir, timeoutMs: 1000, restartBudget: 0 };
  const five = ['a/x/1', 'a/x/2', 'a/x/3', 'a/x/4', 'a/x/5'].map((id) => digestCase(id));

  it('one seen as a case ends makes its pass an error; one seen before the next case is charged to the case before', async () => {
    // Takes: each case that sends requests starts (odd) and ends (even) with one: case 2 ends with
    // take 4; a violation seen as case 4 starts (take 7) arrived after case 3 ended.
    const impl = scripted(
      { ok: 1 },
      new Map([
        [4, 'IMPL_UNKNOWN_ID'],
        [7, 'IMPL_GARBAGE_OUTPUT'],
      ]),
    );
    const seen: string[] = [];
    const results = await runSuite(impl, five, {
      ...opts,
      onResult: (r) => seen.push(`${r.id}:${r.outcome}`),
    });
    expect(results.map((r) => r.outcome)).toEqual(['pass', 'error', 'error', 'pass', 'pass']);
    expect(results[1]!.detail).toContain('IMPL_UNKNOWN_ID');
    expect(results[2]!.detail).toContain('IMPL_GARBAGE_OUTPUT');
    // Results are reported once settled, each exactly once, in order.
    expect(seen).toEqual(results.map((r) => `${r.id}:${r.outcome}`));
  });

  it('one seen after the session closed fails the last case that sent a request', async () => {
    // Takes: case 1 (1, 2), case 2 (3, 4), case 3 is not applicable, the session closed (5).
    const impl = scripted({ ok: 1 }, new Map([[5, 'IMPL_GARBAGE_OUTPUT']]));
    const cases = [digestCase('a/x/1'), digestCase('a/x/2'), digestCase('a/x/3', ['store'])];
    const results = await runSuite(impl, cases, opts);
    expect(results.map((r) => r.outcome)).toEqual(['pass', 'error', 'not-applicable']);
  });

  it('one seen before the first case is charged to the run; so is one in a session where no case applies (issue 20, finding 1)', async () => {
    // Take 1 happens as the first applicable case starts: nothing ran yet to charge it to.
    const impl = scripted({ ok: 1 }, new Map([[1, 'IMPL_GARBAGE_OUTPUT']]));
    const run = new RunLedger();
    const results = await runSuite(impl, five.slice(0, 2), { ...opts, run, sessionName: 'job 1' });
    expect(results.map((r) => r.outcome)).toEqual(['pass', 'pass']);
    expect(run.violations.count).toBe(1);
    expect(run.violations.first[0]!.message).toMatch(/^job 1: /);
    // No case applies: the only take is at the end of the session.
    const idle = scripted({ ok: 1 }, new Map([[1, 'IMPL_UNKNOWN_ID']]));
    const quiet = new RunLedger();
    await runSuite(idle, [digestCase('a/x/9', ['store'])], { ...opts, run: quiet });
    expect(quiet.violations.count).toBe(1);
    expect(quiet.violations.first[0]!.code).toBe('IMPL_UNKNOWN_ID');
    // Without a ledger, the session's first applicable case takes them.
    const early = scripted({ ok: 1 }, new Map([[1, 'IMPL_GARBAGE_OUTPUT']]));
    const alone = await runSuite(early, five.slice(0, 2), opts);
    expect(alone.map((r) => r.outcome)).toEqual(['error', 'pass']);
  });

  it('a hello lacking a member names it and what hello must carry, as IMPL_HELLO_INVALID (issue 24, finding 4)', () => {
    const refused = (value: unknown) => {
      try {
        checkHello(value);
      } catch (e) {
        expect(e).toBeInstanceOf(HarnessError);
        return e as HarnessError;
      }
      throw new Error('checkHello accepted it');
    };
    const { crashPoints: _c, ...caps } = DIGEST_ONLY_HELLO.capabilities;
    const e = refused({ ...DIGEST_ONLY_HELLO, capabilities: caps });
    expect(e.code).toBe('IMPL_HELLO_INVALID');
    expect(e.message).toMatch(
      /^hello returned an invalid result: "capabilities\.crashPoints" is missing: it must be an array of strings \(\[\] for none\); hello's result must carry "name", "version" and "language" \(non-empty strings\), "protocolVersion": 1 and "capabilities" with "contracts", .*"crashPoints" \(see docs\/protocol\.md#hello\)$/,
    );
    const { language: _l, ...noLanguage } = DIGEST_ONLY_HELLO;
    expect(refused(noLanguage).message).toMatch(/^hello returned an invalid result: "language" is missing; /);
    const { capabilities: _x, ...noCapabilities } = DIGEST_ONLY_HELLO;
    expect(refused(noCapabilities).message).toMatch(
      /^hello returned an invalid result: "capabilities" is missing; /,
    );
    expect(refused({ ...DIGEST_ONLY_HELLO, protocolVersion: 2 }).code).toBe('IMPL_HELLO_INVALID');
    expect(checkHello(DIGEST_ONLY_HELLO)).toBe(DIGEST_ONLY_HELLO);
  });

  it("a hello that differs from the run's first is a violation, and the run keeps the first (issue 20, findings 2 and 3)", () => {
    const run = new RunLedger();
    expect(run.pin(DIGEST_ONLY_HELLO).violation).toBeNull();
    expect(run.pin(structuredClone(DIGEST_ONLY_HELLO)).violation).toBeNull();
    const less = { ...DIGEST_ONLY_HELLO, capabilities: { ...DIGEST_ONLY_HELLO.capabilities, digest: false } };
    const pinned = run.pin(less);
    expect(pinned.hello).toBe(DIGEST_ONLY_HELLO);
    expect(pinned.violation?.code).toBe('IMPL_HELLO_CHANGED');
    expect(pinned.violation?.message).toContain('capabilities.digest: true -> false');
    expect(run.pin({ ...DIGEST_ONLY_HELLO, version: 'w' }).violation?.message).toContain(
      'version: "v" -> "w"',
    );
  });

  it('a fail with a violation is an error, which no baseline expects', async () => {
    const impl = scripted({ ok: 2 }, new Map([[2, 'IMPL_UNKNOWN_ID']]));
    const [r] = await runSuite(impl, five.slice(0, 1), opts);
    expect(r!.outcome).toBe('error');
    expect(r!.detail).toContain('(then: fail:');
  });

  it('runCase never throws: a reply the judge cannot handle ends the case as an outcome other than pass', async () => {
    const hostile = {
      get ok(): number {
        throw new RangeError('Maximum call stack size exceeded');
      },
    };
    const r = await runCase(scripted(hostile), digestCase('a/x/1'), { conformanceDir, timeoutMs: 1000 });
    expect(r.outcome).toBe('error');
    expect(r.detail).toContain('the harness could not judge the case: Maximum call stack size exceeded');
  });
});

describe('a failed step: every difference by pointer, and the later steps still run', () => {
  /** An implementation answering from a table of method -> reply (a function may throw). */
  const tabled = (replies: Record<string, (params: unknown) => unknown>) => ({
    hello: DIGEST_ONLY_HELLO,
    stderrTail: 'stderr of the implementation',
    pid: undefined,
    sent: [] as string[],
    takeViolations: () => ({ count: 0, first: [] }),
    async call(this: { sent: string[] }, method: string, params: unknown) {
      this.sent.push(method);
      return { result: replies[method]!(params) };
    },
    request: unused,
    async restart() {},
    async kill() {},
    pause() {},
    resume() {},
    async close() {},
  });
  const base = {
    id: 'x/y/z',
    title: 'the title of the case',
    gate: 'G',
    subject: 'S',
    spec: 'docs/spec/index.md#gates',
    requirements: ['GEN-006'],
    level: 'MUST' as const,
    requires: ['digest'],
  };
  const opts = { conformanceDir, timeoutMs: 1000 };

  it('reports the differing pointers with both values, after a long prefix, never cut before them', async () => {
    const padding = 'p'.repeat(2000);
    const impl = tabled({ first: () => ({ padding, status: 'closed', blocking: true, extra: 1 }) });
    const r = await runCase(
      impl,
      {
        ...base,
        steps: [{ method: 'first', expect: { result: { padding, status: 'open', blocking: false } } }],
      },
      opts,
    );
    expect(r.outcome).toBe('fail');
    expect(r.title).toBe('the title of the case');
    expect(r.spec).toBe('docs/spec/index.md#gates');
    expect(r.failedStep).toBe(0);
    expect(r.differences).toEqual([
      { pointer: '/result/status', expected: '"open"', actual: '"closed"', kind: 'behaviour' },
      { pointer: '/result/blocking', expected: 'false', actual: 'true', kind: 'behaviour' },
      { pointer: '/result/extra', actual: '1', kind: 'behaviour' },
    ]);
    expect(r.differenceCounts).toEqual({ shape: 0, behaviour: 3 });
    expect(r.reply?.expected).toMatch(/^the result \{"padding":"pp/);
    expect(r.reply?.received).toMatch(/^\{"result":\{"padding":"pp.*…/);
    expect(r.detail).toBe(
      'step 1 (first): the result differs at 3 pointers: /result/status: expected "open", got "closed"; /result/blocking: expected false, got true; /result/extra: expected (nothing), got 1',
    );
  });

  it('runs the later steps, reports each, and skips one that needs what the failed step did not yield', async () => {
    const impl = tabled({
      first: () => ({ status: 'other' }),
      second: () => ({ n: 3 }),
      third: () => ({ n: 1 }),
      fourth: () => ({}),
    });
    const r = await runCase(
      impl,
      {
        ...base,
        steps: [
          { method: 'first', expect: { match: { status: 'open' } }, capture: { tok: '/token' } },
          { method: 'second', expect: { match: { n: 2 } } },
          { method: 'third', expect: { match: { n: 1 } } },
          { method: 'fourth', params: { t: { $var: 'tok' } }, expect: { match: {} } },
        ],
      },
      opts,
    );
    expect(r.outcome).toBe('fail');
    expect(r.detail).toMatch(/^step 1 \(first\): the result differs at 1 pointer: \/result\/status/);
    expect(r.differences).toEqual([
      { pointer: '/result/status', expected: '"open"', actual: '"other"', kind: 'behaviour' },
    ]);
    expect(impl.sent).toEqual(['first', 'second', 'third']);
    expect(r.afterFailure).toEqual([
      {
        index: 1,
        method: 'second',
        outcome: 'fail',
        detail: 'the result differs at 1 pointer: /result/n: expected 2, got 3',
        differences: [{ pointer: '/result/n', expected: '2', actual: '3', kind: 'behaviour' }],
        differenceCounts: { shape: 0, behaviour: 1 },
        reply: { expected: 'a result containing {"n":2}', received: '{"result":{"n":3}}' },
      },
      { index: 2, method: 'third', outcome: 'pass', detail: 'as expected' },
      {
        index: 3,
        method: 'fourth',
        outcome: 'skipped',
        detail: 'not sent: its request needs "tok", which step 1 failed to yield',
      },
    ]);
  });

  it("a reply that breaks its schema is still captured; a request it would break is not sent, and not the kit's defect", async () => {
    const sent: string[] = [];
    const violation = {
      method: 'first',
      schema: 'StoreReadResult',
      pointer: '/result/lease/schemaVersion',
      keyword: 'type',
      message: 'must be string',
      actual: 2,
    } as const;
    const impl = {
      ...tabled({}),
      async call(method: string, params: unknown) {
        sent.push(method);
        if (method === 'first')
          return {
            invalid: violation,
            violations: [violation],
            raw: { result: { lease: { schemaVersion: 2 }, token: 't' } },
          };
        if (method === 'second') return { result: { token: (params as { t: unknown }).t } };
        throw new HarnessDefect("the harness's own third request breaks its schema", method);
      },
    };
    const r = await runCase(
      impl as never,
      {
        ...base,
        steps: [
          { method: 'first', expect: { match: { token: 't' } }, capture: { tok: '/token', lease: '/lease' } },
          { method: 'second', params: { t: { $var: 'tok' } }, expect: { match: { token: 't' } } },
          { method: 'third', params: { l: { $var: 'lease' } }, expect: { match: {} } },
        ],
      },
      opts,
    );
    expect(r.outcome).toBe('fail');
    expect(r.detail).toBe(
      'step 1 (first): the reply breaks its schema: StoreReadResult at /result/lease/schemaVersion: type (must be string)',
    );
    expect(r.differenceCounts).toEqual({ shape: 1, behaviour: 0 });
    expect(sent).toEqual(['first', 'second', 'third']);
    expect(r.afterFailure?.map((s) => [s.index, s.outcome, s.detail])).toEqual([
      [1, 'pass', 'as expected'],
      [
        2,
        'skipped',
        'not sent: its request carries "lease", captured from the reply of step 1, which broke its schema, and so the request would break its own',
      ],
    ]);
  });

  it('after a step not sent, or sent with a value from where a reply broke its schema, the later replies are judged on shape alone', async () => {
    const violation = {
      method: 'first',
      schema: 'StoreReadResult',
      pointer: '/result/lease/schemaVersion',
      keyword: 'type',
      message: 'must be string',
      actual: 2,
    } as const;
    const broken = (raw: unknown) => ({ invalid: violation, violations: [violation], raw: { result: raw } });
    const run = (steps: Case['steps'], replies: Record<string, (params: unknown) => unknown>) => {
      const sent: string[] = [];
      const impl = {
        ...tabled({}),
        async call(method: string, params: unknown) {
          sent.push(method);
          const reply = replies[method];
          if (!reply) throw new HarnessDefect("the harness's own request breaks its schema", method);
          return reply(params);
        },
      };
      return runCase(impl as never, { ...base, steps }, opts).then((r) => ({ r, sent }));
    };
    const first = {
      method: 'first',
      expect: { match: {} },
      capture: { tok: '/token', lease: '/lease' },
    } as const;
    const later = (r: CaseResult) =>
      r.afterFailure?.map((s) => [s.index, s.outcome, s.detail, s.differences]);
    // A commit not sent: what the next read returns is not the case's state.
    const notSent = await run(
      [
        first,
        { method: 'refuse', params: { l: { $var: 'lease' } }, expect: { error: 'X' } },
        { method: 'read', params: { t: { $var: 'tok' } }, expect: { match: { n: 1 } } },
        { method: 'commit', params: { l: { $var: 'lease' } }, expect: { match: {} } },
        { method: 'read', expect: { match: { n: 2 } } },
        { method: 'first', expect: { match: { n: 2 } } },
      ],
      {
        first: () => broken({ lease: { schemaVersion: 2 }, token: 't', n: 1 }),
        read: () => ({ result: { n: 1 } }),
      },
    );
    expect(notSent.sent).toEqual(['first', 'refuse', 'read', 'commit', 'read', 'first']);
    const unsaid =
      "behaviour not compared: step 4 was not sent, so the state the case expects is not the implementation's";
    expect(later(notSent.r)).toEqual([
      // A step to be refused changes nothing: the steps after it are still compared.
      [1, 'skipped', expect.stringMatching(/^not sent: its request carries "lease"/), undefined],
      [2, 'pass', 'as expected', undefined],
      [3, 'skipped', expect.stringMatching(/^not sent: its request carries "lease"/), undefined],
      [4, 'not-compared', `${unsaid}; its reply meets its schema`, undefined],
      [
        5,
        'fail',
        `${unsaid}; the reply breaks its schema: StoreReadResult at /result/lease/schemaVersion: type (must be string)`,
        // Its shape difference is the headline's: counted, not listed again.
        undefined,
      ],
    ]);
    // A value captured where the reply broke its schema, sent: the reply to it is not compared.
    const carried = await run(
      [
        first,
        { method: 'read', params: { t: { $var: 'tok' } }, expect: { match: { n: 2 } } },
        { method: 'write', params: { l: { $var: 'lease' } }, expect: { match: { n: 2 } } },
        { method: 'read', expect: { match: { n: 2 } } },
      ],
      {
        first: () => broken({ lease: { schemaVersion: 2 }, token: 't' }),
        read: () => ({ result: { n: 2 } }),
        write: () => ({ result: { n: 3 } }),
      },
    );
    expect(later(carried.r)).toEqual([
      [1, 'pass', 'as expected', undefined],
      [
        2,
        'not-compared',
        'behaviour not compared: step 3 carries "lease", captured from the reply of step 1 where it breaks its schema, so the state the case expects is not the implementation\'s; its reply meets its schema',
        undefined,
      ],
      [
        3,
        'not-compared',
        expect.stringContaining('behaviour not compared: step 3 carries "lease"'),
        undefined,
      ],
    ]);
  });

  it('the later steps list at most 40 differences between them and count the rest', async () => {
    const impl = tabled({ step: () => ({ a: 0, b: 0, c: 0, d: 0, e: 0 }) });
    const wrong = { a: 1, b: 1, c: 1, d: 1, e: 1 };
    const steps = Array.from({ length: 31 }, () => ({ method: 'step', expect: { result: wrong } }));
    const r = await runCase(impl, { ...base, steps }, opts);
    expect(r.differences).toHaveLength(5);
    const later = r.afterFailure!;
    expect(later).toHaveLength(30);
    expect(later.flatMap((s) => s.differences ?? [])).toHaveLength(40);
    expect(later.reduce((n, s) => n + (s.moreDifferences ?? 0), 0)).toBe(30 * 5 - 40);
    expect(later[8]).toMatchObject({ moreDifferences: 5 });
    expect(later[8]!.differences).toBeUndefined();
  });

  it('a crash after a failure ends the case, keeps the headline and asks for a restart', async () => {
    const { needsRestart } = await import('../src/runner.ts');
    const impl = tabled({
      first: () => ({ a: 1 }),
      second: () => {
        throw new HarnessError('IMPL_EXITED', 'the implementation exited (code 1)');
      },
      third: () => ({}),
    });
    const r = await runCase(
      impl,
      {
        ...base,
        steps: [
          { method: 'first', expect: { result: { a: 2 } } },
          { method: 'second', expect: { result: {} } },
          { method: 'third', expect: { result: {} } },
        ],
      },
      opts,
    );
    expect(r.outcome).toBe('fail');
    expect(r.detail).toMatch(/^step 1 \(first\)/);
    expect(impl.sent).toEqual(['first', 'second']);
    expect(r.afterFailure).toEqual([
      {
        index: 1,
        method: 'second',
        outcome: 'crash',
        detail: 'IMPL_EXITED: the implementation exited (code 1)',
      },
    ]);
    expect(r.stderrTail).toBe('stderr of the implementation');
    expect(needsRestart(r)).toBe(true);
    expect(needsRestart({ ...r, afterFailure: [] })).toBe(false);
  });

  it('refusals and validate results are judged by pointer too, every difference of the behaviour layer', () => {
    const refused = judgeStep({ error: 'A' }, refusalReply('B'));
    expect(refused?.differences).toEqual([
      { pointer: '/error/data/code', expected: '"A"', actual: '"B"', kind: 'behaviour' },
    ]);
    const accepted = judgeStep({ error: 'A' }, { result: { ok: 1 } });
    expect(accepted?.differences).toEqual([
      { pointer: '/error', expected: '{"code":-32000,"data":{"code":"A"}}', kind: 'behaviour' },
      { pointer: '/result', actual: '{"ok":1}', kind: 'behaviour' },
    ]);
    const issue = judgeStep(
      { issue: { code: 'X', path: '/a' } },
      { result: { ok: false, issues: [{ code: 'X', path: '/b' }] } },
    );
    expect(issue?.differences).toEqual([
      {
        pointer: '/result/issues',
        expected: '[{"code":"X","path":"/a"}]',
        actual: '[{"code":"X","path":"/b"}]',
        kind: 'behaviour',
      },
    ]);
    const invalid = judgeStep({ valid: true }, { result: { ok: false, issues: [{ code: 'X', path: '' }] } });
    expect(invalid?.differences).toEqual([
      { pointer: '/result/ok', expected: 'true', actual: 'false', kind: 'behaviour' },
      { pointer: '/result/issues/0', actual: '{"code":"X","path":""}', kind: 'behaviour' },
    ]);
  });

  it('a reply other than the refusal expected is shown as received, with what was expected', () => {
    const missing = judgeStep(
      { error: 'DIGEST_INPUT_INVALID' },
      { error: { code: -32601, message: 'Method not found' }, refusal: null },
    );
    expect(missing?.detail).toBe(
      'expected refusal DIGEST_INPUT_INVALID (a JSON-RPC error -32000 with data.code "DIGEST_INPUT_INVALID"), got error -32601 "Method not found"',
    );
    expect(missing?.differences).toEqual([
      { pointer: '/error/code', expected: '-32000', actual: '-32601', kind: 'behaviour' },
      { pointer: '/error/data', expected: '{"code":"DIGEST_INPUT_INVALID"}', kind: 'behaviour' },
    ]);
    expect(missing?.reply).toEqual({
      expected: 'a refusal: a JSON-RPC error -32000 with data.code "DIGEST_INPUT_INVALID"',
      received: '{"error":{"code":-32601,"message":"Method not found"}}',
    });
    const asResult = judgeStep({ error: 'X' }, { result: { ok: false, code: 'X' } });
    expect(asResult?.detail).toBe(
      'expected refusal X (a JSON-RPC error -32000 with data.code "X"), got a result {"ok":false,"code":"X"} (a refusal is sent as a JSON-RPC error, never as a result)',
    );
    const gotError = judgeStep(
      { result: { a: 1 } },
      { error: { code: -32000, message: 'no', data: { code: 'Y', more: 1 } }, refusal: 'Y' },
    );
    expect(gotError?.detail).toBe('expected a result, got error -32000 "no" with data {"code":"Y","more":1}');
    expect(gotError?.reply.received).toBe(
      '{"error":{"code":-32000,"message":"no","data":{"code":"Y","more":1}}}',
    );
  });

  it('baseline update writes the case title as the reason', () => {
    const failing = { ...result('a/b/c', 'fail'), title: 'the title', detail: 'x'.repeat(1000) };
    expect(updatedBaseline([failing], null).expectedFailures).toEqual([{ id: 'a/b/c', reason: 'the title' }]);
    expect(updatedBaseline([result('a/b/d', 'fail')], null).expectedFailures[0]!.reason).toBe('fail: fail');
  });
});
