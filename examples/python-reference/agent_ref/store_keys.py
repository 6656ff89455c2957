"""Task keys and fences as the commit algorithm's step 1 checks them (D-TCW-32, D-TCW-25)."""

import re

from .errors import Refusal

TASK_ID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
HEX64 = re.compile(r"^[a-f0-9]{64}$")
OP_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$")
KIND = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


def is_hex64(v):
    return isinstance(v, str) and HEX64.match(v) is not None


def is_int(v, minimum=0):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    return float(v).is_integer() and minimum <= v <= 2**53 - 1


def check_task_key(task_id, project_root):
    if not (isinstance(task_id, str) and TASK_ID.match(task_id) and is_hex64(project_root)):
        raise Refusal("LIFECYCLE_TASK_IDENTITY_REQUIRED",
                      "a task key needs taskId (a lowercase UUID) and projectRootIdentity (64 lowercase hex)", ok=False)


def check_fence(f):
    ok = isinstance(f, dict) and set(f) == {"schemaVersion", "stateSequence", "writerGeneration"} and \
        f["schemaVersion"] == "TaskRecoveryCommitFenceV1" and is_int(f["stateSequence"]) and \
        is_int(f["writerGeneration"])
    # Only the document's schema: an impossible pair such as (1, 2) is a fence no envelope has, so
    # the compare of step 5 refuses it with LIFECYCLE_STATE_FENCE_MISMATCH, as the cases expect
    # (SPEC-GAPS.md: D-TCW-25 says LIFECYCLE_STATE_FENCE_REQUIRED).
    if not ok:
        raise Refusal("LIFECYCLE_STATE_FENCE_REQUIRED",
                      "expectedFence must be a TaskRecoveryCommitFenceV1 of two non-negative integers", ok=False)
