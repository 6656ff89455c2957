// `crash.arm` (docs/protocol.md#crasharm-v1-capability-crashpoints).

/** Params of `crash.arm`. */
export interface CrashArmParams {
  /** The point to die at, one the implementation declared in `capabilities.crashPoints`. */
  readonly point: string;
  /** Arrivals at the point to let pass before dying (default 0: the next one). */
  readonly skip?: number;
}

/** Result of `crash.arm`. */
export interface CrashArmResult {
  /** The point now armed. */
  readonly armed: string;
  /** The arrivals it lets pass before dying. */
  readonly skip: number;
}
