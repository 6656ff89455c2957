import type { Fence } from '@agent-contracts/engines';

/**
 * One event of a recorded history of fenced commits and reads, Jepsen style: every operation is
 * an `invoke` followed by the same process's completion: `ok` (it happened), `fail` (it did not
 * happen; a refused commit carries the fence it was refused with) or `info` (unknown: the process
 * crashed or timed out, and never invokes again). The array order of a history is real time.
 */
export type HistoryEvent =
  | {
      readonly type: 'invoke' | 'ok' | 'info';
      readonly process: string | number;
      readonly task: string;
      readonly f: 'commit';
      /** The commit's expected fence, the fence it writes and the digest of what it writes. */
      readonly value: { readonly expected: Fence; readonly next: Fence; readonly digest: string };
    }
  | {
      readonly type: 'fail';
      readonly process: string | number;
      readonly task: string;
      readonly f: 'commit';
      readonly value: {
        readonly expected: Fence;
        readonly next: Fence;
        readonly digest: string;
        readonly current: Fence;
      };
    }
  | {
      readonly type: 'invoke' | 'info';
      readonly process: string | number;
      readonly task: string;
      readonly f: 'read';
      readonly value: null;
    }
  | {
      readonly type: 'ok';
      readonly process: string | number;
      readonly task: string;
      readonly f: 'read';
      /** The fence read and the digest of the envelope read (`null` for a task never written). */
      readonly value: { readonly fence: Fence; readonly digest: string | null };
    };

/** An invocation paired with its completion. `ret` is `Infinity` for `info` and never-completed operations. */
export interface HistoryOperation {
  readonly id: number;
  readonly process: string | number;
  readonly task: string;
  readonly f: 'commit' | 'read';
  readonly call: number;
  readonly ret: number;
  readonly result: 'ok' | 'fail' | 'info';
  readonly expected: Fence | null;
  readonly next: Fence | null;
  readonly digest: string | null;
  /** For a refused commit: the fence it was refused with; for a read: the fence read. */
  readonly observed: Fence | null;
}

/** One finding of a checker, with the history indices of the operations involved. */
export interface HistoryAnomaly {
  readonly type:
    | 'malformed-history'
    | 'lost-update'
    | 'acked-not-durable'
    | 'unacked-durable'
    | 'phantom-write'
    | 'log-gap'
    | 'generation-jump'
    | 'real-time-order'
    | 'stale-refusal'
    | 'stale-read'
    | 'not-linearizable';
  readonly task: string;
  readonly message: string;
  readonly events: readonly number[];
}

/** Result of a history check: `ok` exactly when there is no anomaly. */
export interface HistoryCheckResult {
  readonly ok: boolean;
  readonly anomalies: readonly HistoryAnomaly[];
}

/**
 * Pairs every invocation with its process's next completion. An invocation whose process never
 * completes it (the process was killed) is an `info` operation.
 *
 * @example
 * ```ts
 * import { pairOperations } from '@agent-contracts/history';
 * const ops = pairOperations([
 *   { type: 'invoke', process: 1, task: 't', f: 'read', value: null },
 *   { type: 'ok', process: 1, task: 't', f: 'read', value: { fence: { stateSequence: 0, writerGeneration: 0 }, digest: null } },
 * ]);
 * ops.length satisfies number;
 * ```
 */
export function pairOperations(history: readonly HistoryEvent[]): {
  operations: HistoryOperation[];
  anomalies: HistoryAnomaly[];
} {
  const open = new Map<string | number, { index: number; event: HistoryEvent }>();
  const crashed = new Set<string | number>();
  const operations: HistoryOperation[] = [];
  const anomalies: HistoryAnomaly[] = [];
  const push = (call: { index: number; event: HistoryEvent }, ret: number, done: HistoryEvent | null) => {
    const inv = call.event;
    const result = done === null || done.type === 'info' ? 'info' : done.type === 'fail' ? 'fail' : 'ok';
    const commit = inv.f === 'commit' ? inv.value : null;
    let observed: Fence | null = null;
    if (done?.type === 'fail') observed = done.value.current;
    if (done?.f === 'read' && done.type === 'ok') observed = done.value.fence;
    operations.push({
      id: operations.length,
      process: inv.process,
      task: inv.task,
      f: inv.f,
      call: call.index,
      ret: result === 'info' ? Number.POSITIVE_INFINITY : ret,
      result,
      expected: commit?.expected ?? null,
      next: commit?.next ?? null,
      digest: commit ? commit.digest : done?.f === 'read' && done.type === 'ok' ? done.value.digest : null,
      observed,
    });
  };
  history.forEach((event, index) => {
    const pending = open.get(event.process);
    if (event.type === 'invoke') {
      if (pending || crashed.has(event.process))
        anomalies.push({
          type: 'malformed-history',
          task: event.task,
          message: `process ${String(event.process)} invoked at ${index} while ${pending ? `its operation from ${pending.index} was open` : 'it had crashed (info)'}`,
          events: [index],
        });
      else open.set(event.process, { index, event });
      return;
    }
    if (!pending || pending.event.f !== event.f || pending.event.task !== event.task) {
      anomalies.push({
        type: 'malformed-history',
        task: event.task,
        message: `completion at ${index} matches no open ${event.f} of process ${String(event.process)}`,
        events: [index],
      });
      return;
    }
    open.delete(event.process);
    if (event.type === 'info') crashed.add(event.process);
    push(pending, index, event);
  });
  for (const pending of open.values()) push(pending, Number.POSITIVE_INFINITY, null);
  operations.sort((a, b) => a.call - b.call);
  return { operations, anomalies };
}

export const sameFence = (a: Fence, b: Fence): boolean =>
  a.stateSequence === b.stateSequence && a.writerGeneration === b.writerGeneration;

export const showFence = (f: Fence): string => `(${f.stateSequence}, ${f.writerGeneration})`;
