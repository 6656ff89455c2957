// Two worlds: the reference store on memory, with everything an implementation chooses varied
// (owner nonces, runtime generation, lease duration).
import { createHash } from 'node:crypto';
import { type CommitRefusal, checkTaskKey, ManualClock } from '@agent-contracts/engines';
import { createMemoryBackend, type TaskKey, TaskStore } from '@agent-contracts/store';
import { T0 } from './names.ts';

// Two worlds: the reference store on memory, with everything an implementation chooses varied.

type Reply = { result: unknown } | { code: string; data: Record<string, unknown> };

/**
 * Codes that steps 1 and 2 of the commit algorithm give before storage is read
 * (docs/spec/task-continuity-write-gate.md#commit-algorithm, TCW-507): such a refusal may carry
 * no `currentFence`, so a case never requires one (some of them are also given after the read).
 */
export const BEFORE_THE_READ = new Set([
  'LIFECYCLE_TASK_IDENTITY_REQUIRED',
  'LIFECYCLE_STATE_FENCE_REQUIRED',
  'TASK_TERMINAL_INPUT_INVALID',
  'TASK_TERMINAL_EXPECTED_STATE_REQUIRED',
  'FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID',
  'TASK_OPERATION_TRANSITION_INVALID',
  'LIFECYCLE_STATE_SHAPE_INVALID',
]);
const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

export class World {
  readonly clock = new ManualClock(Date.parse(T0));
  readonly store: TaskStore;
  constructor(seed: string, leaseDurationMs: number, projectRoot: string) {
    let n = 0;
    this.store = new TaskStore(createMemoryBackend(), {
      clock: this.clock,
      runtimeGeneration: `runtime-${seed}`,
      leaseDurationMs,
      projectRoot,
      mintNonce: () => `owner-${createHash('sha1').update(`${seed}:${n++}`).digest('hex')}`,
    });
  }

  async call(method: string, params: Record<string, unknown>): Promise<Reply> {
    const s = this.store;
    const task = params.task as TaskKey;
    const out = (r: { ok: boolean }): Reply => {
      if (r.ok) return { result: json(r) };
      const { code, ...data } = json(r as CommitRefusal);
      return { code, data: { ...data, code } };
    };
    switch (method) {
      case 'clock.set':
        this.clock.set(Date.parse(params.now as string));
        return { result: { now: new Date(this.clock.now()).toISOString() } };
      case 'clock.advance':
        this.clock.advance(params.ms as number);
        return { result: { now: new Date(this.clock.now()).toISOString() } };
      case 'store.read':
        return out(await s.read(task));
      case 'store.readWriteContext':
        return out(await s.readWriteContext(task));
      case 'store.commitState':
        return out(await s.commitState(params.request as never));
      case 'store.commitOperation':
        return out(await s.commitOperation(params.request as never));
      case 'store.transitionOwner':
        return out(await s.transitionOwner(params.request as never));
      case 'store.replay':
        return out(await s.replay(task));
      case 'store.history': {
        // As the reference implementation answers it: a malformed key is refused (the library's
        // history of such a key is empty).
        const key = checkTaskKey(task);
        if (!key.ok) return { code: key.code, data: { code: key.code } };
        return { result: json(await s.history(task)) };
      }
      default:
        throw new Error(`the generator has no method ${method}`);
    }
  }
}
