"""Durable storage of envelopes in SQLite: WAL journal, synchronous=FULL, BEGIN IMMEDIATE.

A committed transaction is on disk when COMMIT returns (WAL + FULL fsyncs the log at commit), so
an acknowledged commit survives kill -9 and power loss. BEGIN IMMEDIATE takes the database's
write lock before the envelope is read, so two processes on one file are serialised: the second
reads only after the first committed, and its fence check sees the first's envelope.
"""

import json
import os
import sqlite3

from .state_location import DIRECTORY_SQLITE_FILE, parse_state_location

SCHEMA = """
CREATE TABLE IF NOT EXISTS envelopes (
  project_root TEXT NOT NULL,
  task_id TEXT NOT NULL,
  sequence INTEGER NOT NULL,
  envelope TEXT NOT NULL,
  PRIMARY KEY (project_root, task_id, sequence)
)
"""
BUSY_TIMEOUT_S = 8.0


class StoreFailure(Exception):
    """A storage failure that is not a refusal: code, and whether the write may have happened."""

    def __init__(self, code, outcome, message):
        super().__init__(message)
        self.code = code
        self.outcome = outcome


def database_path(state_location):
    """The SQLite file for a state location, ':memory:', or None for a PostgreSQL one (which this
    store cannot use); StateLocationError for a location that names no store (PROTO-550)."""
    location = parse_state_location(state_location)
    if location["kind"] == "memory":
        return ":memory:"
    if location["kind"] == "sqlite":
        return location["path"]
    if location["kind"] == "directory":
        return os.path.join(location["path"], DIRECTORY_SQLITE_FILE)
    return None


def _dump(envelope):
    return json.dumps(envelope, ensure_ascii=True, separators=(",", ":"), allow_nan=False)


class SqliteEnvelopes:
    def __init__(self, path):
        if path != ":memory:":
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        self.db = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA busy_timeout = %d" % int(BUSY_TIMEOUT_S * 1000))
        if path != ":memory:":
            self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute("PRAGMA synchronous = FULL")
        self.db.execute(SCHEMA)

    def _rows(self, sql, args):
        try:
            return self.db.execute(sql, args).fetchall()
        except sqlite3.OperationalError as e:
            raise StoreFailure("STORE_BUSY" if "locked" in str(e) or "busy" in str(e) else "STORE_UNAVAILABLE",
                               "not-applied", str(e)) from None

    def latest(self, key):
        rows = self._rows("SELECT envelope FROM envelopes WHERE project_root = ? AND task_id = ? "
                          "ORDER BY sequence DESC LIMIT 1", key)
        return json.loads(rows[0][0]) if rows else None

    def at(self, key, sequence):
        rows = self._rows("SELECT envelope FROM envelopes WHERE project_root = ? AND task_id = ? AND sequence = ?",
                          key + (sequence,))
        return json.loads(rows[0][0]) if rows else None

    def history(self, key):
        rows = self._rows("SELECT envelope FROM envelopes WHERE project_root = ? AND task_id = ? ORDER BY sequence",
                          key)
        return [json.loads(r[0]) for r in rows]

    def begin(self):
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as e:
            raise StoreFailure("STORE_BUSY", "not-applied", "the task store is busy: " + str(e)) from None

    def rollback(self):
        try:
            self.db.execute("ROLLBACK")
        except sqlite3.OperationalError:
            pass

    def insert(self, envelope):
        try:
            self.db.execute("INSERT INTO envelopes (project_root, task_id, sequence, envelope) VALUES (?, ?, ?, ?)",
                            (envelope["projectRootIdentity"], envelope["taskId"], envelope["sequence"], _dump(envelope)))
        except sqlite3.IntegrityError:
            raise StoreFailure("STORE_CONFLICT", "not-applied", "an envelope already holds this sequence") from None
        except sqlite3.OperationalError as e:
            raise StoreFailure("STORE_UNAVAILABLE", "not-applied", str(e)) from None

    def commit(self):
        try:
            self.db.execute("COMMIT")
        except sqlite3.OperationalError as e:
            raise StoreFailure("STORE_UNAVAILABLE", "unknown", "COMMIT failed: " + str(e)) from None
