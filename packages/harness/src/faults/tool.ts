/**
 * The fake tool: the harness's own ground truth for "no double side effect". The harness calls
 * it only after the implementation acknowledged a `dispatch` commit (`status: committed`), the
 * way a runtime calls its tool only once the dispatch is durable, and counts every call per
 * operation. An implementation that lets an operation be dispatched twice shows up here as a
 * count of 2, whatever it says about its own state.
 *
 * @example
 * const tool = new FakeTool();
 * tool.call('op-1', 'idem-1');
 * tool.count('op-1'); // 1
 */
export class FakeTool {
  readonly #calls = new Map<string, number>();
  readonly #keys = new Map<string, number>();

  /** Perform the side effect of `operationId` once more. */
  call(operationId: string, idempotencyKey: string): void {
    this.#calls.set(operationId, (this.#calls.get(operationId) ?? 0) + 1);
    this.#keys.set(idempotencyKey, (this.#keys.get(idempotencyKey) ?? 0) + 1);
  }

  /** How many times the effect of `operationId` was performed. */
  count(operationId: string): number {
    return this.#calls.get(operationId) ?? 0;
  }

  /** How many times an effect with `idempotencyKey` was performed. */
  countKey(idempotencyKey: string): number {
    return this.#keys.get(idempotencyKey) ?? 0;
  }

  /** Every effect performed, in total. */
  get total(): number {
    let n = 0;
    for (const c of this.#calls.values()) n += c;
    return n;
  }
}
