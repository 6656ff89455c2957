import type { Fence } from '@agent-contracts/engines';
import {
  type HistoryAnomaly,
  type HistoryCheckResult,
  type HistoryEvent,
  type HistoryOperation,
  pairOperations,
  sameFence,
  showFence,
} from './history.js';

/** One entry of a task's durable log as read back after the run by an independent reader. */
export interface DurableLogEntry {
  readonly sequence: number;
  readonly writerGeneration: number;
  /** Digest of what was written (the envelope digest). */
  readonly digest: string;
}

/**
 * Elle-style direct checks of a fenced-commit history against the durable logs read back after
 * the run. Each check is linear in the history because every commit names the exact version it
 * replaces and the log orders versions totally, so no interleaving has to be searched:
 *
 * - `lost-update`: two acknowledged commits of a task from the same expected fence;
 * - `acked-not-durable`: an acknowledged commit whose envelope is not in the log at its sequence;
 * - `unacked-durable` / `phantom-write`: a logged envelope that no acknowledged commit wrote must
 *   come from an in-doubt (`info`) commit, at most one per crashed process; one that no commit
 *   at all wrote is a phantom;
 * - `log-gap` / `generation-jump`: the log is 1..n without gaps, and a writer generation moves
 *   only by 0 or +1 per entry;
 * - `real-time-order`: an acknowledged commit that finished before another began has the lower
 *   sequence;
 * - `stale-refusal`: a refusal carrying the very fence it was sent with;
 * - `stale-read`: a read returning a sequence older than a commit acknowledged before it began.
 *
 * @example
 * ```ts
 * import { checkFencedInvariants } from '@agent-contracts/history';
 * const r = checkFencedInvariants([], new Map());
 * r.ok satisfies boolean;
 * ```
 */
export function checkFencedInvariants(
  history: readonly HistoryEvent[],
  logs: ReadonlyMap<string, readonly DurableLogEntry[]>,
): HistoryCheckResult {
  const { operations, anomalies } = pairOperations(history);
  const byTask = new Map<string, HistoryOperation[]>();
  for (const op of operations) byTask.set(op.task, [...(byTask.get(op.task) ?? []), op]);
  for (const task of logs.keys()) if (!byTask.has(task)) byTask.set(task, []);
  for (const [task, ops] of byTask) anomalies.push(...checkTask(task, ops, logs.get(task) ?? []));
  return { ok: anomalies.length === 0, anomalies };
}

function checkTask(
  task: string,
  ops: readonly HistoryOperation[],
  log: readonly DurableLogEntry[],
): HistoryAnomaly[] {
  const found: HistoryAnomaly[] = [];
  const add = (type: HistoryAnomaly['type'], message: string, events: number[]) =>
    found.push({ type, task, message, events });
  const commits = ops.filter((o) => o.f === 'commit');
  const acked = commits.filter((o) => o.result === 'ok');

  const fromFence = new Map<string, HistoryOperation>();
  for (const op of acked) {
    const k = showFence(op.expected!);
    const other = fromFence.get(k);
    if (other)
      add(
        'lost-update',
        `two acknowledged commits replaced the same fence ${k} (events ${other.call} and ${op.call}): one overwrote the other`,
        [other.call, op.call],
      );
    else fromFence.set(k, op);
  }

  log.forEach((entry, i) => {
    if (entry.sequence !== i + 1)
      add('log-gap', `log entry ${i} has sequence ${entry.sequence}, expected ${i + 1}`, []);
    const prev = log[i - 1];
    const delta = entry.writerGeneration - (prev?.writerGeneration ?? 0);
    if (i > 0 ? delta !== 0 && delta !== 1 : entry.writerGeneration !== 1)
      add(
        'generation-jump',
        `log entry ${entry.sequence} moves the writer generation from ${prev?.writerGeneration ?? 0} to ${entry.writerGeneration}`,
        [],
      );
  });
  const atSequence = new Map(log.map((e) => [e.sequence, e] as const));

  for (const op of acked) {
    const entry = atSequence.get(op.next!.stateSequence);
    if (!entry || entry.digest !== op.digest || entry.writerGeneration !== op.next!.writerGeneration)
      add(
        'acked-not-durable',
        `the commit acknowledged at ${op.ret} (fence ${showFence(op.next!)}) is not in the durable log`,
        [op.call, op.ret],
      );
  }

  const ackedDigests = new Set(acked.map((o) => `${o.next!.stateSequence}:${o.digest}`));
  const inDoubtByProcess = new Map<string | number, number>();
  for (const entry of log) {
    if (ackedDigests.has(`${entry.sequence}:${entry.digest}`)) continue;
    const writer = commits.find(
      (o) => o.result === 'info' && o.next!.stateSequence === entry.sequence && o.digest === entry.digest,
    );
    if (!writer) {
      const any = commits.find((o) => o.next!.stateSequence === entry.sequence && o.digest === entry.digest);
      if (any)
        add(
          'unacked-durable',
          `log entry ${entry.sequence} was written by the commit invoked at ${any.call}, which completed as ${any.result}`,
          [any.call],
        );
      else if (commits.length > 0)
        add('phantom-write', `log entry ${entry.sequence} was written by no commit of the history`, []);
      continue;
    }
    const n = (inDoubtByProcess.get(writer.process) ?? 0) + 1;
    inDoubtByProcess.set(writer.process, n);
    if (n > 1)
      add(
        'unacked-durable',
        `process ${String(writer.process)} has ${n} committed-but-unacknowledged entries; a crash leaves at most one`,
        [writer.call],
      );
  }

  // Real time: sort acknowledged commits by return and compare with later calls.
  const byRet = [...acked].sort((a, b) => a.ret - b.ret);
  for (const b of acked)
    for (const a of byRet) {
      if (a.ret >= b.call) break;
      if (a.next!.stateSequence >= b.next!.stateSequence)
        add(
          'real-time-order',
          `the commit acknowledged at ${a.ret} (sequence ${a.next!.stateSequence}) precedes the one invoked at ${b.call} but does not have a lower sequence (${b.next!.stateSequence})`,
          [a.call, b.call],
        );
    }

  for (const op of commits)
    if (op.result === 'fail' && op.observed && sameFence(op.observed, op.expected!))
      add(
        'stale-refusal',
        `the commit refused at ${op.ret} reports the current fence ${showFence(op.observed)}, which equals its expected fence`,
        [op.call, op.ret],
      );

  for (const read of ops)
    if (read.f === 'read' && read.result === 'ok') {
      const seen: Fence = read.observed!;
      for (const a of acked)
        if (a.ret < read.call && a.next!.stateSequence > seen.stateSequence) {
          add(
            'stale-read',
            `the read invoked at ${read.call} returned sequence ${seen.stateSequence} after the commit of sequence ${a.next!.stateSequence} was acknowledged at ${a.ret}`,
            [a.ret, read.call],
          );
          break;
        }
    }
  return found;
}
