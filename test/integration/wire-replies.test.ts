// @module-tag integration
// @module-tag slow
// Every reply is checked against its method's schema before any case logic looks at it
// (docs/protocol.md#every-message-is-checked): the reference implementation behind a proxy that
// breaks one field of the replies to one method (test/fakes/schema-breaking-proxy.mjs), for a
// method of every capability. The members the cases compare still match; the step fails anyway,
// charged to the implementation, with the JSON Pointer and the keyword of the violation.
import { join } from 'node:path';
import {
  type CaseResult,
  FAULT_KIND_NAMES,
  type LoadedCase,
  loadCases,
  loadFaultScenarios,
  runFaultScenario,
  runSuite,
  startSubprocess,
} from '@agent-contracts/harness';
import { CAPABILITIES } from '@agent-contracts/protocol';
import { describe, expect, it } from 'vitest';
import { CONFORMANCE, FAKE, REFERENCE, REPO, target } from './helpers/faults.ts';

const PROXY = join(REPO, 'packages/harness/test/fakes/schema-breaking-proxy.mjs');
const proxied = (method: string, pointer: string, kind: string, inner = REFERENCE, after = '') =>
  `node ${PROXY} ${method} '${pointer}' ${kind} ${after} -- ${inner}`;

const cases = loadCases(CONFORMANCE);
/** The first case with a step of `method` that expects a result (or, with `refused`, a refusal). */
const caseWith = (method: string, refused = false): LoadedCase => {
  const c = cases.find((c) => c.steps.some((s) => s.method === method && 'error' in s.expect === refused));
  if (!c) throw new Error(`no golden case sends ${method}`);
  return c;
};

/** Run one golden case against the reference behind the proxy. */
async function runThrough(command: string, c: LoadedCase): Promise<CaseResult> {
  const impl = await startSubprocess({ command, stateLocation: null, cwd: REPO, requestTimeoutMs: 20_000 });
  const [r] = await runSuite(impl, [c], { conformanceDir: CONFORMANCE, timeoutMs: 20_000, restartBudget: 0 });
  return r!;
}

/** capability, method, pointer into the result, kind, and the violation the harness must name. */
const BROKEN: ReadonlyArray<
  readonly [string, string, string, 'wrong-type' | 'extra', string, string, string]
> = [
  ['digest', 'digest', '/sha256', 'wrong-type', '/result/sha256', 'type', 'DigestResult'],
  ['contracts', 'validate', '', 'extra', '/result/unexpected', 'additionalProperties', 'ValidateResult'],
  ['bundles', 'validateBundle', '/ok', 'wrong-type', '/result/ok', 'type', 'ValidateResult'],
  [
    'store',
    'store.commitState',
    '/fence/stateSequence',
    'wrong-type',
    '/result/fence/stateSequence',
    'type',
    'StoreCommitResult',
  ],
  [
    'store',
    'store.commitState',
    '',
    'extra',
    '/result/unexpected',
    'additionalProperties',
    'StoreCommitResult',
  ],
  ['clock', 'clock.set', '/now', 'wrong-type', '/result/now', 'type', 'ClockResult'],
  [
    'liveness',
    'liveness.classify',
    '',
    'extra',
    '/result/unexpected',
    'additionalProperties',
    'LivenessClassifyResult',
  ],
  [
    'checkpoint',
    'checkpoint.validate',
    '',
    'extra',
    '/result/unexpected',
    'additionalProperties',
    'CheckpointValidateResult',
  ],
  [
    'trace',
    'trace.open',
    '/trace',
    'extra',
    '/result/trace/unexpected',
    'additionalProperties',
    'TraceOpenResult',
  ],
  ['run', 'run.step', '/applied', 'wrong-type', '/result/applied', 'type', 'RunStepResult'],
  ['run', 'run.step', '/state', 'extra', '/result/state/unexpected', 'additionalProperties', 'RunStepResult'],
  [
    'policy',
    'policy.decide',
    '',
    'extra',
    '/result/unexpected',
    'additionalProperties',
    'PolicyDecideResult',
  ],
  [
    'delegation',
    'delegate',
    '/budget/maxSteps',
    'wrong-type',
    '/result/budget/maxSteps',
    'type',
    'DelegateResult',
  ],
  ['context', 'context.observe', '/changed', 'wrong-type', '/result/changed', 'type', 'ContextObserveResult'],
];

describe('a reply that breaks its schema fails the step, with the pointer and the keyword', () => {
  it('covers a method of every capability (crashPoints through the fault matrix, below)', () => {
    const covered = new Set([...BROKEN.map((b) => b[0]), 'crashPoints']);
    expect(CAPABILITIES.map((c) => c.key).filter((k) => !covered.has(k))).toEqual([]);
  });

  it('the proxy changes nothing for a method it is not told to break (the control)', async () => {
    const r = await runThrough(proxied('no.such.method', '', 'extra'), caseWith('store.commitState'));
    expect(r.outcome, r.detail).toBe('pass');
  });

  it.each(BROKEN)(
    '%s: %s, %s (%s)',
    async (_cap, method, pointer, kind, at, keyword, schema) => {
      const c = caseWith(method);
      const r = await runThrough(proxied(method, pointer, kind), c);
      expect(r.outcome, r.detail).toBe('fail');
      expect(r.detail).toContain(`the reply breaks its schema: ${schema} at ${at}: ${keyword} (`);
      expect(r.failedStep).toBe(c.steps.findIndex((s) => s.method === method && !('error' in s.expect)));
      expect(r.differences?.[0]).toMatchObject({ pointer: at, keyword, schema });
    },
    60_000,
  );

  it('a refusal sent as a result ({ ok: false, code }) fails a case that expects the refusal', async () => {
    const c = caseWith('store.commitState', true);
    const r = await runThrough(proxied('store.commitState', '', 'refusal-as-result'), c);
    expect(r.outcome, r.detail).toBe('fail');
    // The first violation ajv meets: a refusal's data has `currentFence`, a result needs `fence`.
    expect(r.differences?.[0]).toEqual({
      pointer: '/result/fence',
      keyword: 'required',
      schema: 'StoreCommitResult',
      message: "must have required property 'fence'",
      kind: 'shape',
    });
    // Every violation of the shape is listed, and the behaviour says a refusal was expected.
    expect(r.differences?.filter((d) => d.kind === 'shape').length).toBe(r.differenceCounts?.shape);
    expect(r.differenceCounts?.shape).toBeGreaterThan(1);
    const code = (
      c.steps.find((s) => s.method === 'store.commitState' && 'error' in s.expect)!.expect as {
        error: string;
      }
    ).error;
    expect(r.differences?.filter((d) => d.kind === 'behaviour')).toEqual([
      { pointer: '/error', expected: `{"code":-32000,"data":{"code":"${code}"}}`, kind: 'behaviour' },
      expect.objectContaining({ pointer: '/result', kind: 'behaviour' }),
    ]);
    // The refusal that was expected leads; the schema breaks of the result follow (issue 24).
    expect(r.detail).toMatch(
      new RegExp(
        `^step \\d+ \\(store\\.commitState\\): expected refusal ${code} \\(a JSON-RPC error -32000 with data\\.code "${code}"\\), got a result`,
      ),
    );
    expect(r.detail).toContain('; and the reply also breaks its schema at ');
    expect(r.detail).toContain('(a refusal is sent as a JSON-RPC error, never as a result)');
  }, 60_000);

  // docs/protocol.md PROTO-720: a refusal's `data` carries only the members its schema lists (the
  // refusal schemas are closed, like the results); the right code with one member more fails.
  it.each([
    ['digest', 'CodeOnlyErrorData'],
    ['checkpoint.validate', 'CheckpointRefusalData'],
    ['trace.append', 'TraceRefusalData'],
    ['store.commitState', 'StoreRefusalData'],
    ['run.step', 'RunRefusalData'],
  ] as const)(
    'a %s refusal whose data has a member its schema (%s) does not list fails the step',
    async (method, schema) => {
      const c = caseWith(method, true);
      const r = await runThrough(proxied(method, '', 'refusal-extra'), c);
      expect(r.outcome, r.detail).toBe('fail');
      expect(r.failedStep).toBe(c.steps.findIndex((s) => s.method === method && 'error' in s.expect));
      expect(r.detail).toContain(
        `the reply breaks its schema: ${schema} at /error/data/unexpected: additionalProperties (`,
      );
      expect(r.differences?.[0]).toMatchObject({
        pointer: '/error/data/unexpected',
        keyword: 'additionalProperties',
        schema,
      });
    },
    60_000,
  );
});

describe('the fault client reads replies with the same reader', () => {
  const scenario = (id: string) => {
    const s = loadFaultScenarios(CONFORMANCE, FAULT_KIND_NAMES).find((x) => x.id === id);
    if (!s) throw new Error(`no scenario ${id}`);
    return s;
  };
  const hello = async (command: string) => {
    const impl = await startSubprocess({ command, stateLocation: null, cwd: REPO });
    await impl.close();
    return impl.hello;
  };

  it('crashPoints: a crash.arm result with a wrong-typed field fails the scenario', async () => {
    const command = proxied('crash.arm', '/skip', 'wrong-type');
    const s = scenario('faults/store/crash-points');
    const r = await runFaultScenario(s, await hello(command), target(command));
    expect(r.outcome, r.detail).toBe('fail');
    expect(r.detail).toContain(
      'crash.arm: the reply breaks its schema: CrashArmResult at /result/skip: type (',
    );
  }, 120_000);

  it('a broken reply to an armed commit is an answer, never taken for dying at the crash point', async () => {
    // A store that ignores its crash points answers the armed commit; here that answer also breaks
    // its schema. It is a wrong answer (the scenario fails on it), not a crash of the process.
    const command = proxied(
      'store.commitState',
      '/fence/stateSequence',
      'wrong-type',
      FAKE('crash-points-ignored'),
      'after=crash.arm',
    );
    const s = scenario('faults/store/crash-points');
    const r = await runFaultScenario(s, await hello(command), target(command));
    expect(r.outcome, r.detail).toBe('fail');
    expect(r.detail).toContain(
      'store.commitState: the reply breaks its schema: StoreCommitResult at /result/fence/stateSequence: type (',
    );
  }, 120_000);

  it('a store refusal sent as a result fails the scenario, never counts as the refusal', async () => {
    const command = proxied('store.commitState', '', 'refusal-as-result');
    const s = scenario('faults/store/stale-fence');
    const r = await runFaultScenario(s, await hello(command), target(command));
    expect(r.outcome, r.detail).toBe('fail');
    expect(r.detail).toContain(
      'store.commitState: the reply breaks its schema: StoreCommitResult at /result/fence: required (',
    );
  }, 120_000);
});
