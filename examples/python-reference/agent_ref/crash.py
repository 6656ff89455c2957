"""crash.arm: named crash points where the process kills itself with SIGKILL (docs/protocol.md#crash-points).

SIGKILL runs no handler and flushes nothing: the process ends as a power cut or the OOM killer
would end it at that instruction.
"""

import os
import signal

from .errors import InvalidParams

POINTS = ("commit-before-write", "commit-after-write")


class CrashPoints:
    def __init__(self):
        self.point = None
        self.skip = 0

    def arm(self, params):
        point = params.get("point")
        skip = params.get("skip", 0)
        if point not in POINTS:
            raise InvalidParams("crash.arm: point must be one of " + ", ".join(POINTS))
        if isinstance(skip, bool) or not isinstance(skip, (int, float)) or skip < 0 or not float(skip).is_integer():
            raise InvalidParams("crash.arm: skip must be a non-negative integer")
        self.point, self.skip = point, int(skip)
        return {"armed": point, "skip": self.skip}

    def reach(self, point):
        if self.point != point:
            return
        if self.skip > 0:
            self.skip -= 1
            return
        os.kill(os.getpid(), signal.SIGKILL)


def install(server):
    crash = CrashPoints()
    server.add_area("crashPoints", {"crash.arm": crash.arm}, points=POINTS)
    return crash
