"""The schema layer of `validate`: jsonschema (pinned, agent_ref/pin.py) over schemas/contracts.

docs/spec/index.md#schema-failures: every failing keyword is one issue `SCHEMA_<KEYWORD>` at the
JSON Pointer of the instance it is evaluated on (jsonschema's `absolute_path`: the object for
`required` and `additionalProperties`, the array for `minItems`, the value for the rest); a
failing `anyOf` is reported itself, and the failures inside its branches as well (rule 3 allows
them). Two things jsonschema leaves to the caller are set here: `format: date-time` is the
accepted form of docs/spec/index.md#timestamps, and `pattern` is read with ECMA-262 semantics
(draft-07 section 4.3), which Python's `re` differs from in `\\b`, `\\d`, `\\s`, `\\w`, `.` and `$`.
"""

import json
import os
import re

from jsonschema import Draft7Validator, FormatChecker, validators
from jsonschema.exceptions import ValidationError

from .catalogue import SCHEMA_DIR, contracts, known  # noqa: F401 (re-exported)
from .clock import parse_instant_ns
from .ecma_regex import ecma_pattern

CODES = {
    "type": "SCHEMA_TYPE",
    "required": "SCHEMA_REQUIRED",
    "additionalProperties": "SCHEMA_ADDITIONAL_PROPERTY",
    "const": "SCHEMA_CONST",
    "enum": "SCHEMA_ENUM",
    "pattern": "SCHEMA_PATTERN",
    "format": "SCHEMA_FORMAT",
    "minLength": "SCHEMA_MIN_LENGTH",
    "maxLength": "SCHEMA_MAX_LENGTH",
    "minimum": "SCHEMA_MINIMUM",
    "maximum": "SCHEMA_MAXIMUM",
    "exclusiveMinimum": "SCHEMA_EXCLUSIVE_MINIMUM",
    "exclusiveMaximum": "SCHEMA_EXCLUSIVE_MAXIMUM",
    "multipleOf": "SCHEMA_MULTIPLE_OF",
    "minItems": "SCHEMA_MIN_ITEMS",
    "maxItems": "SCHEMA_MAX_ITEMS",
    "uniqueItems": "SCHEMA_UNIQUE_ITEMS",
    "additionalItems": "SCHEMA_ADDITIONAL_ITEMS",
    "contains": "SCHEMA_CONTAINS",
    "minProperties": "SCHEMA_MIN_PROPERTIES",
    "maxProperties": "SCHEMA_MAX_PROPERTIES",
    "propertyNames": "SCHEMA_PROPERTY_NAMES",
    "dependencies": "SCHEMA_DEPENDENCIES",
    "anyOf": "SCHEMA_ANY_OF",
    "oneOf": "SCHEMA_ONE_OF",
    "not": "SCHEMA_NOT",
    "if": "SCHEMA_IF",
    "then": "SCHEMA_IF",
    "else": "SCHEMA_IF",
    None: "SCHEMA_FALSE",
}

_UTC = re.compile(r"^\d{4}-\d{2}-\d{2}T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?Z$", re.ASCII)


def is_timestamp(text):
    """The accepted form of docs/spec/index.md#timestamps: UTC `Z`, a real date and time."""
    if not isinstance(text, str):
        return True
    m = _UTC.match(text)
    if not m or parse_instant_ns(text) is None:
        return False
    h, mi, s = int(m.group(1)), int(m.group(2)), int(m.group(3))
    return h <= 23 and mi <= 59 and (s <= 59 or (s == 60 and h == 23 and mi == 59))


_compiled = {}


def _regex(source):
    if source not in _compiled:
        _compiled[source] = re.compile(ecma_pattern(source))
    return _compiled[source]


def _pattern(validator, patrn, instance, schema):
    if validator.is_type(instance, "string") and not _regex(patrn).search(instance):
        yield ValidationError("%r does not match %r" % (instance, patrn))


_formats = FormatChecker(formats=())
_formats.checks("date-time")(is_timestamp)
_Validator = validators.extend(Draft7Validator, {"pattern": _pattern})
_validators = {}


def _validator(contract):
    if contract not in _validators:
        with open(os.path.join(SCHEMA_DIR, contract + ".schema.json"), encoding="utf-8") as f:
            _validators[contract] = _Validator(json.load(f), format_checker=_formats)
    return _validators[contract]


def pointer(parts, base=""):
    return base + "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def _flatten(errors):
    for e in errors:
        yield e
        if e.context:
            yield from _flatten(e.context)


def issues(contract, document, base=""):
    """Every failing keyword as {code, path}, in jsonschema's order, without repeats."""
    out, seen = [], set()
    for e in _flatten(_validator(contract).iter_errors(document)):
        issue = (CODES.get(e.validator, "SCHEMA_" + re.sub(r"(?<!^)([A-Z])", r"_\1", str(e.validator)).upper()),
                 pointer(e.absolute_path, base))
        if issue not in seen:
            seen.add(issue)
            out.append({"code": issue[0], "path": issue[1]})
    return out
