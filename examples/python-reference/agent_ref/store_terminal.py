"""Terminal closeout checks 4-6 and the receipt (WorkflowTaskTerminalReceiptV1#terminal-closeout).

Evidence paths resolve against the conformance project root (docs/protocol.md "Terminal
evidence"); files are read by the store itself, bounded, regular files only (D-TCW-31).
"""

import hashlib
import os
import re
import stat

from .errors import Refusal
from .store_documents import LINEAGE_WINDOW, sealed
from .store_keys import is_hex64, is_int

ROLES = ("change-record", "completion", "memory", "report")
PATH = re.compile(r"^(?!\.\.?(?:/|$))[^/\\\x00-\x1f]+(?:/(?!\.\.?(?:/|$))[^/\\\x00-\x1f]+)*$")
MAX_EVIDENCE_BYTES = 64 * 1024 * 1024
PROJECT_ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "conformance-project")


def _refuse(code, message, **data):
    return Refusal(code, message, ok=False, **data)


def _read_exact(path, item):
    """Hash at most bytes + 1 bytes of a regular file; the refusal codes of check 6."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        raise _refuse("TASK_TERMINAL_EVIDENCE_FILE_INVALID", "an evidence file is missing or unreadable")
    try:
        before = os.fstat(fd)
        if not stat.S_ISREG(before.st_mode) or before.st_size < 1:
            raise _refuse("TASK_TERMINAL_EVIDENCE_FILE_INVALID", "evidence must be a non-empty regular file")
        want = item["bytes"]
        h = hashlib.sha256()
        n = 0
        while n <= want:
            chunk = os.read(fd, min(1 << 20, want + 1 - n))
            if not chunk:
                break
            h.update(chunk)
            n += len(chunk)
        after = os.fstat(fd)
    finally:
        os.close(fd)
    if n > want:
        if before.st_size <= want:
            raise _refuse("TASK_TERMINAL_EVIDENCE_FILE_DRIFT", "an evidence file grew while it was read")
        raise _refuse("TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH", "an evidence file is larger than its item says")
    if (after.st_size, after.st_mtime_ns) != (before.st_size, before.st_mtime_ns):
        raise _refuse("TASK_TERMINAL_EVIDENCE_FILE_DRIFT", "an evidence file changed while it was read")
    if n != want or h.hexdigest() != item["sha256"]:
        raise _refuse("TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH", "an evidence file's SHA-256 or length differs from its item")


def check_evidence(evidence):
    items = evidence
    well_formed = all(isinstance(i, dict) and set(i) == {"role", "path", "sha256", "bytes"} for i in items)
    if not well_formed or [i["role"] for i in items] != list(ROLES):
        raise _refuse("TASK_TERMINAL_EVIDENCE_INCOMPLETE", "exactly four evidence items, one per role, sorted by role")
    paths = [i["path"] for i in items]
    if len(set(map(str, paths))) != len(paths):
        raise _refuse("TASK_TERMINAL_EVIDENCE_DUPLICATE", "two evidence items name the same path")
    # The list checks run over every item before any file is read (TCW-523).
    for item in items:
        path = item["path"]
        if not isinstance(path, str) or len(path) > 1024 or not PATH.match(path):
            raise _refuse("TASK_TERMINAL_EVIDENCE_PATH_INVALID", "an evidence path must be relative and normalised")
    root = os.path.realpath(PROJECT_ROOT)
    for item in items:
        path = item["path"]
        if not is_hex64(item["sha256"]) or not is_int(item["bytes"], 1):
            raise Refusal("TASK_TERMINAL_INPUT_INVALID", "an evidence item's sha256 or bytes is malformed", ok=False)
        resolved = os.path.realpath(os.path.join(root, path))
        if os.path.commonpath([root, resolved]) != root:
            raise _refuse("TASK_TERMINAL_EVIDENCE_SCOPE_INVALID", "an evidence path resolves outside the project root")
        try:
            st = os.stat(resolved)
        except OSError:
            raise _refuse("TASK_TERMINAL_EVIDENCE_FILE_INVALID", "an evidence file is missing")
        if not stat.S_ISREG(st.st_mode) or st.st_size < 1:
            raise _refuse("TASK_TERMINAL_EVIDENCE_FILE_INVALID", "evidence must be a non-empty regular file")
        if item["bytes"] > MAX_EVIDENCE_BYTES:
            raise _refuse("TASK_TERMINAL_EVIDENCE_FILE_TOO_LARGE", "an evidence item is over this store's 64 MiB limit")
        _read_exact(resolved, item)


def check_closeout(envelope, terminal, context_digest_now):
    """Checks 4-6 (check 3, the holder, is the lease guard's)."""
    if envelope["operations"]["unresolved"] is not None:
        raise _refuse("TASK_TERMINAL_OPERATION_UNSETTLED", "settle, reconcile or abort the unresolved operation first")
    current = {"lifecycleRevision": envelope["lifecycleRevision"],
               "settledSetDigest": envelope["operations"]["settledSetDigest"],
               "writeContextDigest": context_digest_now}
    if any(terminal[k] != v for k, v in current.items()):
        raise _refuse("TASK_TERMINAL_STATE_CAS_MISMATCH", "the closeout's expectations differ from the current state")
    check_evidence(terminal["evidence"])


def receipt(envelope, terminal, terminal_lease, committed_at):
    prior = envelope["owner"]
    return sealed({
        "schemaVersion": "WorkflowTaskTerminalReceiptV1",
        "taskId": envelope["taskId"],
        "projectRootIdentity": envelope["projectRootIdentity"],
        "terminalStatus": terminal["terminalStatus"],
        "lifecycleRevision": terminal["lifecycleRevision"],
        "expectedStateSequence": envelope["sequence"],
        "expectedWriterGeneration": envelope["writerGeneration"],
        "writeContextDigest": terminal["writeContextDigest"],
        "priorOwnerLeaseDigest": prior["leaseDigest"],
        "terminalOwnerLeaseDigest": terminal_lease["leaseDigest"],
        "ownerGeneration": prior["ownerGeneration"],
        "terminalGeneration": prior["ownerGeneration"] + 1,
        "holderSession": prior["sessionDigest"],
        "settledSetDigest": terminal["settledSetDigest"],
        "evidence": [dict(i) for i in terminal["evidence"]],
        "issuedAt": committed_at,
    }, "receiptDigest")


def lineage_with(lineage, rec):
    entry = {"lifecycleRevision": rec["lifecycleRevision"], "terminalStatus": rec["terminalStatus"],
             "receiptDigest": rec["receiptDigest"], "terminalAt": rec["issuedAt"]}
    return (list(lineage) + [entry])[-LINEAGE_WINDOW:]
