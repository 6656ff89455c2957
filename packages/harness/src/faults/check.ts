// Assertions of a fault scenario. A failed check throws FaultCheckFailure, which the runner
// reports as `fail` with the message and, as a golden case does, its differences by pointer: a
// check is named by the words of what it checks (`fake tool calls` is `/fake-tool-calls`), with
// the expected and the actual value. Anything the implementation does wrong at the protocol
// level (a crash, a hang, garbage) surfaces as a HarnessError and is reported as such.
import { type Difference, differenceAt, jsonDifferences } from '../json-diff.js';

/** A pass criterion of a scenario that the implementation did not meet. */
export class FaultCheckFailure extends Error {
  constructor(
    message: string,
    /** Where the check differs, by pointer (its words, {@link checkPointer}). */
    readonly differences: readonly Difference[] = [],
  ) {
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

/** The pointer of a check: `/` and the words of what it checks, `fake tool calls` → `/fake-tool-calls`. */
export const checkPointer = (what: string): string =>
  `/${
    what
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'check'
  }`;

/** The differences of a check of `what`: the two values compared at its pointer, member by member. */
export function checkDifferences(what: string, expected: unknown, actual: unknown): Difference[] {
  const at = checkPointer(what);
  const objects = [expected, actual].every((v) => v !== null && typeof v === 'object');
  const found = objects ? jsonDifferences(expected, actual, 'equal').listed : [];
  const listed = found.length
    ? found.map((d) => ({ ...d, pointer: `${at}${d.pointer}` }))
    : [differenceAt(at, expected, actual)];
  return listed.map((d) => ({ ...d, kind: 'behaviour' as const }));
}

/**
 * Throws a {@link FaultCheckFailure} with `message` unless `condition` holds; its difference is
 * at the pointer of the message's words before its first `:` (or all of them), expected `true`.
 */
export function check(condition: unknown, message: string | (() => string)): asserts condition {
  if (!condition) {
    const text = typeof message === 'string' ? message : message();
    throw new FaultCheckFailure(text, checkDifferences(text.split(':')[0]!, true, false));
  }
}

/** Throws unless `actual === expected`, naming `what`. */
export function checkEqual<T>(actual: T, expected: T, what: string): void {
  if (actual !== expected)
    throw new FaultCheckFailure(
      `${what}: expected ${show(expected)}, got ${show(actual)}`,
      checkDifferences(what, expected, actual),
    );
}
