"""RFC 8785 (JCS) canonical JSON and SHA-256, the one digest rule of the spec.

Taken over from examples/python-digest, which passes every vector of conformance/vectors/jcs.json.
Values handled here are Python values as `json.loads` gives them; integers are written as
ECMAScript writes the same double.
"""

import hashlib
import json
import math

from .errors import Refusal


def es_number(x):
    """ECMAScript Number::toString of a finite double (RFC 8785 section 3.2.2.3)."""
    if isinstance(x, int):
        if abs(x) < 2**53:
            return str(x) if abs(x) < 10**21 else es_number(float(x))
        x = float(x)
    if math.isnan(x) or math.isinf(x):
        raise Refusal("DIGEST_INPUT_INVALID", "NaN and infinite numbers have no JSON form")
    if x == 0:
        return "0"
    if x < 0:
        return "-" + es_number(-x)
    mantissa, _, exp = repr(x).partition("e")
    whole, _, frac = mantissa.partition(".")
    s = str(int(whole + frac))
    t = s.rstrip("0")
    k = len(t)
    n = (int(exp) if exp else 0) - len(frac) + (len(s) - k) + k
    s = t
    if k <= n <= 21:
        return s + "0" * (n - k)
    if 0 < n <= 21:
        return s[:n] + "." + s[n:]
    if -6 < n <= 0:
        return "0." + "0" * (-n) + s
    e = n - 1
    sign = "+" if e >= 0 else "-"
    return (s if k == 1 else s[0] + "." + s[1:]) + "e" + sign + str(abs(e))


SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def es_string(s):
    out = ['"']
    for ch in s:
        c = ord(ch)
        if 0xD800 <= c <= 0xDFFF:
            raise Refusal("DIGEST_INPUT_INVALID", "a string holds a lone surrogate, which is not I-JSON")
        if ch in SHORT_ESCAPES:
            out.append(SHORT_ESCAPES[ch])
        elif c < 0x20:
            out.append("\\u%04x" % c)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def utf16_key(s):
    # Property names sort by UTF-16 code units (RFC 8785 section 3.2.3), not code points.
    return s.encode("utf-16-be", "surrogatepass")


def canonicalize(value):
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return es_number(value)
    if isinstance(value, str):
        return es_string(value)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(canonicalize(v) for v in value) + "]"
    if isinstance(value, dict):
        keys = sorted(value.keys(), key=utf16_key)
        return "{" + ",".join(es_string(k) + ":" + canonicalize(value[k]) for k in keys) + "}"
    raise Refusal("DIGEST_INPUT_INVALID", "not a JSON value")


def sha256_hex(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def digest_of(value):
    """Lowercase hex SHA-256 of the UTF-8 bytes of the JCS form of value."""
    return sha256_hex(canonicalize(value))


def has_lone_surrogate(value):
    """True when a string anywhere in value (keys included) is not valid Unicode."""
    try:
        canonicalize(value)
    except Refusal:
        return True
    return False


def _unique_members(pairs):
    # I-JSON (RFC 7493 section 2.3): an object that repeats a member name is refused, never
    # read last-wins as json.loads does by default.
    seen = set()
    for key, _ in pairs:
        if key in seen:
            raise Refusal("DIGEST_INPUT_INVALID", "an object repeats the member name " + json.dumps(key))
        seen.add(key)
    return dict(pairs)


def _reject_constant(name):
    raise Refusal("DIGEST_INPUT_INVALID", name + " is not JSON")


def parse_ijson(text):
    """Parse as I-JSON reads it: every number an IEEE 754 double."""
    try:
        return json.loads(
            text,
            parse_int=float,
            parse_float=float,
            parse_constant=_reject_constant,
            object_pairs_hook=_unique_members,
        )
    except Refusal:
        raise
    except (ValueError, RecursionError) as e:
        raise Refusal("DIGEST_INPUT_INVALID", "params.json is not JSON: " + str(e)) from None
