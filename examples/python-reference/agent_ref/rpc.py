"""Protocol v1 framing: newline-delimited JSON-RPC 2.0 on stdin/stdout, logs on stderr."""

import json
import sys

from .errors import SPEC_ERROR, InvalidParams, MethodNotFound, Refusal


def _error(rid, code, message, data=None):
    err = {"code": code, "message": message}
    if data is not None:
        err["data"] = data
    return {"jsonrpc": "2.0", "id": rid, "error": err}


def answer(handle, request):
    """The response to one request object; handle(method, params) gives the result or raises."""
    rid = request.get("id")
    method = request.get("method")
    if not isinstance(method, str):
        return _error(rid, -32600, "method must be a string")
    params = request.get("params")
    if params is None:
        params = {}
    try:
        return {"jsonrpc": "2.0", "id": rid, "result": handle(method, params)}
    except Refusal as r:
        data = dict(r.data)
        data["code"] = r.code
        return _error(rid, SPEC_ERROR, str(r), data)
    except InvalidParams as e:
        return _error(rid, -32602, str(e))
    except MethodNotFound as e:
        return _error(rid, -32601, str(e))


def write(reply):
    # ensure_ascii keeps every reply ASCII; a lone surrogate inside a string is written as \udxxx.
    sys.stdout.write(json.dumps(reply, ensure_ascii=True, allow_nan=False, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def serve(handle):
    """Answer requests until shutdown or end of input."""
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except (ValueError, RecursionError):
            write(_error(None, -32700, "parse error"))
            continue
        if not isinstance(request, dict):
            write(_error(None, -32600, "a request is a JSON object"))
            continue
        try:
            reply = answer(handle, request)
        except Exception as e:  # a bug of ours: answer it rather than die without a reply
            print("internal error: %r" % (e,), file=sys.stderr)
            import traceback

            traceback.print_exc(file=sys.stderr)
            reply = _error(request.get("id"), -32603, "internal error: " + type(e).__name__)
        write(reply)
        if request.get("method") == "shutdown":
            return
