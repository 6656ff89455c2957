"""The state location of hello (docs/protocol.md#hello-v1, PROTO-004, PROTO-550; D-GEN-91).

One meaning wherever a location is read, written from the table of docs/protocol.md:

- None, "memory:", "memory://": no durable state (gone with the process);
- a bare path (no URL scheme; a scheme has two characters at least, so C:\\state is a path): a
  directory, created if missing, holding the implementation's files (this store keeps tasks.db
  there);
- "sqlite:<file>", "sqlite://<file>": that SQLite file;
- "postgres://...", "postgresql://...": a PostgreSQL database, an optional schema=<name>
  parameter (a lowercase SQL identifier, at most 63 characters) naming the schema of the tables.

Anything else (the empty string, another URL scheme, sqlite: without a file, a PostgreSQL URL that
does not parse or whose schema is not a lowercase identifier) names no store: StateLocationError,
STATE_LOCATION_INVALID, with a message listing the forms above.
"""

import json
import re
from urllib.parse import parse_qsl, urlencode, urlsplit

STATE_LOCATION_INVALID = "STATE_LOCATION_INVALID"
DIRECTORY_SQLITE_FILE = "tasks.db"
FORMS = "use a directory path, memory:, sqlite:<file> or postgres://host/db"

_SCHEMA = re.compile(r"[a-z_][a-z0-9_]{0,62}")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]+:")
_POSTGRES = re.compile(r"postgres(ql)?://")
_SQLITE = re.compile(r"sqlite:(//)?(.*)")
# What an empty location is made of: the white space and line terminators of ECMAScript, so that a
# location is empty here exactly when it is to the TypeScript parser.
_BLANK = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" \
         "\u2028\u2029\u202f\u205f\u3000\ufeff"


class StateLocationError(Exception):
    """A state location that names no store."""

    code = STATE_LOCATION_INVALID


def _quoted(value):
    return json.dumps(value, ensure_ascii=False)


def _postgres(location):
    try:
        parts = urlsplit(location)
        parts.port  # a port that is not a number in range raises here
    except ValueError:
        raise StateLocationError("the state location %s is not a URL; %s" % (location, FORMS)) from None
    query = parse_qsl(parts.query, keep_blank_values=True)
    schemas = [v for k, v in query if k == "schema"]
    schema = schemas[0] if schemas else None
    if schema is not None and not _SCHEMA.fullmatch(schema):
        raise StateLocationError("schema=%s is not a lowercase SQL identifier ([a-z_][a-z0-9_]*, at most 63 "
                                 "characters)" % _quoted(schema))
    rest = urlencode([(k, v) for k, v in query if k != "schema"])
    url = "%s://%s%s%s%s" % (parts.scheme, parts.netloc, parts.path, "?" + rest if rest else "",
                             "#" + parts.fragment if parts.fragment else "")
    return {"kind": "postgres", "url": url, "schema": schema}


def parse_state_location(location):
    """What a state location names: {"kind": "memory" | "directory" | "sqlite" | "postgres", ...}."""
    if location is None or location in ("memory:", "memory://"):
        return {"kind": "memory"}
    if not isinstance(location, str) or location.strip(_BLANK) == "":
        raise StateLocationError("the state location %s is empty; %s" % (_quoted(location), FORMS))
    if _POSTGRES.match(location):
        return _postgres(location)
    sqlite = _SQLITE.fullmatch(location)
    if sqlite:
        if sqlite.group(2) == "":
            raise StateLocationError("the state location %s names no SQLite file; %s" % (location, FORMS))
        return {"kind": "sqlite", "path": sqlite.group(2)}
    if _SCHEME.match(location):
        raise StateLocationError("the state location %s names no store; %s" % (_quoted(location), FORMS))
    return {"kind": "directory", "path": location}
