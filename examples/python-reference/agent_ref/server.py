"""hello, the capability declaration, and the dispatch of every method to its area."""

import hashlib

from . import jcs
from .clock import Clock
from .errors import InvalidParams, MethodNotFound, Refusal
from .state_location import StateLocationError, parse_state_location

PROTOCOL_VERSION = 1
# Capabilities added after protocol v1 was first released (PROTO-600): declared only when installed.
OPTIONAL_CAPABILITIES = ("run", "policy", "delegation", "context")


class Server:
    def __init__(self):
        self.clock = Clock()
        self.areas = {}
        self.crash_points = ()
        self.contracts = []
        self.bundles = []
        self.on_hello = []
        self.methods = {
            "hello": self.hello,
            "shutdown": lambda params: None,
            "digest": digest,
            "clock.set": self.clock.set,
            "clock.advance": self.clock.advance,
        }

    def capabilities(self):
        def on(name):
            return name in self.areas and self.areas[name]()

        caps = {
            "contracts": list(self.contracts),
            "bundles": list(self.bundles),
            "digest": True,
            "store": on("store"),
            "liveness": on("liveness"),
            "checkpoint": on("checkpoint"),
            "trace": on("trace"),
            "clock": True,
            "crashPoints": list(self.crash_points) if on("store") else [],
        }
        for name in OPTIONAL_CAPABILITIES:
            if name in self.areas:
                caps[name] = on(name)
        return caps

    def add_area(self, name, methods, available=None, points=()):
        """Declare a capability; `available()` may withdraw it for a state location it cannot use."""
        self.areas[name] = available or (lambda: True)
        self.methods.update(methods)
        if points:
            self.crash_points = tuple(points)

    def hello(self, params):
        if params.get("protocolVersion") != PROTOCOL_VERSION:
            raise Refusal("PROTOCOL_VERSION_UNSUPPORTED", "this implementation speaks protocol 1 only")
        self.state_location = params.get("stateLocation")
        try:
            parse_state_location(self.state_location)
        except StateLocationError as e:  # names no store (PROTO-550)
            raise Refusal(e.code, str(e)) from None
        local = params.get("localDirectory")
        if not isinstance(local, str):
            # PROTO-004: with a directory stateLocation, host-local state lives there as well.
            named = parse_state_location(self.state_location)
            local = named["path"] if named["kind"] == "directory" else None
        self.local_directory = local
        for hook in self.on_hello:
            hook(self.state_location, self.local_directory)
        return {
            "name": "agent-contracts python-reference",
            "version": "1.0.0",
            "language": "python",
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": self.capabilities(),
        }

    def handle(self, method, params):
        fn = self.methods.get(method)
        if fn is None:
            raise MethodNotFound("method " + method + " is not implemented")
        if not isinstance(params, dict):
            raise InvalidParams(method + ": params must be an object")
        return fn(params)


def digest(params):
    text = params.get("json")
    if not isinstance(text, str):
        raise InvalidParams("digest: params.json must be JSON text")
    canonical = jcs.canonicalize(jcs.parse_ijson(text))
    return {"canonical": canonical, "sha256": hashlib.sha256(canonical.encode("utf-8")).hexdigest()}
