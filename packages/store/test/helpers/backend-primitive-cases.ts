// Behaviour of the StorageBackend primitive itself (fence compare, first write, history, task
// isolation, coded misuse), run against every durable backend beside the TaskStore contract suite.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { StorageBackend } from '../../src/backend.js';
import { StorageBackendError } from '../../src/backends/errors.js';
import { acquire, fenceOf, stateCommit, taskKey } from './envelopes.js';

export function backendPrimitiveCases(
  make: () => Promise<StorageBackend>,
  cleanup: () => Promise<void>,
): void {
  let backend: StorageBackend;
  beforeAll(async () => {
    backend = await make();
  });
  afterAll(async () => {
    await backend?.close();
    await cleanup();
  });

  it('a task never written loads as null with an empty history', async () => {
    const key = taskKey('never-written');
    expect(await backend.load(key)).toBeNull();
    expect(await backend.history(key)).toEqual([]);
  });

  it('loadAt returns the envelope at a sequence, latest or not, and null where the log has none', async () => {
    const key = taskKey('load-at');
    const e1 = acquire(key);
    const e2 = stateCommit(e1, { step: 2 });
    expect(await backend.loadAt(key, 1)).toBeNull();
    await backend.compareAndAppend(key, fenceOf(null), e1);
    await backend.compareAndAppend(key, fenceOf(e1), e2);
    expect(await backend.loadAt(key, 1)).toEqual(e1);
    expect(await backend.loadAt(key, 2)).toEqual(e2);
    for (const sequence of [0, 3, -1, 1.5, Number.NaN])
      expect(await backend.loadAt(key, sequence)).toBeNull();
    expect(await backend.loadAt(taskKey('load-at-other'), 1)).toBeNull();
  });

  it('the first write needs (0, 0); a second first write is refused with the current fence', async () => {
    const key = taskKey('first-write');
    const e1 = acquire(key);
    expect(await backend.compareAndAppend(key, fenceOf(null), e1)).toEqual({ ok: true });
    expect(
      await backend.compareAndAppend(key, fenceOf(null), acquire(key, '2026-11-30T06:00:00.000Z')),
    ).toEqual({
      ok: false,
      current: { stateSequence: 1, writerGeneration: 1 },
    });
    expect(await backend.load(key)).toEqual(e1);
  });

  it('every stale or future fence (each member off by one) is refused with the current fence and writes nothing', async () => {
    const key = taskKey('stale-fences');
    const e1 = acquire(key);
    const e2 = stateCommit(e1, { step: 2 });
    await backend.compareAndAppend(key, fenceOf(null), e1);
    await backend.compareAndAppend(key, fenceOf(e1), e2);
    const e3 = stateCommit(e2, { step: 3 });
    for (const expected of [
      { stateSequence: 1, writerGeneration: 1 },
      { stateSequence: 3, writerGeneration: 1 },
      { stateSequence: 2, writerGeneration: 0 },
      { stateSequence: 2, writerGeneration: 2 },
    ]) {
      const next = { ...e3, sequence: expected.stateSequence + 1 };
      expect(await backend.compareAndAppend(key, expected, next)).toEqual({
        ok: false,
        current: { stateSequence: 2, writerGeneration: 1 },
      });
    }
    expect(await backend.history(key)).toEqual([e1, e2]);
    expect(await backend.compareAndAppend(key, fenceOf(e2), e3)).toEqual({ ok: true });
    expect(await backend.history(key)).toEqual([e1, e2, e3]);
    expect(await backend.load(key)).toEqual(e3);
  });

  it('tasks that differ in either key member are different tasks', async () => {
    const key = taskKey('isolation');
    const other = { ...key, projectRootIdentity: 'f'.repeat(64) };
    await backend.compareAndAppend(key, fenceOf(null), acquire(key));
    expect(await backend.load(other)).toBeNull();
    const e1 = acquire(other);
    expect(await backend.compareAndAppend(other, fenceOf(null), e1)).toEqual({ ok: true });
    expect((await backend.load(other))?.projectRootIdentity).toBe('f'.repeat(64));
  });

  it('16 concurrent appends from one fence: exactly one wins, the rest get the winner fence', async () => {
    const key = taskKey('in-process-race');
    const e1 = acquire(key);
    await backend.compareAndAppend(key, fenceOf(null), e1);
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        backend.compareAndAppend(key, fenceOf(e1), stateCommit(e1, { writer: i })),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    for (const r of results) if (!r.ok) expect(r.current).toEqual({ stateSequence: 2, writerGeneration: 1 });
    expect(await backend.history(key)).toHaveLength(2);
  });

  it('an append under a malformed task key is STORE_APPEND_INVALID, not applied, on every backend', async () => {
    const good = taskKey('malformed-key');
    for (const key of [
      { ...good, taskId: '../../etc/passwd' },
      { ...good, taskId: `${good.taskId}\u0000` },
      { ...good, taskId: `${good.taskId}${'a'.repeat(8192)}` },
      { ...good, projectRootIdentity: good.projectRootIdentity.toUpperCase() },
    ]) {
      const e1 = { ...acquire(good), ...key };
      const error = await backend.compareAndAppend(key, fenceOf(null), e1).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(StorageBackendError);
      expect(error).toMatchObject({ code: 'STORE_APPEND_INVALID', outcome: 'not-applied', retryable: false });
    }
    expect(await backend.history(good)).toEqual([]);
  });

  it('a misbuilt envelope is a coded STORE_APPEND_INVALID and writes nothing', async () => {
    const key = taskKey('misbuilt');
    const e1 = acquire(key);
    await backend.compareAndAppend(key, fenceOf(null), e1);
    const wrongSequence = { ...stateCommit(e1, { x: 1 }), sequence: 5 };
    await expect(backend.compareAndAppend(key, fenceOf(e1), wrongSequence)).rejects.toMatchObject({
      code: 'STORE_APPEND_INVALID',
    });
    await expect(backend.compareAndAppend(taskKey('someone-else'), fenceOf(null), e1)).rejects.toBeInstanceOf(
      StorageBackendError,
    );
    expect(await backend.history(key)).toEqual([e1]);
  });
}
