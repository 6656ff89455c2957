// Protocol v1 between the harness and an implementation under test (docs/protocol.md): JSON-RPC
// 2.0, one JSON object per line, on the implementation's stdin (requests) and stdout (replies).

/** The protocol version this harness speaks. */
export const PROTOCOL_VERSION = 1;

/**
 * The named crash points of protocol v1 (docs/protocol.md#crash-points), in commit order:
 * `commit-before-write` is reached when a validated commit is about to be written (nothing of it is
 * durable), `commit-after-write` when the store's append of it has returned (it is durable) and
 * before the reply is sent.
 */
export const CRASH_POINTS = ['commit-before-write', 'commit-after-write'] as const;

/** One of {@link CRASH_POINTS}. */
export type CrashPoint = (typeof CRASH_POINTS)[number];

/** Parameters of `crash.arm`. */
export interface CrashArmParams {
  /** The point to die at, one the implementation declared in `capabilities.crashPoints`. */
  readonly point: string;
  /** Arrivals at the point to let pass before dying (default 0: the next one). */
  readonly skip?: number;
}

/** Parameters of `hello`, the first request of every session. */
export interface HelloParams {
  /** Protocol version the harness speaks; an implementation that cannot speak it answers an error. */
  readonly protocolVersion: number;
  /**
   * Where the implementation keeps durable state for this session (a directory, or a database
   * URL). The harness passes the same location again after killing and restarting the process.
   */
  readonly stateLocation: string | null;
  /**
   * A directory on this host for host-local state that is not part of the shared task store (the
   * turn liveness state, the current trace). The harness passes the same directory after a
   * restart. It equals `stateLocation` when that is a directory; with a database URL it is a
   * directory of its own; null when the harness keeps no state.
   */
  readonly localDirectory: string | null;
}

/** What an implementation supports; cases needing anything else are reported not-applicable. */
export interface Capabilities {
  /** Contracts (`schemaVersion` names) whose documents `validate` judges. */
  readonly contracts: readonly string[];
  /** Bundle kinds `validateBundle` judges. */
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
  /** Named crash points `crash.arm` accepts (a subset of {@link CRASH_POINTS}). */
  readonly crashPoints: readonly string[];
}

/** Result of `hello`. */
export interface HelloResult {
  readonly name: string;
  readonly version: string;
  /** Implementation language, e.g. `typescript`, `rust`, `python`. */
  readonly language: string;
  readonly protocolVersion: number;
  readonly capabilities: Capabilities;
}

/** One issue as an implementation reports it: the stable code and the JSON Pointer. */
export interface ReportedIssue {
  readonly code: string;
  readonly path: string;
}

/** Result of `validate` and `validateBundle`. */
export interface ValidateResult {
  readonly ok: boolean;
  readonly issues: readonly ReportedIssue[];
}

/** Result of `digest`: the canonical form and its SHA-256, or an error with `DIGEST_INPUT_INVALID`. */
export interface DigestResult {
  readonly canonical: string;
  readonly sha256: string;
}

/**
 * A JSON-RPC error's `data` as implementations fill it: the spec's code for a refused operation
 * (e.g. `LIFECYCLE_STATE_FENCE_MISMATCH`) and any detail (e.g. the current fence).
 */
export interface ProtocolErrorData {
  readonly code: string;
  readonly [key: string]: unknown;
}

/** JSON-RPC error code for a refusal defined by the spec (the spec code is in `data.code`). */
export const SPEC_ERROR = -32000;
/** JSON-RPC error code for a method the implementation does not implement. */
export const METHOD_NOT_FOUND = -32601;
/** JSON-RPC error code for malformed params. */
export const INVALID_PARAMS = -32602;
