"""The injectable clock (docs/protocol.md#clockset-clockadvance-v1) and RFC 3339 instants.

Time is kept as whole milliseconds since the Unix epoch. Output is written in one form,
`YYYY-MM-DDTHH:MM:SS.mmmZ` (SPEC-GAPS.md: no page fixes the output form; the cases compare it).
"""

import re
import time
from datetime import datetime, timedelta, timezone

from .errors import InvalidParams

RFC3339 = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$"
)
UTC_Z = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$")
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def parse_instant_ns(text):
    """Nanoseconds since the epoch of an RFC 3339 timestamp, or None when it is not one."""
    if not isinstance(text, str):
        return None
    m = RFC3339.match(text)
    if not m:
        return None
    y, mo, d, h, mi, s = (int(m.group(i)) for i in range(1, 7))
    frac = (m.group(7) or "").ljust(9, "0")
    try:
        dt = datetime(y, mo, d, h, mi, min(s, 59), tzinfo=timezone.utc)
    except ValueError:
        return None
    if s > 60:
        return None
    offset = 0
    if m.group(9):
        offset = (int(m.group(10)) * 60 + int(m.group(11))) * 60
        if m.group(9) == "-":
            offset = -offset
    delta = dt - EPOCH
    seconds = delta.days * 86400 + delta.seconds - offset
    return seconds * 1_000_000_000 + int(frac)


def parse_ms(text):
    """Milliseconds since the epoch (floored), or None."""
    ns = parse_instant_ns(text)
    return None if ns is None else ns // 1_000_000


def is_utc_timestamp(text):
    return isinstance(text, str) and UTC_Z.match(text) is not None and parse_instant_ns(text) is not None


def format_ms(ms):
    dt = EPOCH + timedelta(milliseconds=ms)
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (ms % 1000)


class Clock:
    """Starts at the system time; the harness owns it after clock.set."""

    def __init__(self):
        self.ms = int(time.time() * 1000)

    def now_ms(self):
        return self.ms

    def now(self):
        return format_ms(self.ms)

    def set(self, params):
        ms = parse_ms(params.get("now"))
        if ms is None:
            raise InvalidParams("clock.set: now must be an RFC 3339 timestamp")
        self.ms = ms
        return {"now": self.now()}

    def advance(self, params):
        delta = params.get("ms")
        if isinstance(delta, bool) or not isinstance(delta, (int, float)):
            raise InvalidParams("clock.advance: ms must be a number")
        self.ms += int(delta)
        return {"now": self.now()}
