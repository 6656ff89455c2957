#!/usr/bin/env python3
"""A second implementation of the conformance protocol, in Python with the standard library only.

It implements `digest` (RFC 8785 JCS + SHA-256, docs/protocol.md#digest-v1) and nothing else, so
`agent-contracts conform` runs the digest vectors against it and reports every other case as not
applicable. It exists to show that the kit judges any language through protocol v1, and as the
smallest starting point for an implementer: newline-delimited JSON-RPC 2.0 on stdin/stdout, logs on
stderr.

    agent-contracts conform --impl "python3 examples/python-digest/impl.py"
"""

import hashlib
import json
import math
import sys

PROTOCOL_VERSION = 1
SPEC_ERROR = -32000


class Refusal(Exception):
    """A spec refusal: answered as -32000 with data.code."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


class InvalidParams(Exception):
    """Malformed params: answered as -32602."""


# --- RFC 8785 -------------------------------------------------------------------------------


def es_number(x):
    """ECMAScript Number::toString of a finite double, which RFC 8785 section 3.2.2.3 prescribes.

    Python's repr gives the shortest digits that round-trip, as ECMAScript does; only the layout
    (where the point goes, when an exponent is used and how it is written) differs.
    """
    if math.isnan(x) or math.isinf(x):
        raise Refusal("DIGEST_INPUT_INVALID", "NaN and infinite numbers have no JSON form")
    if x == 0:
        return "0"  # also -0
    if x < 0:
        return "-" + es_number(-x)
    mantissa, _, exp = repr(x).partition("e")
    whole, _, frac = mantissa.partition(".")
    s = str(int(whole + frac))  # the significant digits, without leading zeros
    t = s.rstrip("0")
    # x = int(t) * 10^(exponent - len(frac) + trailing zeros) = 0.<t> * 10^n
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
    """A string as RFC 8785 writes it; a lone surrogate is not I-JSON and is refused."""
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
    # Property names sort by their UTF-16 code units (RFC 8785 section 3.2.3), not code points.
    return s.encode("utf-16-be", "surrogatepass")


def canonicalize(value):
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, float):
        return es_number(value)
    if isinstance(value, str):
        return es_string(value)
    if isinstance(value, list):
        return "[" + ",".join(canonicalize(v) for v in value) + "]"
    if isinstance(value, dict):
        keys = sorted(value.keys(), key=utf16_key)
        return "{" + ",".join(es_string(k) + ":" + canonicalize(value[k]) for k in keys) + "}"
    raise Refusal("DIGEST_INPUT_INVALID", "not a JSON value")


def unique_members(pairs):
    # I-JSON (RFC 7493 section 2.3): an object that repeats a member name is refused, never
    # read last-wins as json.loads does by default.
    seen = set()
    for key, _ in pairs:
        if key in seen:
            raise Refusal("DIGEST_INPUT_INVALID", "an object repeats the member name " + json.dumps(key))
        seen.add(key)
    return dict(pairs)


def reject_constant(name):
    raise Refusal("DIGEST_INPUT_INVALID", name + " is not JSON")


def parse(text):
    # Every number is an IEEE 754 double, as I-JSON and JavaScript read it (9007199254740993
    # becomes 9007199254740992); NaN and Infinity are not JSON.
    try:
        return json.loads(
            text,
            parse_int=float,
            parse_float=float,
            parse_constant=reject_constant,
            object_pairs_hook=unique_members,
        )
    except Refusal:
        raise
    except (ValueError, RecursionError) as e:
        raise Refusal("DIGEST_INPUT_INVALID", "params.json is not JSON: " + str(e)) from None


# --- protocol v1 --------------------------------------------------------------------------------


def hello(params):
    if params.get("protocolVersion") != PROTOCOL_VERSION:
        raise Refusal("PROTOCOL_VERSION_UNSUPPORTED", "this implementation speaks protocol 1 only")
    return {
        "name": "agent-contracts python-digest example",
        "version": "1.0.0",
        "language": "python",
        "protocolVersion": PROTOCOL_VERSION,
        "capabilities": {
            "contracts": [],
            "bundles": [],
            "digest": True,
            "store": False,
            "liveness": False,
            "checkpoint": False,
            "trace": False,
            "clock": False,
            "crashPoints": [],
        },
    }


def digest(params):
    text = params.get("json")
    if not isinstance(text, str):
        raise InvalidParams("digest: params.json must be JSON text")
    canonical = canonicalize(parse(text))
    return {"canonical": canonical, "sha256": hashlib.sha256(canonical.encode("utf-8")).hexdigest()}


METHODS = {"hello": hello, "digest": digest, "shutdown": lambda params: None}


def answer(request):
    rid = request.get("id")
    method = request.get("method")
    if not isinstance(method, str):
        return {"jsonrpc": "2.0", "id": rid, "error": {"code": -32600, "message": "method must be a string"}}
    fn = METHODS.get(method)
    if fn is None:
        return {"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "method " + method + " is not implemented"}}
    params = request.get("params")
    if not isinstance(params, dict):
        params = {}
    try:
        return {"jsonrpc": "2.0", "id": rid, "result": fn(params)}
    except Refusal as r:
        return {"jsonrpc": "2.0", "id": rid, "error": {"code": SPEC_ERROR, "message": str(r), "data": {"code": r.code}}}
    except InvalidParams as e:
        return {"jsonrpc": "2.0", "id": rid, "error": {"code": -32602, "message": str(e)}}


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        request = None
        try:
            request = json.loads(line)
        except ValueError:
            reply = {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "parse error"}}
        else:
            reply = answer(request) if isinstance(request, dict) else {
                "jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "a request is a JSON object"}}
        # ensure_ascii keeps the reply ASCII whatever the canonical text holds (lone surrogates
        # never get here: they are refused).
        sys.stdout.write(json.dumps(reply, ensure_ascii=True) + "\n")
        sys.stdout.flush()
        if isinstance(request, dict) and request.get("method") == "shutdown":
            return


if __name__ == "__main__":
    main()
