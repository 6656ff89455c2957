"""derivedId: a prefix plus the first n hex characters of digestOf(value) (docs/spec/index.md, conventions 2)."""

from .jcs import digest_of


def derived_id(prefix, value, n=24):
    return prefix + digest_of(value)[:n]
