// @module-tag integration
// @module-tag slow
// The liveness.*, checkpoint.validate and trace.* methods of the reference implementation: the
// golden cases of conformance/cases/{liveness,checkpoint,trace} in process (through a real
// `agent-contracts conform` run: test/integration/reference-conform.test.ts), and the turn state
// and trace surviving a kill -9 of the process (restart-rehydrate: the same bytes are read back,
// and reading them writes nothing).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Implementation,
  loadCases,
  runSuite,
  startInProcess,
  startSubprocess,
} from '@agent-contracts/harness';
import { afterEach, describe, expect, it } from 'vitest';
import { REFERENCE } from '../../../tooling/test-helpers/reference.ts';
import { createHandler } from '../src/handler.ts';
import { TURN_STATE_FILE } from '../src/liveness.ts';
import { TRACE_FILE } from '../src/trace.ts';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const conformanceDir = join(repo, 'conformance/');
const OURS = /^(liveness|checkpoint|trace)\//;

describe('reference-node: liveness, checkpoints and the trace', () => {
  let open: Implementation | null = null;
  afterEach(async () => {
    await open?.close();
    open = null;
  });

  it('passes every liveness, checkpoint and trace case in process', async () => {
    const cases = loadCases(conformanceDir).filter((c) => OURS.test(c.id));
    expect(cases.length).toBeGreaterThan(200);
    for (const group of ['liveness/', 'checkpoint/', 'trace/'])
      expect(cases.some((c) => c.id.startsWith(group))).toBe(true);
    const impl = await startInProcess(createHandler(), mkdtempSync(join(tmpdir(), 'ref-liveness-')));
    expect(impl.hello.capabilities).toMatchObject({ liveness: true, checkpoint: true, trace: true });
    const results = await runSuite(impl, cases, { conformanceDir, timeoutMs: 10_000, restartBudget: 0 });
    expect(results.filter((r) => r.outcome !== 'pass').map((r) => `${r.id}: ${r.detail}`)).toEqual([]);
  });

  it('a case fails when the implementation answers differently (the cases can fail)', async () => {
    const cases = loadCases(conformanceDir).filter((c) =>
      [
        'liveness/TurnLivenessStateV1/classify/awaiting-120000',
        'trace/LocalTaskTraceV1/append/duplicate-delivery',
      ].includes(c.id),
    );
    expect(cases).toHaveLength(2);
    const real = createHandler();
    const skewed = {
      ...real,
      async handle(method: string, params: unknown) {
        if (method === 'clock.set') {
          const r = (await real.handle(method, params)) as { now: string };
          real.clock.advance(-1); // one millisecond off: the boundary and the trace times move
          return r;
        }
        return real.handle(method, params);
      },
    };
    const impl = await startInProcess(skewed, null);
    const results = await runSuite(impl, cases, { conformanceDir, timeoutMs: 10_000, restartBudget: 0 });
    expect(results.map((r) => r.outcome)).toEqual(['fail', 'fail']);
  });

  it('keeps the turn state and the trace across kill -9 and rehydrates them without writing', async () => {
    const state = mkdtempSync(join(tmpdir(), 'ref-rehydrate-'));
    const impl = await startSubprocess({
      command: REFERENCE,
      stateLocation: state,
      requestTimeoutMs: 20_000,
    });
    open = impl;
    const T0 = '2026-11-30T05:41:12.000Z';
    await impl.request('clock.set', { now: T0 });
    await impl.request('liveness.reset', {});
    await impl.request('liveness.event', { event: { type: 'UserPromptSubmit', turnKey: 'req_01' } });
    await impl.request('clock.advance', { ms: 1000 });
    await impl.request('liveness.event', {
      event: {
        type: 'PreToolUse',
        operationId: 'op1',
        toolName: 'Edit',
        hostDecision: 'allowed',
        mutating: true,
      },
    });
    await impl.request('clock.advance', { ms: 1000 });
    const after = (await impl.request('liveness.event', {
      event: { type: 'PostToolUse', operationId: 'op1' },
    })) as { state: { state: string } };
    expect(after.state.state).toBe('awaiting-continuation');
    await impl.request('trace.load', { trace: null });
    await impl.request('trace.open', { turnKey: 'req_01' });
    await impl.request('trace.append', {
      type: 'UserPromptSubmit',
      result: 'observed',
      occurrenceKey: 'host-seq-1',
      payload: {},
    });
    const turnBefore = await impl.request('liveness.state', {});
    const traceBefore = await impl.request('trace.current', {});
    const files = [join(state, TURN_STATE_FILE), join(state, TRACE_FILE)];
    const bytes = files.map((f) => readFileSync(f, 'utf8'));
    const mtimes = files.map((f) => statSync(f).mtimeMs);

    await impl.kill();
    await impl.restart();
    await impl.request('clock.set', { now: '2026-11-30T05:51:14.000Z' }); // T1 + 600000
    expect(await impl.request('liveness.state', {})).toEqual(turnBefore);
    expect(await impl.request('trace.current', {})).toEqual(traceBefore);
    const evidence = (await impl.request('liveness.evidence', {})) as {
      classification: string;
      reason: string;
    };
    expect(evidence).toMatchObject({ classification: 'stalled-recoverable', reason: 'continuation-timeout' });
    expect(((await impl.request('trace.replay', {})) as { ok: boolean }).ok).toBe(true);
    await impl.request('liveness.classify', {});
    expect(files.map((f) => readFileSync(f, 'utf8'))).toEqual(bytes);
    expect(files.map((f) => statSync(f).mtimeMs)).toEqual(mtimes);

    const next = (await impl.request('liveness.event', {
      event: { type: 'UserPromptSubmit', turnKey: 'req_02' },
    })) as { card: { priorState: string } | null; state: { previousTurn: { reason: string } } };
    expect(next.card?.priorState).toBe('stalled-recoverable');
    expect(next.state.previousTurn.reason).toBe('stale-turn-recovered-by-new-prompt');
    expect(readFileSync(files[0]!, 'utf8')).not.toEqual(bytes[0]);
  }, 30_000);

  it('a memory: state location keeps the turn state in memory, writing nothing where it runs', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'ac-ref-cwd-'));
    open = await startSubprocess({ command: REFERENCE, stateLocation: 'memory:', localDirectory: null, cwd });
    await open
      .request('liveness.event', { event: { type: 'UserPromptSubmit', turnKey: 'turn-1' } })
      .catch(() => {});
    await open.close();
    open = null;
    expect(readdirSync(cwd)).toEqual([]);
    rmSync(cwd, { recursive: true, force: true });
  });
});
