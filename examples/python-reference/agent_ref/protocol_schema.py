"""The published params schemas of schemas/protocol: a request that breaks its schema is -32602.

Checked with the draft-07 subset of schema_check.py; a `$ref` to a contract is judged by the
method itself (run.step's state, delegate's parent), so only schemas without one are used whole.
"""

import json
import os

from . import schema_check
from .errors import InvalidParams

PROTOCOL_DIR = os.path.join(os.path.dirname(schema_check.SCHEMA_DIR), "protocol")
_cache = {}


def load(name):
    if name not in _cache:
        with open(os.path.join(PROTOCOL_DIR, name + ".schema.json"), encoding="utf-8") as f:
            _cache[name] = json.load(f)
    return _cache[name]


def violations(schema, value):
    return schema_check.check(schema, value)


def require(name, params, method, schema=None):
    """Raise -32602 when params break the schema `name` (or the given part of it)."""
    found = violations(schema if schema is not None else load(name), params)
    if found:
        path, keyword = found[0]
        raise InvalidParams("%s: params%s break %s (%s)" % (method, path, name, keyword))
