// `hello`, the first request of every session (docs/protocol.md#hello-v1).

/** Params of `hello`. */
export interface HelloParams {
  /** Protocol version the harness speaks; an implementation that cannot speak it refuses with `PROTOCOL_VERSION_UNSUPPORTED`. */
  readonly protocolVersion: number;
  /**
   * Where the implementation keeps durable state for this session (a directory, or a database
   * URL), or null. The harness passes the same location again after killing and restarting the process.
   */
  readonly stateLocation: string | null;
  /**
   * A directory on this host for host-local state that is not part of the shared task store (the
   * turn liveness state, the current trace), or null when the harness keeps no state. It equals
   * `stateLocation` when that is a directory; with a database URL it is a directory of its own.
   */
  readonly localDirectory: string | null;
}

/** What an implementation supports; cases needing anything else are reported not-applicable. */
export interface Capabilities {
  /** Contracts (`schemaVersion` names) whose documents `validate` judges; cases require `contract:<Name>`. */
  readonly contracts: readonly string[];
  /** Bundle kinds `validateBundle` judges; cases require `bundle:<kind>`. */
  readonly bundles: readonly string[];
  /** Whether `digest` (RFC 8785 JCS + SHA-256) is implemented. */
  readonly digest: boolean;
  /** Whether the `store.*` methods are implemented. */
  readonly store: boolean;
  /** Whether the `liveness.*` methods are implemented. */
  readonly liveness: boolean;
  /** Whether `checkpoint.validate` is implemented. */
  readonly checkpoint: boolean;
  /** Whether the `trace.*` methods are implemented. */
  readonly trace: boolean;
  /** Whether `clock.set` / `clock.advance` control the implementation's clock. */
  readonly clock: boolean;
  /** Named crash points `crash.arm` accepts (a subset of `commit-before-write`, `commit-after-write`); scenarios require `crash:<point>`. */
  readonly crashPoints: readonly string[];
  /** Whether `run.step` (the run controller) is implemented; optional, absent means not declared. */
  readonly run?: boolean;
  /** Whether `policy.observe` / `policy.decide` (PermissionPolicyGate) are implemented; optional, absent means not declared (D-GEN-60). */
  readonly policy?: boolean;
  /** Whether `delegate` (DelegationGate) is implemented; optional, absent means not declared (D-GEN-60). */
  readonly delegation?: boolean;
  /** Whether the `context.*` methods (ContextAcquisitionGate) are implemented; optional, absent means not declared (D-GEN-60). */
  readonly context?: boolean;
}

/** Result of `hello`. */
export interface HelloResult {
  /** The implementation's name (non-empty). */
  readonly name: string;
  /** The implementation's version (non-empty). */
  readonly version: string;
  /** Implementation language, e.g. `typescript`, `rust`, `python` (non-empty). */
  readonly language: string;
  /** The protocol version it speaks: 1. */
  readonly protocolVersion: number;
  /** What it supports. */
  readonly capabilities: Capabilities;
}
