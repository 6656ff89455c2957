// @module-tag unit
// The TaskStore over a storage that lies and with the options a host may pass: what the protocol
// cannot make happen. A read-back after the append that differs from the envelope written in one
// member at a time, a task that vanishes between the decision and the fresh read, a stored history
// whose chain breaks in one place at a time, and each option of TaskStoreOptions with its default.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '@agent-contracts/engines';
import type { TaskRecoveryStateV5 } from '@agent-contracts/schemas';
import { afterAll, describe, expect, it } from 'vitest';
import type { StorageBackend, TaskKey } from '../src/backend.js';
import { createMemoryBackend } from '../src/backends/memory.js';
import { TaskStore, type TaskStoreOptions } from '../src/task-store.js';
import { evidenceRoot, fence, refused, S1, succeeded, TaskDriver } from './contract/driver.js';
import { seal } from './helpers/envelopes.js';

const START = Date.parse('2026-11-30T06:00:00.000Z');
const evidence = evidenceRoot();
const empty = mkdtempSync(join(tmpdir(), 'agent-contracts-empty-root-'));
afterAll(() => {
  rmSync(evidence.root, { recursive: true, force: true });
  rmSync(empty, { recursive: true, force: true });
});

/** A memory backend whose calls `lie` may answer instead (return `undefined` to pass through). */
function lying(lie: {
  load?: (
    key: TaskKey,
    real: TaskRecoveryStateV5 | null,
    n: number,
  ) => TaskRecoveryStateV5 | null | undefined;
  loadAt?: (real: TaskRecoveryStateV5 | null) => TaskRecoveryStateV5 | null | undefined;
  history?: (real: TaskRecoveryStateV5[]) => TaskRecoveryStateV5[];
}): StorageBackend & { loads: number; closed: boolean } {
  const backend = createMemoryBackend();
  const wrapped = {
    kind: backend.kind,
    loads: 0,
    closed: false,
    load: async (key: TaskKey) => {
      const real = await backend.load(key);
      const told = lie.load?.(key, real, ++wrapped.loads);
      return told === undefined ? real : told;
    },
    loadAt: async (key: TaskKey, sequence: number) => {
      const real = await backend.loadAt(key, sequence);
      const told = lie.loadAt?.(real);
      return told === undefined ? real : told;
    },
    compareAndAppend: backend.compareAndAppend.bind(backend),
    history: async (key: TaskKey) => {
      const real = await backend.history(key);
      return lie.history ? lie.history(real) : real;
    },
    close: async () => {
      wrapped.closed = true;
      await backend.close();
    },
  };
  return wrapped;
}

const storeOn = (backend: StorageBackend, options: TaskStoreOptions = {}) =>
  new TaskStore(backend, { clock: new ManualClock(START), projectRoot: evidence.root, ...options });

describe('TaskStore: a read-back that is not the envelope written', () => {
  const tampered: [string, (e: TaskRecoveryStateV5) => TaskRecoveryStateV5 | null][] = [
    ['nothing', () => null],
    ['another sequence', (e) => ({ ...e, sequence: e.sequence + 1 })],
    ['another writer generation', (e) => ({ ...e, writerGeneration: e.writerGeneration + 1 })],
    ['another envelope digest', (e) => ({ ...e, envelopeDigest: 'e'.repeat(64) })],
  ];
  for (const [what, tamper] of tampered) {
    it(`a read-back with ${what} is LIFECYCLE_STATE_READBACK_MISMATCH with the latest fence`, async () => {
      let lie = false;
      const backend = lying({ loadAt: (real) => (lie && real ? tamper(real) : undefined) });
      const task = new TaskDriver(storeOn(backend));
      succeeded(await task.transition('acquire', S1));
      lie = true;
      const r = refused(await task.state(S1, { x: 1 }), 'LIFECYCLE_STATE_READBACK_MISMATCH');
      expect(r.currentFence).toEqual(fence(2, 1));
    });
  }

  it('a read-back mismatch whose fresh read fails too has no current fence', async () => {
    let lie = false;
    let from = Number.POSITIVE_INFINITY;
    const backend = lying({
      loadAt: () => (lie ? null : undefined),
      load: (_key, _real, n) => {
        if (n >= from) throw new Error('storage is gone');
        return undefined;
      },
    });
    const task = new TaskDriver(storeOn(backend));
    succeeded(await task.transition('acquire', S1));
    const view = await task.view();
    lie = true;
    // The decision's read (the next load) works; the fresh read after the mismatch throws.
    from = backend.loads + 2;
    const r = refused(await task.state(S1, { x: 1 }, { view }), 'LIFECYCLE_STATE_READBACK_MISMATCH');
    expect(r).not.toHaveProperty('currentFence');
  });

  it('a read-back whose lease is not the lease committed is TASK_WRITE_CONTEXT_READBACK_MISMATCH with its fence', async () => {
    let lie = false;
    const backend = lying({
      loadAt: (real) =>
        lie && real ? { ...real, owner: { ...real.owner, leaseDigest: 'd'.repeat(64) } } : undefined,
    });
    const task = new TaskDriver(storeOn(backend));
    succeeded(await task.transition('acquire', S1));
    lie = true;
    const r = refused(await task.transition('renew', S1), 'TASK_WRITE_CONTEXT_READBACK_MISMATCH');
    expect(r.currentFence).toEqual(fence(2, 1));
  });

  it('a task that vanishes before the fresh read of a no-op is LIFECYCLE_STATE_READBACK_MISMATCH', async () => {
    let from = Number.POSITIVE_INFINITY;
    const backend = lying({ load: (_key, _real, n) => (n >= from ? null : undefined) });
    const task = new TaskDriver(storeOn(backend));
    succeeded(await task.transition('acquire', S1));
    succeeded(await task.state(S1, { x: 1 }));
    const view = await task.view();
    // The decision's read (the next load) sees the task; the fresh read after it does not.
    from = backend.loads + 2;
    const r = refused(await task.state(S1, { x: 1 }, { view }), 'LIFECYCLE_STATE_READBACK_MISMATCH');
    expect(r).not.toHaveProperty('currentFence');
    from = Number.POSITIVE_INFINITY;
    const noop = succeeded(await task.state(S1, { x: 1 }, { view }), 'semantic-noop');
    expect(noop.fence).toEqual(fence(2, 1));
    expect(noop.writeContext.stateSequence).toBe(2);
    expect(noop.receipt).toBeNull();
  });
});

describe('TaskStore: replay of a stored history broken in one place', () => {
  /** A task of three envelopes, and its history. */
  async function three() {
    const backend = createMemoryBackend();
    const task = new TaskDriver(storeOn(backend));
    succeeded(await task.transition('acquire', S1));
    succeeded(await task.state(S1, { n: 1 }));
    succeeded(await task.state(S1, { n: 2 }));
    return { key: task.key, history: await backend.history(task.key) };
  }
  const replayOf = async (history: TaskRecoveryStateV5[], key: TaskKey) =>
    storeOn(lying({ history: () => history })).replay(key);

  it('replays an unbroken history with its fence and write context', async () => {
    const { key, history } = await three();
    const r = await replayOf(history, key);
    expect(r.ok && r.envelopes.map((e) => e.sequence)).toEqual([1, 2, 3]);
    expect(r.ok && r.fence).toEqual(fence(3, 1));
    expect(r.ok && r.writeContext?.stateSequence).toBe(3);
    const none = await replayOf([], key);
    expect(none).toEqual({ ok: true, envelopes: [], fence: fence(0, 0), writeContext: null });
  });

  const broken: [string, (h: TaskRecoveryStateV5[]) => TaskRecoveryStateV5[], number][] = [
    ['without its first envelope', (h) => h.slice(1), 2],
    ['with an envelope twice', (h) => [h[0]!, h[1]!, h[1]!, h[2]!], 2],
    [
      'with an envelope linked to its predecessor at a sequence one too far (every digest recomputed)',
      (h) => [h[0]!, seal('TaskRecoveryStateV5', { ...structuredClone(h[1]!), sequence: 3 }), h[2]!],
      3,
    ],
    [
      'with an envelope at the next sequence linked to another envelope (every digest recomputed)',
      (h) => [
        h[0]!,
        h[1]!,
        seal('TaskRecoveryStateV5', {
          ...structuredClone(h[2]!),
          previousEnvelopeDigest: h[0]!.envelopeDigest,
        }),
      ],
      3,
    ],
    [
      'ending with an envelope linked to its predecessor at a sequence one too far (every digest recomputed)',
      (h) => [h[0]!, seal('TaskRecoveryStateV5', { ...structuredClone(h[1]!), sequence: 3 })],
      3,
    ],
    ['with its last envelope tampered', (h) => [h[0]!, h[1]!, { ...h[2]!, state: { n: 99 } }], 3],
  ];
  for (const [what, breakIt, at] of broken) {
    it(`refuses a history ${what}: LIFECYCLE_STATE_UNAVAILABLE with the fence of its last envelope`, async () => {
      const { key, history } = await three();
      const bad = breakIt(history);
      const r = await replayOf(bad, key);
      expect(r.ok ? 'ok' : r.code).toBe('LIFECYCLE_STATE_UNAVAILABLE');
      if (r.ok) return;
      expect(r.currentFence).toEqual(fence(bad.at(-1)!.sequence, bad.at(-1)!.writerGeneration));
      expect(r.message).toContain(`broken at sequence ${at}`);
    });
  }
});

describe('TaskStore: its options', () => {
  it('leaseDurationMs sets the diagnostic expiry of the lease it builds (default 5 minutes)', async () => {
    const durations = [[{ leaseDurationMs: 60_000 }, 60_000] as const, [{}, 300_000] as const];
    for (const [options, ms] of durations) {
      const task = new TaskDriver(storeOn(createMemoryBackend(), options));
      succeeded(await task.transition('acquire', S1));
      const { owner } = await task.envelope();
      expect(Date.parse(owner.expiresAt) - Date.parse(owner.issuedAt)).toBe(ms);
    }
  });

  it('maxEnvelopeBytes refuses a larger envelope with LIFECYCLE_STATE_PAYLOAD_EXCEEDED (no limit by default)', async () => {
    const task = new TaskDriver(storeOn(createMemoryBackend(), { maxEnvelopeBytes: 64 }));
    refused(await task.transition('acquire', S1), 'LIFECYCLE_STATE_PAYLOAD_EXCEEDED');
    const free = new TaskDriver(storeOn(createMemoryBackend()));
    succeeded(await free.transition('acquire', S1));
    succeeded(await free.state(S1, { text: 'x'.repeat(200_000) }));
  });

  /** A task acquired and its terminal request's member, on a store with `options`. */
  async function closing(options: TaskStoreOptions) {
    const task = new TaskDriver(storeOn(createMemoryBackend(), options));
    succeeded(await task.transition('acquire', S1));
    return { task, terminal: await task.terminalMember(evidence.evidence) };
  }

  it('maxEvidenceBytes is the evidence limit of the store: TASK_TERMINAL_EVIDENCE_FILE_TOO_LARGE above it', async () => {
    const largest = Math.max(...evidence.evidence.map((i) => i.bytes));
    const small = await closing({ maxEvidenceBytes: largest - 1 });
    refused(
      await small.task.transition('terminal', S1, { terminal: small.terminal }),
      'TASK_TERMINAL_EVIDENCE_FILE_TOO_LARGE',
    );
    const exact = await closing({ maxEvidenceBytes: largest });
    succeeded(await exact.task.transition('terminal', S1, { terminal: exact.terminal }));
  });

  it('projectRoot may be a function of the task key, asked for the task being written', async () => {
    const asked: TaskKey[] = [];
    const { task, terminal } = await closing({
      projectRoot: (key) => {
        asked.push(key);
        return evidence.root;
      },
    });
    succeeded(await task.transition('terminal', S1, { terminal }));
    expect(asked.length).toBeGreaterThan(0);
    for (const k of asked) expect(k).toEqual(task.key);
    const elsewhere = await closing({ projectRoot: () => empty });
    refused(
      await elsewhere.task.transition('terminal', S1, { terminal: elsewhere.terminal }),
      'TASK_TERMINAL_EVIDENCE_FILE_INVALID',
    );
  });

  it('without projectRoot or verifyEvidence every terminal is TASK_TERMINAL_EVIDENCE_FILE_INVALID', async () => {
    const task = new TaskDriver(new TaskStore(createMemoryBackend(), { clock: new ManualClock(START) }));
    succeeded(await task.transition('acquire', S1));
    const terminal = await task.terminalMember(evidence.evidence);
    refused(await task.transition('terminal', S1, { terminal }), 'TASK_TERMINAL_EVIDENCE_FILE_INVALID');
  });

  it('verifyEvidence replaces the file-system checks, asked with the task key and the items', async () => {
    const asked: unknown[] = [];
    const { task, terminal } = await closing({
      projectRoot: empty,
      verifyEvidence: (key, items) => {
        asked.push([key, items]);
        return { ok: true };
      },
    });
    succeeded(await task.transition('terminal', S1, { terminal }));
    expect(asked).toEqual([[task.key, evidence.evidence]]);
    const refusing = await closing({
      verifyEvidence: () => ({
        ok: false,
        code: 'TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH',
        message: 'the host says no',
      }),
    });
    refused(
      await refusing.task.transition('terminal', S1, { terminal: refusing.terminal }),
      'TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH',
    );
  });

  it('by default mints a fresh 160-bit owner nonce per lease and a runtime generation of its own', async () => {
    const store = storeOn(createMemoryBackend());
    expect(store.runtimeGeneration).toMatch(
      /^runtime-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    expect(storeOn(createMemoryBackend()).runtimeGeneration).not.toBe(store.runtimeGeneration);
    const a = new TaskDriver(store);
    const b = new TaskDriver(store);
    const ctx = succeeded(await a.transition('acquire', S1)).writeContext;
    succeeded(await b.transition('acquire', S1));
    const [na, nb] = [(await a.envelope()).owner.ownerNonce, (await b.envelope()).owner.ownerNonce];
    expect(na).toMatch(/^owner-[0-9a-f]{40}$/);
    expect(nb).not.toBe(na);
    expect(ctx.runtimeGeneration).toBe(store.runtimeGeneration);
    const named = storeOn(createMemoryBackend(), { runtimeGeneration: 'runtime-named' });
    const c = new TaskDriver(named);
    expect(succeeded(await c.transition('acquire', S1)).writeContext.runtimeGeneration).toBe('runtime-named');
  });

  it('close closes the backend', async () => {
    const backend = lying({});
    await storeOn(backend).close();
    expect(backend.closed).toBe(true);
  });
});

describe('TaskStore: reads', () => {
  it('read and readWriteContext of a task never written: missing with fence (0, 0), and LIFECYCLE_STATE_UNAVAILABLE', async () => {
    const store = storeOn(createMemoryBackend());
    const task = new TaskDriver(store);
    expect(await store.read(task.key)).toEqual({
      ok: true,
      status: 'missing',
      envelope: null,
      fence: fence(0, 0),
    });
    const r = await store.readWriteContext(task.key);
    expect(r.ok ? 'ok' : r.code).toBe('LIFECYCLE_STATE_UNAVAILABLE');
    expect(!r.ok && r.currentFence).toEqual(fence(0, 0));
    succeeded(await task.transition('acquire', S1));
    const found = await store.read(task.key);
    expect(found.ok && found.status).toBe('found');
    expect(found.ok && found.fence).toEqual(fence(1, 1));
    const ctx = await store.readWriteContext(task.key);
    expect(ctx.ok && ctx.writeContext.stateSequence).toBe(1);
  });
});

/** A memory backend that records the name of every call made to it. */
function recorded(): StorageBackend & { calls: string[] } {
  const backend = createMemoryBackend();
  const calls: string[] = [];
  const record =
    <A extends unknown[], R>(name: string, f: (...a: A) => R) =>
    (...a: A): R => {
      calls.push(name);
      return f(...a);
    };
  return {
    kind: backend.kind,
    calls,
    load: record('load', backend.load.bind(backend)),
    loadAt: record('loadAt', backend.loadAt.bind(backend)),
    compareAndAppend: record('compareAndAppend', backend.compareAndAppend.bind(backend)),
    history: record('history', backend.history.bind(backend)),
    close: record('close', backend.close.bind(backend)),
  };
}

describe('TaskStore: what never reaches storage', () => {
  it('a malformed key is LIFECYCLE_TASK_IDENTITY_REQUIRED in every method, and an empty history, without a storage call', async () => {
    const backend = recorded();
    const store = storeOn(backend);
    const task = new TaskDriver(store);
    const bad = { projectRootIdentity: task.key.projectRootIdentity, taskId: 'not-a-uuid' };
    const request = { ...task.request('acquire', S1, await task.view()), ...bad };
    backend.calls.length = 0;
    const results = {
      read: await store.read(bad),
      readWriteContext: await store.readWriteContext(bad),
      replay: await store.replay(bad),
      transitionOwner: await store.transitionOwner(request),
      commitState: await store.commitState({ ...request, state: { a: 1 } }),
      commitOperation: await store.commitOperation({
        ...request,
        event: {
          event: 'prepare',
          operationId: 'op-1',
          idempotencyKey: 'idem-1',
          kind: 'update',
          exactTargets: ['src/a.ts'],
          beforeDigest: 'b'.repeat(64),
        },
      }),
    };
    for (const [method, r] of Object.entries(results))
      expect(r.ok ? 'ok' : r.code, method).toBe('LIFECYCLE_TASK_IDENTITY_REQUIRED');
    expect(await store.history(bad)).toEqual([]);
    expect(backend.calls).toEqual([]);
  });

  it('an envelope the contract refuses (a minted nonce out of its pattern) is TASK_CONTINUITY_SCHEMA_INVALID with the current fence, never appended', async () => {
    const backend = recorded();
    const task = new TaskDriver(storeOn(backend, { mintNonce: () => 'owner-not-hex' }));
    const r = refused(await task.transition('acquire', S1), 'TASK_CONTINUITY_SCHEMA_INVALID');
    expect(r.currentFence).toEqual(fence(0, 0));
    expect(backend.calls).not.toContain('compareAndAppend');
  });

  it('a decision that cannot be digested (a minted nonce with a lone surrogate) is TASK_CONTINUITY_SCHEMA_INVALID with the current fence, never appended', async () => {
    const backend = recorded();
    const task = new TaskDriver(storeOn(backend, { mintNonce: () => 'owner-\ud800' }));
    const r = refused(await task.transition('acquire', S1), 'TASK_CONTINUITY_SCHEMA_INVALID');
    expect(r.currentFence).toEqual(fence(0, 0));
    expect(backend.calls).not.toContain('compareAndAppend');
  });

  it('a runtimeGeneration out of its pattern (a lone surrogate, a space) is TASK_CONTINUITY_SCHEMA_INVALID before any write, and in readWriteContext and replay', async () => {
    const backend = recorded();
    const written = new TaskDriver(storeOn(backend));
    succeeded(await written.transition('acquire', S1));
    for (const runtimeGeneration of ['runtime-\ud800', 'runtime named', '-runtime', 'r'.repeat(129)]) {
      const store = storeOn(backend, { runtimeGeneration });
      backend.calls.length = 0;
      const r = refused(
        await new TaskDriver(store).transition('acquire', S1),
        'TASK_CONTINUITY_SCHEMA_INVALID',
      );
      expect(r.currentFence, runtimeGeneration).toEqual(fence(0, 0));
      expect(backend.calls, runtimeGeneration).not.toContain('compareAndAppend');
      const renew = await new TaskDriver(store, written.key).transition('renew', S1);
      expect(refused(renew, 'TASK_CONTINUITY_SCHEMA_INVALID').currentFence).toEqual(fence(1, 1));
      expect(backend.calls, runtimeGeneration).not.toContain('compareAndAppend');
      for (const r of [await store.readWriteContext(written.key), await store.replay(written.key)])
        expect(r.ok ? 'ok' : r.code, runtimeGeneration).toBe('TASK_CONTINUITY_SCHEMA_INVALID');
    }
    for (const runtimeGeneration of ['r', 'R0._:-', 'r'.repeat(128)]) {
      const store = storeOn(createMemoryBackend(), { runtimeGeneration });
      const ctx = succeeded(await new TaskDriver(store).transition('acquire', S1)).writeContext;
      expect(ctx.runtimeGeneration).toBe(runtimeGeneration);
    }
  });

  it('an error of the decision that is not a digest error is thrown, not dressed as a refusal', async () => {
    const clock = {
      now: (): number => {
        throw new Error('the clock is unavailable');
      },
    };
    const task = new TaskDriver(new TaskStore(createMemoryBackend(), { clock }));
    await expect(task.transition('acquire', S1)).rejects.toThrow('the clock is unavailable');
  });

  it('the history is read only for a settlement that may be a replay', async () => {
    const backend = recorded();
    const task = new TaskDriver(storeOn(backend));
    succeeded(await task.transition('acquire', S1));
    succeeded(
      await task.op(S1, {
        event: 'prepare',
        operationId: 'op-1',
        idempotencyKey: 'idem-1',
        kind: 'update',
        exactTargets: ['src/a.ts'],
        beforeDigest: 'b'.repeat(64),
      }),
    );
    const abort = { event: 'abort' as const, ...(await task.binding()) };
    succeeded(await task.op(S1, abort));
    expect(backend.calls).not.toContain('history');
    succeeded(await task.op(S1, abort), 'replayed');
    expect(backend.calls.filter((c) => c === 'history')).toHaveLength(1);
  });
});

describe('TaskStore: a stored envelope that fails its own digests', () => {
  it('read and readWriteContext refuse it with LIFECYCLE_STATE_UNAVAILABLE and its fence', async () => {
    let lie = false;
    const backend = lying({
      load: (_key, real) => (lie && real ? { ...real, state: { x: 'changed' } } : undefined),
    });
    const store = storeOn(backend);
    const task = new TaskDriver(store);
    succeeded(await task.transition('acquire', S1));
    succeeded(await task.state(S1, { x: 1 }));
    lie = true;
    for (const r of [await store.read(task.key), await store.readWriteContext(task.key)]) {
      expect(r.ok ? 'ok' : r.code).toBe('LIFECYCLE_STATE_UNAVAILABLE');
      expect(!r.ok && r.currentFence).toEqual(fence(2, 1));
    }
  });
});
