// The implementation processes this process started and has not reaped yet
// (transport/process.ts adds each when it starts and removes it when it is reaped), in a module
// of its own: the CLI's entry kills them on its way out (`@agent-contracts/harness/live`) without
// loading the rest of the harness, which every other command than `conform` never needs.

/** What {@link killAllImplementations} needs of a running implementation. */
export interface LiveImplementation {
  /** SIGCONT and SIGKILL to its whole process group, now. */
  killGroupNow(): void;
}

/** Every implementation process whose group may still be alive. */
export const LIVE = new Set<LiveImplementation>();

/**
 * kill -9 the process group of every implementation this process started and has not reaped yet.
 * Synchronous, for a signal handler: after SIGINT or SIGTERM nothing the harness started may
 * outlive it.
 */
export function killAllImplementations(): void {
  for (const p of LIVE) p.killGroupNow();
}
