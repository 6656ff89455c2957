// The named crash points of `crash.arm` (docs/protocol.md#crash-points).

/**
 * The named crash points of protocol v1, in commit order: `commit-before-write` is reached when a
 * validated commit is about to be written (nothing of it is durable), `commit-after-write` when
 * the store's append of it has returned (it is durable) and before the reply is sent.
 */
export const CRASH_POINTS = ['commit-before-write', 'commit-after-write'] as const;

/** One of {@link CRASH_POINTS}. */
export type CrashPoint = (typeof CRASH_POINTS)[number];
