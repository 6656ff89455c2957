// Methods without params or result of their own: `shutdown` and the readers of one held document.

/** Params of a method that takes none (`shutdown`, `liveness.state`, `trace.replay`, ...): an empty object. */
export type NoParams = Record<string, never>;

/** Result of `shutdown` and `trace.load`: `null`. */
export type NullResult = null;
