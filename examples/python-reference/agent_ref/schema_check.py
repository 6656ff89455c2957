"""A draft-07 subset validator for the published schemas of schemas/contracts.

Only the keywords those schemas use (checked by the test suite): type, enum, const, pattern,
min/maxLength, minimum, maximum, required, properties, additionalProperties, items, min/maxItems,
uniqueItems, maxProperties, anyOf, format date-time. Returns issues as (JSON Pointer, keyword).
"""

import json
import os
import re

from . import jcs
from .clock import parse_instant_ns

SCHEMA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "schemas", "contracts")
_cache = {}
_patterns = {}


def load(contract):
    if contract not in _cache:
        with open(os.path.join(SCHEMA_DIR, contract + ".schema.json"), encoding="utf-8") as f:
            _cache[contract] = json.load(f)
    return _cache[contract]


def _type_ok(value, t):
    if t == "null":
        return value is None
    if t == "boolean":
        return isinstance(value, bool)
    if t == "object":
        return isinstance(value, dict)
    if t == "array":
        return isinstance(value, list)
    if t == "string":
        return isinstance(value, str)
    if t == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if t == "integer":
        return isinstance(value, (int, float)) and not isinstance(value, bool) and float(value).is_integer()
    return False


def _pattern(p):
    if p not in _patterns:
        _patterns[p] = re.compile(p, re.ASCII)
    return _patterns[p]


def _json_eq(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return a == b


def _pointer(path, key):
    return path + "/" + str(key).replace("~", "~0").replace("/", "~1")


def check(schema, value, path="", issues=None):
    issues = [] if issues is None else issues
    if "anyOf" in schema:
        if not any(not check(s, value, path) for s in schema["anyOf"]):
            issues.append((path, "anyOf"))
        return issues
    t = schema.get("type")
    if t is not None:
        types = t if isinstance(t, list) else [t]
        if not any(_type_ok(value, x) for x in types):
            issues.append((path, "type"))
            return issues
    if "const" in schema and not _json_eq(value, schema["const"]):
        issues.append((path, "const"))
    if "enum" in schema and not any(_json_eq(value, e) for e in schema["enum"]):
        issues.append((path, "enum"))
    if isinstance(value, str):
        if "minLength" in schema and len(value) < schema["minLength"]:
            issues.append((path, "minLength"))
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            issues.append((path, "maxLength"))
        if "pattern" in schema and not _pattern(schema["pattern"]).search(value):
            issues.append((path, "pattern"))
        if schema.get("format") == "date-time" and parse_instant_ns(value) is None:
            issues.append((path, "format"))
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            issues.append((path, "minimum"))
        if "maximum" in schema and value > schema["maximum"]:
            issues.append((path, "maximum"))
    if isinstance(value, list):
        if "minItems" in schema and len(value) < schema["minItems"]:
            issues.append((path, "minItems"))
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            issues.append((path, "maxItems"))
        if schema.get("uniqueItems"):
            seen = set()
            for v in value:
                k = jcs.canonicalize(v) if not jcs.has_lone_surrogate(v) else repr(v)
                if k in seen:
                    issues.append((path, "uniqueItems"))
                    break
                seen.add(k)
        items = schema.get("items")
        if isinstance(items, dict):
            for i, v in enumerate(value):
                check(items, v, _pointer(path, i), issues)
    if isinstance(value, dict):
        if "maxProperties" in schema and len(value) > schema["maxProperties"]:
            issues.append((path, "maxProperties"))
        for name in schema.get("required", []):
            if name not in value:
                issues.append((path, "required"))
        props = schema.get("properties", {})
        for k, v in value.items():
            if k in props:
                check(props[k], v, _pointer(path, k), issues)
            elif schema.get("additionalProperties") is False:
                issues.append((path, "additionalProperties"))
    return issues


def check_contract(contract, value):
    return check(load(contract), value)
