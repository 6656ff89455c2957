import type { Fence } from '@agent-contracts/engines';
import {
  type HistoryCheckResult,
  type HistoryEvent,
  type HistoryOperation,
  pairOperations,
  showFence,
} from './history.js';

/** The sequential model: a compare-and-set register holding a task's fence and envelope digest. */
interface RegisterState {
  readonly fence: Fence;
  readonly digest: string | null;
}

const INITIAL: RegisterState = { fence: { stateSequence: 0, writerGeneration: 0 }, digest: null };

/** Applies `op` to `s` in the model; `null` when `op` cannot take effect (with its recorded result) in `s`. */
function step(s: RegisterState, op: HistoryOperation): RegisterState | null {
  const at = (f: Fence) =>
    f.stateSequence === s.fence.stateSequence && f.writerGeneration === s.fence.writerGeneration;
  if (op.f === 'read') return at(op.observed!) && (op.digest === null || op.digest === s.digest) ? s : null;
  if (op.result === 'fail') return !at(op.expected!) && at(op.observed!) ? s : null;
  // ok, and info when it did take effect (an info op that did not is simply never linearized)
  return at(op.expected!) ? { fence: op.next!, digest: op.digest } : null;
}

const stateKey = (s: RegisterState) =>
  `${s.fence.stateSequence}:${s.fence.writerGeneration}:${s.digest ?? ''}`;

interface Entry {
  op: HistoryOperation;
  isCall: boolean;
  match: Entry | null; // call -> its return entry (null for info ops)
  prev: Entry | null;
  next: Entry | null;
}

/**
 * Wing and Gong's linearizability search with Lowe's just-in-time linearization and memoisation
 * of (linearized set, state), run per task (P-compositionality: tasks are independent registers).
 * Each task's history is checked against a sequential compare-and-set register of the fence: a
 * commit is `ok` only from its exact expected fence, a refusal only from another fence equal to
 * the one it reports, a read returns the current fence (and envelope digest), and an `info`
 * commit may take effect at any point after its invocation or never.
 *
 * `maxStates` bounds the search per task; exceeding it is reported as an anomaly rather than
 * running for ever.
 *
 * @example
 * ```ts
 * import { checkLinearizable } from '@agent-contracts/history';
 * checkLinearizable([]).ok satisfies boolean;
 * ```
 */
export function checkLinearizable(
  history: readonly HistoryEvent[],
  options: { readonly maxStates?: number } = {},
): HistoryCheckResult {
  const { operations, anomalies } = pairOperations(history);
  const byTask = new Map<string, HistoryOperation[]>();
  for (const op of operations) byTask.set(op.task, [...(byTask.get(op.task) ?? []), op]);
  for (const [task, ops] of byTask) {
    const verdict = linearizeTask(ops, options.maxStates ?? 2_000_000);
    if (verdict !== true)
      anomalies.push({
        type: 'not-linearizable',
        task,
        message:
          verdict === 'budget'
            ? `the search gave up after ${options.maxStates ?? 2_000_000} states: shorten the history`
            : `no order of the task's ${ops.length} operations that respects real time explains every result (${verdict})`,
        events: [],
      });
  }
  return { ok: anomalies.length === 0, anomalies };
}

function linearizeTask(ops: readonly HistoryOperation[], maxStates: number): true | 'budget' | string {
  // The entry list: calls at their call index, returns at their return index (none for info).
  const points: { time: number; entry: Entry }[] = [];
  for (const op of ops) {
    const call: Entry = { op, isCall: true, match: null, prev: null, next: null };
    points.push({ time: op.call, entry: call });
    if (op.result !== 'info') {
      const ret: Entry = { op, isCall: false, match: null, prev: null, next: null };
      call.match = ret;
      points.push({ time: op.ret, entry: ret });
    }
  }
  points.sort((a, b) => a.time - b.time || Number(b.entry.isCall) - Number(a.entry.isCall));
  const head: Entry = { op: ops[0]!, isCall: false, match: null, prev: null, next: null };
  let tail = head;
  for (const p of points) {
    p.entry.prev = tail;
    tail.next = p.entry;
    tail = p.entry;
  }
  const lift = (e: Entry) => {
    e.prev!.next = e.next;
    if (e.next) e.next.prev = e.prev;
    const m = e.match;
    if (m) {
      m.prev!.next = m.next;
      if (m.next) m.next.prev = m.prev;
    }
  };
  const unlift = (e: Entry) => {
    const m = e.match;
    if (m) {
      m.prev!.next = m;
      if (m.next) m.next.prev = m;
    }
    e.prev!.next = e;
    if (e.next) e.next.prev = e;
  };

  let remaining = ops.filter((o) => o.result !== 'info').length;
  let linearized = 0n;
  let state = INITIAL;
  const seen = new Set<string>();
  const stack: { entry: Entry; state: RegisterState }[] = [];
  let entry = head.next;
  let explored = 0;
  let deepest: HistoryOperation | null = null;
  while (remaining > 0) {
    if (++explored > maxStates) return 'budget';
    if (entry?.isCall) {
      const after = step(state, entry.op);
      const bits = linearized | (1n << BigInt(entry.op.id));
      const key = after ? `${bits.toString(36)}|${stateKey(after)}` : '';
      if (after && !seen.has(key)) {
        seen.add(key);
        stack.push({ entry, state });
        state = after;
        linearized = bits;
        if (entry.op.result !== 'info') remaining--;
        lift(entry);
        entry = head.next;
      } else entry = entry.next;
    } else {
      // A return reached before its call was linearized: backtrack.
      deepest ??= entry?.op ?? null;
      const top = stack.pop();
      if (!top) {
        const op = deepest;
        if (!op) return 'no operation fits the initial state';
        return `stuck at the ${op.f} invoked at ${op.call} (${op.result}${op.expected ? ` from ${showFence(op.expected)}` : ''}${op.observed ? `, observed ${showFence(op.observed)}` : ''})`;
      }
      state = top.state;
      linearized &= ~(1n << BigInt(top.entry.op.id));
      if (top.entry.op.result !== 'info') remaining++;
      unlift(top.entry);
      entry = top.entry.next;
    }
  }
  return true;
}
