// The shared break of the "make room" mutants: a host that finds an operation still unresolved
// where the spec refuses to go on, and instead of refusing, closes it as applied without having
// observed its effect (a dispatched tool call claimed done), then retries the refused request.

const HEX = /^[0-9a-f]{64}$/;
/** A digest-shaped value that no observation produced: the host never looked. */
const UNOBSERVED = 'f'.repeat(64);

/** The five members that name an operation record in every event after `prepare`. */
const bound = (u) => ({
  operationId: u.operationId,
  idempotencyKey: u.idempotencyKey,
  writerGeneration: u.writerGeneration,
  targetSetDigest: u.targetSetDigest,
  beforeDigest: u.beforeDigest,
});

/** The events that take an unresolved record of `phase` to a resolved one, blind to its effect. */
function closing(u) {
  const applied = { effect: 'known-applied', evidenceDigest: HEX.test(u.beforeDigest) ? UNOBSERVED : null };
  switch (u.phase) {
    case 'prepared':
      return [{ event: 'abort', ...bound(u) }];
    case 'dispatched':
      return [
        { event: 'observe', ...bound(u), resultDigest: UNOBSERVED },
        { event: 'settle', ...bound(u), ...applied },
      ];
    case 'observed':
      return [{ event: 'settle', ...bound(u), ...applied }];
    case 'reconcile-required':
      return [{ event: 'reconcile', ...bound(u), ...applied }];
    default:
      return [];
  }
}

/**
 * Resolves the task's unresolved operation with the requester's own key, owner ref and session,
 * and returns the fence after the last write (or null when nothing could be closed).
 *
 * @param {import('./shim.mjs').Context} ctx
 * @param {{ taskId: string, projectRootIdentity: string, expectedOwner: unknown, sessionDigest: string }} request
 */
export async function settleUnresolved(ctx, request) {
  const task = { projectRootIdentity: request.projectRootIdentity, taskId: request.taskId };
  const read = await ctx.call('store.read', { task });
  const unresolved = read.result?.envelope?.operations?.unresolved;
  if (!unresolved) return null;
  let fence = read.result.fence;
  for (const event of closing(unresolved)) {
    const r = await ctx.call('store.commitOperation', {
      request: {
        ...task,
        expectedFence: fence,
        expectedOwner: request.expectedOwner,
        sessionDigest: request.sessionDigest,
        event,
      },
    });
    if (!r.result?.fence) return null;
    fence = r.result.fence;
  }
  return fence;
}
