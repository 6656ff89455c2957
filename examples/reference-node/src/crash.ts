// Named crash points (docs/protocol.md#crash-points): `crash.arm { point, skip }` makes the process
// die with SIGKILL the (skip + 1)-th time it reaches `point`, with no flush and no reply, exactly
// as a power cut or the OOM killer would end it there. The points sit around the storage
// backend's append, where the commit algorithm's durability claims are made.

import { CRASH_POINTS, type CrashPoint } from '@agent-contracts/protocol';
import type { StorageBackend } from '@agent-contracts/store';

export { CRASH_POINTS };

/** The armed point and how many arrivals to let pass; `die` ends the process. */
export function createCrashPoints(die: () => never) {
  let armed: { point: CrashPoint; skip: number } | null = null;
  const reach = (point: CrashPoint) => {
    if (armed === null || armed.point !== point) return;
    if (armed.skip > 0) {
      armed.skip -= 1;
      return;
    }
    armed = null;
    die();
  };
  return {
    arm(point: CrashPoint, skip: number) {
      armed = { point, skip };
    },
    /** The backend with the points around its append. */
    wrap(backend: StorageBackend): StorageBackend {
      return {
        kind: backend.kind,
        load: (key) => backend.load(key),
        loadAt: (key, sequence) => backend.loadAt(key, sequence),
        history: (key) => backend.history(key),
        close: () => backend.close(),
        async compareAndAppend(key, expected, next) {
          reach('commit-before-write');
          const result = await backend.compareAndAppend(key, expected, next);
          if (result.ok) reach('commit-after-write');
          return result;
        },
      };
    },
  };
}
