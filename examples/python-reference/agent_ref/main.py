"""Wires the areas into one server and serves protocol v1."""

from . import checkpoint, crash, engines, liveness, rpc, store, trace, validate
from .server import Server


def build():
    server = Server()
    server.add_area("checkpoint", checkpoint.methods(server))
    trace.install(server)
    liveness.install(server)
    store.install(server, crash.install(server))
    validate.install(server)
    engines.install(server)
    return server


def main():
    server = build()
    rpc.serve(server.handle)
