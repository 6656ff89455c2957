"""The credential value shapes of docs/spec/permission-policy-gate.md#credentials.

A string, or a member name, that has one of these shapes is taken for a credential value. The
patterns are the page's table, with ASCII word boundaries (`\\b` as ECMAScript reads it).
"""

import re

_A = re.ASCII
SHAPES = (
    ("PEM private key", re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----", _A)),
    ("AWS access key id", re.compile(r"\bA(?:KIA|SIA)[0-9A-Z]{16}\b", _A)),
    ("GitHub token", re.compile(r"\bgh[pousr]_[A-Za-z0-9]{30,}\b", _A)),
    ("API secret key (sk-)", re.compile(r"\bsk-[A-Za-z0-9_-]{20,}", _A)),
    ("Slack token", re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}", _A)),
    ("JSON Web Token", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+", _A)),
    ("bearer token", re.compile(r"\bBearer\s+[A-Za-z0-9._~+/-]{16,}", _A)),
    ("password or secret assignment",
     re.compile(r"\b(?:password|passwd|secret|api[_-]?key|access[_-]?token)\s*[=:]\s*\S{6,}", _A | re.IGNORECASE)),
)


def has_shape(text):
    return any(p.search(text) for _, p in SHAPES)


def _pointer(path, key):
    return path + "/" + str(key).replace("~", "~0").replace("/", "~1")


def credential_pointers(value, path="", out=None, limit=16):
    """JSON Pointers of the strings (and member names) with a credential shape, depth-first in document order."""
    out = [] if out is None else out
    if len(out) >= limit:
        return out
    if isinstance(value, str):
        if has_shape(value):
            out.append(path)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            credential_pointers(v, _pointer(path, i), out, limit)
    elif isinstance(value, dict):
        for k, v in value.items():
            here = _pointer(path, k)
            if has_shape(k) and len(out) < limit:
                out.append(here)
            credential_pointers(v, here, out, limit)
    return out[:limit]


def first_credential_shape(value):
    found = credential_pointers(value, limit=1)
    return found[0] if found else None
