/** A source of time. Engines never read the system clock themselves. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** The system clock, for production use. */
export const systemClock: Clock = { now: () => Date.now() };

/**
 * A clock that only moves when told to: for tests and the conformance harness (clock set/advance,
 * including jumps backwards).
 *
 * @example
 * const clock = new ManualClock(Date.parse('2026-11-30T06:00:00.000Z'));
 * clock.advance(120_000);
 */
export class ManualClock implements Clock {
  #now: number;
  constructor(start: number) {
    this.#now = start;
  }
  now(): number {
    return this.#now;
  }
  /** Set the time (may move backwards). */
  set(ms: number): void {
    this.#now = ms;
  }
  /** Move the time by `ms` (may be negative). */
  advance(ms: number): void {
    this.#now += ms;
  }
}

/** RFC 3339 UTC timestamp of a clock reading, as every contract writes it. */
export function timestampOf(ms: number): string {
  return new Date(ms).toISOString();
}
