"""Host-local documents (the current trace, the turn liveness state) kept as one JSON file each.

A write is atomic and durable before it returns (A11 of the trace page; "persist after every
change" of the liveness protocol): the new text goes to a temporary file in the same directory,
which is fsynced, renamed over the old one, and the directory is fsynced so the rename survives
a power cut or kill -9.
"""

import json
import os

UNREADABLE = object()  # a stored file that is not JSON text


def read(path):
    """The stored JSON value, None when there is no file, or UNREADABLE."""
    if path is None:
        return None
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        return None
    try:
        return json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        return UNREADABLE


def write(path, value):
    if path is None:
        return
    directory = os.path.dirname(path)
    os.makedirs(directory, exist_ok=True)
    tmp = path + ".tmp"
    data = json.dumps(value, ensure_ascii=True, separators=(",", ":")).encode("ascii")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    dfd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)
