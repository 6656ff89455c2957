// Assertions of a fault scenario. A failed check throws FaultCheckFailure, which the runner
// reports as `fail` with the message; anything the implementation does wrong at the protocol
// level (a crash, a hang, garbage) surfaces as a HarnessError and is reported as such.

/** A pass criterion of a scenario that the implementation did not meet. */
export class FaultCheckFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FaultCheckFailure';
  }
}

/** The scenario cannot run against this implementation (reported as `not-applicable`). */
export class FaultNotApplicable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FaultNotApplicable';
  }
}

/** Compact JSON for failure messages. */
export const show = (v: unknown): string => {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 300 ? `${s.slice(0, 300)}…` : s;
};

/** Throws a {@link FaultCheckFailure} with `message` unless `condition` holds. */
export function check(condition: unknown, message: string | (() => string)): asserts condition {
  if (!condition) throw new FaultCheckFailure(typeof message === 'string' ? message : message());
}

/** Throws unless `actual === expected`, naming `what`. */
export function checkEqual<T>(actual: T, expected: T, what: string): void {
  if (actual !== expected)
    throw new FaultCheckFailure(`${what}: expected ${show(expected)}, got ${show(actual)}`);
}
