// A small store implementation for the fault-matrix tests, run as a subprocess with tsx:
// `fault-store-impl.ts <mode>`. Mode `correct` is the reference TaskStore on SQLite behind
// protocol v1; every other mode breaks exactly one guarantee the fault matrix must catch:
// - `ignore-fences`: the store replaces every request's expectedFence with the current one and
//   keeps its log in a JSON file it rewrites without any compare (read, pause, write): racing
//   writers all win and overwrite each other, stale writers are accepted;
// - `redispatch`: a `dispatch` of an operation that is already dispatched is answered as a new
//   committed dispatch (a store that lets a recovering runtime re-dispatch after a crash);
// - `ack-before-durable`: commits are acknowledged from memory and written to SQLite only later
//   (a store whose acknowledged commits a kill -9 loses);
// - `crash-points-ignored`: declares the named crash points and accepts `crash.arm`, but never
//   dies at them;
// - `readback-mismatch`: every second state commit a process acknowledges is answered as
//   LIFECYCLE_STATE_READBACK_MISMATCH although it is durable (a store that reads back the latest
//   envelope instead of the one it wrote, once another process committed on top).
// Every mode declares both crash points; the others die at them as docs/protocol.md says.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { ManualClock } from '@agent-contracts/engines';
import { directoryOf } from '@agent-contracts/protocol';
import type { TaskRecoveryStateV5 } from '@agent-contracts/schemas';
import { openBackend, type StorageBackend, type TaskKey, TaskStore } from '@agent-contracts/store';

const mode = process.argv[2] ?? 'correct';
const clock = new ManualClock(Date.parse('2026-11-30T05:41:12.000Z'));
let store: TaskStore | null = null;
const out = (o: unknown) => process.stdout.write(`${JSON.stringify(o)}\n`);

/** A backend that acknowledges appends from memory and flushes them to `inner` a second later. */
function lazyBackend(inner: StorageBackend): StorageBackend {
  const pending = new Map<string, TaskRecoveryStateV5[]>();
  const k = (key: TaskKey) => `${key.projectRootIdentity}/${key.taskId}`;
  return {
    kind: inner.kind,
    async load(key) {
      return pending.get(k(key))?.at(-1) ?? inner.load(key);
    },
    async loadAt(key, sequence) {
      return pending.get(k(key))?.find((e) => e.sequence === sequence) ?? inner.loadAt(key, sequence);
    },
    async history(key) {
      return [...(await inner.history(key)), ...(pending.get(k(key)) ?? [])];
    },
    async compareAndAppend(key, expected, next) {
      const cur = (await this.load(key)) as TaskRecoveryStateV5 | null;
      const fence = { stateSequence: cur?.sequence ?? 0, writerGeneration: cur?.writerGeneration ?? 0 };
      if (
        fence.stateSequence !== expected.stateSequence ||
        fence.writerGeneration !== expected.writerGeneration
      )
        return { ok: false, current: fence };
      const list = pending.get(k(key)) ?? [];
      list.push(next);
      pending.set(k(key), list);
      setTimeout(async () => {
        const all = pending.get(k(key)) ?? [];
        pending.delete(k(key));
        for (const e of all)
          await inner.compareAndAppend(
            key,
            {
              stateSequence: e.sequence - 1,
              writerGeneration: (await inner.load(key))?.writerGeneration ?? 0,
            },
            e,
          );
      }, 1000).unref();
      return { ok: true };
    },
    close: () => inner.close(),
  };
}

/**
 * A JSON-file log per task, rewritten without a compare (the last writer wins), that also serves
 * its own latest write from memory (so its read-back always "confirms" what it wrote).
 */
function fileBackend(dir: string): StorageBackend {
  const file = (key: TaskKey) => join(dir, `fake-${key.taskId}.json`);
  const read = (key: TaskKey): TaskRecoveryStateV5[] =>
    existsSync(file(key)) ? (JSON.parse(readFileSync(file(key), 'utf8')) as TaskRecoveryStateV5[]) : [];
  const mine = new Map<string, TaskRecoveryStateV5>();
  return {
    kind: 'memory',
    async load(key) {
      const tip = read(key).at(-1) ?? null;
      const own = mine.get(key.taskId);
      return own && (!tip || own.sequence >= tip.sequence) ? own : tip;
    },
    async loadAt(key, sequence) {
      const own = mine.get(key.taskId);
      return own?.sequence === sequence ? own : (read(key).find((e) => e.sequence === sequence) ?? null);
    },
    history: async (key) => read(key),
    async compareAndAppend(key, _expected, next) {
      const log = read(key).filter((e) => e.sequence < next.sequence);
      await sleep(30);
      const tmp = `${file(key)}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify([...log, next]));
      renameSync(tmp, file(key));
      mine.set(key.taskId, next);
      return { ok: true };
    },
    close: async () => {},
  };
}

let armed: string | null = null;
let committed = 0;
const reach = (point: string) => {
  if (armed !== point || mode === 'crash-points-ignored') return;
  process.kill(process.pid, 'SIGKILL');
};

/** The named crash points around the backend's append. */
function crashing(inner: StorageBackend): StorageBackend {
  return {
    kind: inner.kind,
    load: (key) => inner.load(key),
    loadAt: (key, sequence) => inner.loadAt(key, sequence),
    history: (key) => inner.history(key),
    close: () => inner.close(),
    async compareAndAppend(key, expected, next) {
      reach('commit-before-write');
      const r = await inner.compareAndAppend(key, expected, next);
      if (r.ok) reach('commit-after-write');
      return r;
    },
  };
}

async function open(location: string | null): Promise<TaskStore> {
  const directory = directoryOf(location);
  if (mode === 'ignore-fences' && directory !== null) return new TaskStore(fileBackend(directory), { clock });
  const url = directory !== null ? `sqlite:${join(directory, 'fake-tasks.db')}` : (location ?? 'memory:');
  const backend = await openBackend(url);
  return new TaskStore(crashing(mode === 'ack-before-durable' ? lazyBackend(backend) : backend), { clock });
}

const settled = (r: { ok: boolean; code?: string; message?: string; currentFence?: unknown }) => {
  if (r.ok) return r;
  // The message is the error's; the rest of the refusal is its data (StoreRefusalData).
  const { message, ...data } = r;
  throw Object.assign(new Error(message ?? r.code), { refusal: data });
};

type Req = Record<string, unknown> & {
  expectedFence?: unknown;
  event?: { event?: string; operationId?: string };
};

async function handle(method: string, params: Record<string, unknown>): Promise<unknown> {
  const s = store as TaskStore;
  const fix = async (request: Req) => {
    if (mode !== 'ignore-fences') return request;
    const cur = await s.read({
      projectRootIdentity: request.projectRootIdentity as string,
      taskId: request.taskId as string,
    });
    return cur.ok ? { ...request, expectedFence: cur.fence } : request;
  };
  switch (method) {
    case 'hello':
      store = await open(typeof params.stateLocation === 'string' ? params.stateLocation : null);
      return {
        name: `fake-fault-store-${mode}`,
        version: '1.0.0',
        language: 'typescript',
        protocolVersion: 1,
        capabilities: {
          contracts: [],
          bundles: [],
          digest: false,
          store: true,
          liveness: false,
          checkpoint: false,
          trace: false,
          clock: true,
          crashPoints: ['commit-before-write', 'commit-after-write'],
        },
      };
    case 'crash.arm':
      armed = params.point as string;
      return { armed, skip: 0 };
    case 'clock.set':
      clock.set(Date.parse(params.now as string));
      return { now: new Date(clock.now()).toISOString() };
    case 'clock.advance':
      clock.advance(params.ms as number);
      return { now: new Date(clock.now()).toISOString() };
    case 'store.read':
      return settled(await s.read(params.task as TaskKey));
    case 'store.readWriteContext':
      return settled(await s.readWriteContext(params.task as TaskKey));
    case 'store.replay':
      return settled(await s.replay(params.task as TaskKey));
    case 'store.history':
      return s.history(params.task as TaskKey);
    case 'store.commitState': {
      const r = await s.commitState((await fix(params.request as Req)) as never);
      if (mode === 'readback-mismatch' && r.ok && r.status === 'committed' && ++committed % 2 === 0)
        return settled({
          ok: false,
          code: 'LIFECYCLE_STATE_READBACK_MISMATCH',
          message: 'the envelope read back is not the one written (another commit landed on top)',
          currentFence: r.fence,
        });
      return settled(r);
    }
    case 'store.transitionOwner':
      return settled(await s.transitionOwner((await fix(params.request as Req)) as never));
    case 'store.commitOperation': {
      const request = (await fix(params.request as Req)) as Req;
      const r = await s.commitOperation(request as never);
      if (
        mode === 'redispatch' &&
        request.event?.event === 'dispatch' &&
        (r.ok ? r.status === 'replayed' : true)
      ) {
        const cur = await s.read({
          projectRootIdentity: request.projectRootIdentity as string,
          taskId: request.taskId as string,
        });
        const u = cur.ok && cur.envelope ? cur.envelope.operations.unresolved : null;
        if (u && u.operationId === request.event.operationId && u.phase === 'dispatched') {
          // The broken store "forgets" the earlier dispatch and answers a fresh one.
          const ctx = await s.readWriteContext({
            projectRootIdentity: request.projectRootIdentity as string,
            taskId: request.taskId as string,
          });
          return {
            ok: true,
            status: 'committed',
            fence: cur.ok ? cur.fence : null,
            writeContext: ctx.ok ? ctx.writeContext : null,
            receipt: null,
          };
        }
      }
      return settled(r);
    }
    case 'shutdown':
      await s?.close();
      return null;
    default:
      throw Object.assign(new Error(`no method ${method}`), { rpc: -32601 });
  }
}

let queue = Promise.resolve();
createInterface({ input: process.stdin }).on('line', (line) => {
  queue = queue.then(async () => {
    const req = JSON.parse(line) as { id: number; method: string; params?: Record<string, unknown> };
    try {
      const result = await handle(req.method, req.params ?? {});
      out({ jsonrpc: '2.0', id: req.id, result: result ?? null });
      if (req.method === 'shutdown') process.exit(0);
    } catch (e) {
      const err = e as Error & { refusal?: Record<string, unknown>; rpc?: number };
      if (err.refusal)
        out({ jsonrpc: '2.0', id: req.id, error: { code: -32000, message: err.message, data: err.refusal } });
      else out({ jsonrpc: '2.0', id: req.id, error: { code: err.rpc ?? -32603, message: err.message } });
    }
  });
});
process.stdin.on('end', () => void queue.then(() => process.exit(0)));
