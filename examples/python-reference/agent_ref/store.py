"""The store.* methods: the commit algorithm of TaskContinuityWriteGate over SQLite.

docs/spec/task-continuity-write-gate.md#commit-algorithm, steps 1 to 12, in order; the first
failing step decides the refusal, and a refusal writes nothing (the transaction is rolled back).
"""

import copy
import secrets

from . import jcs
from .clock import parse_instant_ns
from .errors import InvalidParams, MethodNotFound, Refusal
from .schema_check import check_contract
from .store_documents import (digests_recompute, empty_set, fence, fence_of, owner_ref, seal_envelope, seal_lease,
                              write_context)
from .store_keys import check_fence, check_task_key
from .store_lease import check_request, guard, is_replay, next_lease
from .store_operations import check_event, decide
from .store_sqlite import SqliteEnvelopes, StoreFailure, database_path
from .store_terminal import check_closeout, lineage_with, receipt

GENERATION_DELTA = {"owner-release": 1, "owner-reacquire": 1, "owner-handoff-prepare": 1,
                    "owner-takeover-prepare": 1, "owner-terminal": 1, "owner-reopen": 1}


def _same(a, b):
    try:
        return jcs.canonicalize(a) == jcs.canonicalize(b)
    except Refusal:
        return False


class Refused(Exception):
    """A refusal after the read: carries the current fence."""

    def __init__(self, refusal, envelope):
        super().__init__(str(refusal))
        self.refusal = refusal
        self.envelope = envelope


class Store:
    def __init__(self, clock, crash):
        self.clock = clock
        self.crash = crash
        self.runtime_generation = "runtime-" + secrets.token_hex(16)
        self.backend = None
        self.location_usable = True

    # --- session ----------------------------------------------------------------------------

    def on_hello(self, state_location, local_directory):
        path = database_path(state_location)
        self.location_usable = path is not None
        self.backend = SqliteEnvelopes(path) if path is not None else None

    def available(self):
        return self.location_usable

    def _storage(self):
        if self.backend is None:  # hello declared store: false for this state location
            raise MethodNotFound("store.* is not available here: this store keeps tasks only in SQLite "
                                 "(a directory, sqlite:<file> or memory:)")
        return self.backend

    # --- helpers ----------------------------------------------------------------------------

    def _now(self):
        return self.clock.now()

    def _context(self, envelope):
        # readAt is never earlier than the envelope it reads (write-context invariant 2): with the
        # clock behind the last commit it is that commit's time.
        return write_context(envelope, self.runtime_generation, self._commit_time(envelope))

    def _context_digest(self, envelope):
        return None if envelope is None else self._context(envelope)["contextDigest"]

    @staticmethod
    def _object(params, name):
        v = params.get(name)
        if not isinstance(v, dict):
            raise InvalidParams("params.%s must be an object" % name)
        return v

    def _key(self, params):
        task = self._object(params, "task")
        check_task_key(task.get("taskId"), task.get("projectRootIdentity"))
        return (task["projectRootIdentity"], task["taskId"])

    @staticmethod
    def _valid_envelope(envelope):
        return digests_recompute(envelope) and not check_contract("TaskRecoveryStateV5", envelope)

    def _failure(self, f):
        return Refusal(f.code, str(f), outcome=f.outcome, retryable=f.code == "STORE_BUSY")

    # --- reads ------------------------------------------------------------------------------

    def _latest(self, params):
        return self._reading(lambda backend, key: backend.latest(key), params)

    def _history(self, params):
        return self._reading(lambda backend, key: backend.history(key), params)

    def _reading(self, fn, params):
        """A read of the task named in params; a storage failure is answered with its code."""
        key = self._key(params)
        try:
            return fn(self._storage(), key)
        except StoreFailure as f:
            raise self._failure(f)

    def read(self, params):
        e = self._latest(params)
        if e is None:
            return {"ok": True, "status": "missing", "envelope": None, "fence": fence(0, 0)}
        return {"ok": True, "status": "found", "envelope": e, "fence": fence_of(e)}

    def read_write_context(self, params):
        e = self._latest(params)
        if e is None:
            raise Refusal("LIFECYCLE_STATE_UNAVAILABLE", "the task was never written", ok=False, currentFence=fence(0, 0))
        return {"ok": True, "writeContext": self._context(e)}

    def history(self, params):
        return self._history(params)

    def replay(self, params):
        envelopes = self._history(params)
        previous = None
        for i, e in enumerate(envelopes):
            if e.get("sequence") != i + 1 or not digests_recompute(e) or \
                    e.get("previousEnvelopeDigest") != (None if previous is None else previous["envelopeDigest"]):
                raise Refusal("LIFECYCLE_STATE_UNAVAILABLE", "the task's envelope chain is broken at sequence %d" % (i + 1),
                              ok=False, currentFence=fence_of(envelopes[-1]))
            previous = e
        latest = envelopes[-1] if envelopes else None
        return {"ok": True, "envelopes": envelopes, "fence": fence_of(latest),
                "writeContext": None if latest is None else self._context(latest)}

    # --- the commit algorithm ---------------------------------------------------------------

    def commit_state(self, params):
        r = self._object(params, "request")
        self._step1(r)
        state = r.get("state")
        if not isinstance(state, dict) or jcs.has_lone_surrogate(state):
            raise Refusal("LIFECYCLE_STATE_SHAPE_INVALID", "state must be a JSON object with an RFC 8785 form", ok=False)
        force = r.get("force", False)
        if not isinstance(force, bool):
            raise InvalidParams("request.force must be a boolean")

        def decide_state(e):
            self._writer(r, e)
            if not force and jcs.digest_of(state) == e["stateDigest"]:
                return "semantic-noop", None
            return "commit", {"commitKind": "state", "state": copy.deepcopy(state)}

        return self._commit(r, decide_state, replay=None)

    def commit_operation(self, params):
        r = self._object(params, "request")
        self._step1(r)
        event = r.get("event")
        check_event(event)
        if "state" in r and (not isinstance(r["state"], dict) or jcs.has_lone_surrogate(r["state"])):
            raise Refusal("LIFECYCLE_STATE_SHAPE_INVALID", "state must be a JSON object with an RFC 8785 form", ok=False)
        key = (r["projectRootIdentity"], r["taskId"])
        verdict = {}

        def replay(e):
            if e is None:
                return False
            verdict["d"] = decide(e, event, None, lambda op_id: self._pre_resolution_record(key, op_id))
            return verdict["d"][0] == "replayed"

        def decide_op(e):
            self._writer(r, e)
            d = decide(e, event, self._commit_time(e), lambda op_id: self._pre_resolution_record(key, op_id))
            if d[0] == "refuse":
                raise Refusal(d[1], d[2], ok=False)
            changes = {"commitKind": d[1], "operations": d[2]}
            if "state" in r:
                changes["state"] = copy.deepcopy(r["state"])
            return "commit", changes

        return self._commit(r, decide_op, replay=replay)

    def transition_owner(self, params):
        r = self._object(params, "request")
        self._step1(r)
        check_request(r)

        def replay(e):
            if is_replay(e, r):
                return True
            if e is not None and r["operation"] == "terminal" and e["owner"]["status"] == "terminal" and \
                    isinstance(r["expectedOwner"], dict) and \
                    r["expectedOwner"].get("leaseDigest") == e["owner"]["transitionRef"]["priorLeaseDigest"]:
                raise Refusal("TASK_TERMINAL_REPLAY_MISMATCH", "the task is closed by another terminal request", ok=False)
            return False

        def decide_owner(e):
            digest_now = self._context_digest(e)
            to = guard(e, r, digest_now)
            if r["operation"] == "terminal":
                check_closeout(e, r["terminal"], digest_now)
            return "commit", {"commitKind": "owner-" + r["operation"], "to": to}

        return self._commit(r, decide_owner, replay=replay)

    def _step1(self, r):
        check_task_key(r.get("taskId"), r.get("projectRootIdentity"))
        check_fence(r.get("expectedFence"))

    @staticmethod
    def _writer(r, e):
        """Step 7, for state and operation commits."""
        if e["owner"]["status"] != "active":
            raise Refusal("TASK_WRITE_OWNER_MISSING", "the lease is not active: acquire, reacquire, accept or reopen first",
                          ok=False)
        if r.get("sessionDigest") != e["owner"]["sessionDigest"]:
            raise Refusal("TASK_WRITE_OWNER_SESSION_MISMATCH", "only the holder may write the task", ok=False)

    def _commit_time(self, e):
        now = self._now()
        if e is not None and parse_instant_ns(e["committedAt"]) > parse_instant_ns(now):
            return e["committedAt"]
        return now

    def _pre_resolution_record(self, key, op_id):
        """The unresolved record of the envelope just before the commit that resolved op_id (D-TCW-28)."""
        for e in reversed(self._storage().history(key)):
            u = e["operations"]["unresolved"]
            if u is not None and u["operationId"] == op_id:
                return u
        return None

    def _result(self, status, envelope):
        rec = envelope["terminalReceipt"] if envelope["commitKind"] == "owner-terminal" else None
        return {"ok": True, "status": status, "fence": fence_of(envelope), "writeContext": self._context(envelope),
                "receipt": rec}

    def _commit(self, r, decide_kind, replay):
        backend = self._storage()
        key = (r["projectRootIdentity"], r["taskId"])
        try:
            backend.begin()
        except StoreFailure as f:
            raise self._failure(f)
        e = None
        try:
            e = backend.latest(key)  # step 3
            if e is not None and not self._valid_envelope(e):
                raise Refused(Refusal("LIFECYCLE_STATE_UNAVAILABLE", "the stored envelope is invalid; repair it out of band",
                                      ok=False), e)
            try:
                if replay is not None and replay(e):  # step 4
                    backend.rollback()
                    return self._result("replayed", e)
                if not _same(r["expectedFence"], fence_of(e)):  # step 5
                    raise Refusal("LIFECYCLE_STATE_FENCE_MISMATCH", "the fence is stale: re-read the task", ok=False)
                if not _same(r.get("expectedOwner"), owner_ref(e)):  # step 6
                    raise Refusal("FENCED_TASK_WRITE_OWNER_CAS_MISMATCH", "the owner ref is stale: re-read the task",
                                  ok=False)
                if e is None and decide_kind.__name__ != "decide_owner":
                    raise Refusal("TASK_WRITE_OWNER_MISSING", "the task has no owner: acquire it first", ok=False)
                outcome, changes = decide_kind(e)  # steps 7, 8
            except Refusal as refusal:
                raise Refused(refusal, e)
            if outcome == "semantic-noop":  # step 10
                backend.rollback()
                return self._result("semantic-noop", e)
            candidate = self._candidate(e, r, changes)
            # step 9; the first envelope has generation 1 (the acquire row), not 0 + 0 (SPEC-GAPS.md)
            expected_generation = 1 if e is None else e["writerGeneration"] + GENERATION_DELTA.get(candidate["commitKind"], 0)
            if candidate["writerGeneration"] != expected_generation:
                raise Refused(Refusal("LIFECYCLE_WRITER_GENERATION_TRANSITION_INVALID",
                                      "the writer generation would move outside its owner transition", ok=False), e)
            issues = check_contract("TaskRecoveryStateV5", candidate)
            if issues:  # step 11 (D-TCW-33)
                raise Refused(Refusal("TASK_CONTINUITY_SCHEMA_INVALID", "the envelope would fail its schema at "
                                      + ", ".join("%s (%s)" % i for i in issues[:5]), ok=False), e)
            self.crash.reach("commit-before-write")
            backend.insert(candidate)
            backend.commit()
        except Refused as x:
            backend.rollback()
            x.refusal.data["currentFence"] = fence_of(x.envelope)
            raise x.refusal
        except StoreFailure as f:
            backend.rollback()
            raise self._failure(f)
        except BaseException:
            backend.rollback()
            raise
        self.crash.reach("commit-after-write")
        try:  # step 12
            back = backend.at(key, candidate["sequence"])
        except StoreFailure as f:
            raise Refusal("LIFECYCLE_STATE_READBACK_MISMATCH", "the readback failed: " + str(f), ok=False,
                          currentFence=fence_of(candidate))
        if back is None or back["writerGeneration"] != candidate["writerGeneration"] or \
                back["envelopeDigest"] != candidate["envelopeDigest"]:
            raise Refusal("LIFECYCLE_STATE_READBACK_MISMATCH", "storage does not hold the envelope just written", ok=False,
                          currentFence=fence_of(backend.latest(key)))
        result = self._result("committed", back)
        if result["writeContext"]["ownerLeaseDigest"] != candidate["owner"]["leaseDigest"]:
            raise Refusal("TASK_WRITE_CONTEXT_READBACK_MISMATCH", "the readback names another lease", ok=False,
                          currentFence=fence_of(back))
        return result

    def _candidate(self, e, r, changes):
        at = self._commit_time(e)
        kind = changes["commitKind"]
        if e is None:
            base = {"owner": None, "operations": empty_set(), "terminalReceipt": None, "terminalLineage": [],
                    "state": {}}
        else:
            base = {k: copy.deepcopy(e[k]) for k in ("owner", "operations", "terminalReceipt", "terminalLineage",
                                                     "state")}
        if kind.startswith("owner-"):
            lease = seal_lease(next_lease(e, r, changes["to"], at))
            base["owner"] = lease
            if kind == "owner-terminal":
                rec = receipt(e, r["terminal"], lease, at)
                base["terminalReceipt"] = rec
                base["terminalLineage"] = lineage_with(base["terminalLineage"], rec)
            if kind == "owner-reopen":
                base["terminalReceipt"] = None
        if "operations" in changes:
            base["operations"] = changes["operations"]
        if "state" in changes:
            base["state"] = changes["state"]
        owner = base["owner"]
        return seal_envelope({
            "schemaVersion": "TaskRecoveryStateV5",
            "taskId": r["taskId"],
            "projectRootIdentity": r["projectRootIdentity"],
            "sequence": 1 if e is None else e["sequence"] + 1,
            "writerGeneration": owner["ownerGeneration"],
            "lifecycleRevision": owner["reopenGeneration"] + 1,
            "commitKind": kind,
            "committedAt": at,
            "previousEnvelopeDigest": None if e is None else e["envelopeDigest"],
            "owner": owner,
            "operations": base["operations"],
            "terminalReceipt": base["terminalReceipt"],
            "terminalLineage": base["terminalLineage"],
            "state": base["state"],
        })


def install(server, crash):
    store = Store(server.clock, crash)
    server.on_hello.append(store.on_hello)
    methods = {
        "store.read": store.read,
        "store.readWriteContext": store.read_write_context,
        "store.commitState": store.commit_state,
        "store.commitOperation": store.commit_operation,
        "store.transitionOwner": store.transition_owner,
        "store.replay": store.replay,
        "store.history": store.history,
    }

    def guarded(fn):
        def call(params):
            store._storage()  # -32601 before anything else where hello declared no store
            return fn(params)

        return call

    server.add_area("store", {name: guarded(fn) for name, fn in methods.items()}, available=store.available)
    return store
