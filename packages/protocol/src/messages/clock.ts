// `clock.set` and `clock.advance` (docs/protocol.md#clockset-clockadvance-v1).

/** Params of `clock.set`. */
export interface ClockSetParams {
  /** The new time, an RFC 3339 timestamp. */
  readonly now: string;
}

/** Params of `clock.advance`. */
export interface ClockAdvanceParams {
  /** Milliseconds to move the clock by; may be negative. */
  readonly ms: number;
}

/** Result of `clock.set` and `clock.advance`. */
export interface ClockResult {
  /** The implementation's time after the change, an RFC 3339 timestamp. */
  readonly now: string;
}
