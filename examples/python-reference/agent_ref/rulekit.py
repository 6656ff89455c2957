"""What every rule module of `validate` shares: issues, pointers, digests, timestamps.

A contract's check is a function `check(doc, out)` over a schema-valid document that appends
issues with `out.add(code, path...)`; a bundle's check is `check(documents, out, judge)`, where
`judge(document, contract, i)` validates one document of the bundle and tells whether it is valid.
"""

from . import jcs
from .clock import parse_instant_ns


def ptr(*parts):
    """JSON Pointer of the parts: ptr("a", 0, "b") is "/a/0/b"."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


class Issues:
    def __init__(self, base=""):
        self.base = base
        self.items = []
        self._seen = set()

    def add(self, code, *path):
        """One issue; path is a JSON Pointer string or the parts of one."""
        p = path[0] if len(path) == 1 and isinstance(path[0], str) and (path[0] == "" or path[0].startswith("/")) else ptr(*path)
        key = (code, self.base + p)
        if key not in self._seen:
            self._seen.add(key)
            self.items.append({"code": code, "path": self.base + p})

    def extend(self, issues):
        for i in issues:
            key = (i["code"], i["path"])
            if key not in self._seen:
                self._seen.add(key)
                self.items.append(i)

    def __len__(self):
        return len(self.items)


def digest(value):
    return jcs.digest_of(value)


def derived(prefix, value, n=24):
    return prefix + jcs.digest_of(value)[:n]


def without(doc, *names):
    return {k: v for k, v in doc.items() if k not in names}


def pick(doc, *names):
    return {k: doc.get(k) for k in names}


def check_digest(out, doc, field, expected, code="DIGEST_MISMATCH", path=None):
    """A digest or derived-id field that must equal its recomputation."""
    if doc.get(field) != expected:
        out.add(code, path if path is not None else ptr(field))


def instant(text):
    """Nanoseconds of a timestamp (full written precision, docs/spec/index.md#timestamps)."""
    return parse_instant_ns(text)


def before(a, b):
    """Timestamp a is strictly earlier than b (instants)."""
    return instant(a) < instant(b)


def is_sorted_unique(values, key=None):
    keys = [jcs.utf16_key(key(v) if key else v) for v in values]
    return all(keys[i] < keys[i + 1] for i in range(len(keys) - 1))


def is_sorted(values, key=None):
    keys = [jcs.utf16_key(key(v) if key else v) for v in values]
    return all(keys[i] <= keys[i + 1] for i in range(len(keys) - 1))


def utf16_sorted(values, key=None):
    return sorted(values, key=lambda v: jcs.utf16_key(key(v) if key else v))


def nesting(value):
    """Levels of objects and arrays: a scalar is 0, `{}` is 1, `{"a": []}` is 2."""
    if isinstance(value, dict):
        return 1 + max((nesting(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((nesting(v) for v in value), default=0)
    return 0


def jcs_bytes(value):
    return len(jcs.canonicalize(value).encode("utf-8"))


def ecma_regex_compiles(source):
    """Whether `source` compiles as an ECMAScript pattern with the `u` flag (as far as Python's
    `re`, read through the ECMA-262 translation of the schema layer, can tell)."""
    import re

    from .ecma_regex import ecma_pattern

    if "(?P" in source or "(?#" in source or "\\Z" in source or "\\A" in source:
        return False
    try:
        re.compile(ecma_pattern(source))
    except (re.error, OverflowError, RecursionError):
        return False
    return True


def duplicates(items, key):
    """Indexes of the items whose key an earlier item already had."""
    seen, later = set(), []
    for i, item in enumerate(items):
        k = jcs.canonicalize(key(item))
        if k in seen:
            later.append(i)
        seen.add(k)
    return later


# docs/spec/ai-agent-system-architecture-gate.md#document-id-fields: the id field of a referenced
# document; every other contract has none.
DOCUMENT_ID_FIELDS = {
    "ContextReadPlanV1": "planId",
    "ContextReadPlanV2": "planId",
    "ContextReadReceiptV1": "receiptId",
    "ContextReadReceiptV2": "receiptId",
    "ContextReuseDecisionV1": "decisionId",
    "ContextSourceObservationLedgerV1": "ledgerId",
    "TaskOperationRecordV1": "operationId",
    "LocalTaskTraceV1": "traceId",
    "LocalTaskTraceReplayV1": "traceId",
    "AgentCapabilityDomainMatrixV1": "matrixId",
    "EvidenceMatrixV1": "matrixId",
    "AiAgentSystemArchitectureReportV1": "reportId",
    "AiAgentSystemArchitectureReportV2": "reportId",
    "EvaluationReportV1": "reportId",
    "CapabilitySurfaceEvidenceV1": "evidenceId",
    "AgentRouteDecisionV1": "decisionId",
    "PermissionDecisionV1": "decisionId",
    "ContextMemoryModelV1": "modelId",
    "ToolPermissionBoundaryV1": "boundaryId",
    "HumanInLoopBoundaryV1": "boundaryId",
    "RepairRoleBoundaryV1": "boundaryId",
    "TaskContractV1": "taskId",
    "ToolContractV1": "toolContractId",
    "RunStateV1": "runId",
    "DelegationContractV1": "delegationId",
}


def resolve_ref(ref, documents):
    """The document a ContractDocumentRef names among `documents`: its contract, digestOf the whole
    document, and its id field when `documentId` is set; None when none matches."""
    for d in documents:
        if not isinstance(d, dict) or d.get("schemaVersion") != ref["contract"]:
            continue
        if digest(d) != ref["documentDigest"]:
            continue
        if ref.get("documentId") is not None:
            field = DOCUMENT_ID_FIELDS.get(ref["contract"])
            if field is None or d.get(field) != ref["documentId"]:
                continue
        return d
    return None
