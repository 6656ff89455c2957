"""Wires the areas into one server and serves protocol v1."""

from . import rpc
from .server import Server


def build():
    server = Server()
    server.on_hello = []
    return server


def main():
    server = build()
    rpc.serve(server.handle)
