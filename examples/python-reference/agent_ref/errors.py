"""The three ways a request fails, as docs/protocol.md#framing-and-errors answers them."""

SPEC_ERROR = -32000


class Refusal(Exception):
    """A refusal the spec defines: -32000 with data.code (and any further data members)."""

    def __init__(self, code, message=None, **data):
        super().__init__(message or code)
        self.code = code
        self.data = data


class InvalidParams(Exception):
    """Malformed params: -32602."""


class MethodNotFound(Exception):
    """A method this implementation does not have: -32601."""
