"""The liveness.* methods (docs/protocol.md#liveness-v1-capability-liveness).

One TurnLivenessStateV1 per process, persisted in `<localDirectory>/turn-liveness.json` after
every change and rehydrated (validated, never repaired, nothing written) when a process starts.
"""

import copy
import os
import re

from . import durable_file, jcs
from .ecma_regex import ecma_pattern
from .clock import format_ms, parse_ms
from .errors import InvalidParams, Refusal
from .liveness_classify import classify, classify_result
from .liveness_machine import apply_event, fresh_state, watchdog
from .liveness_state_check import validate_state

HOST_EVENTS = ("UserPromptSubmit", "PreToolUse", "PostToolUse", "PreCompact", "Stop", "TurnError",
               "TurnInterrupted", "UnknownHostEvent")
OBSERVERS = ("hook-event-time", "host-native-watchdog")


def _string(e, name, required=True):
    v = e.get(name)
    if v is None and not required:
        return
    if not isinstance(v, str):
        raise InvalidParams("liveness.event: event.%s must be a string" % name)


# What a liveness state holds: a digest is 64 lowercase hex digits, a target a workspace-relative
# artifact path; params that break them are malformed (D-TLR-59).
DIGEST = re.compile(ecma_pattern(r"^[a-f0-9]{64}$"))
ARTIFACT_PATH = re.compile(ecma_pattern(r'^(?![/~])(?!.*(?:^|/)\.\.?(?:/|$))[^\\:*?"<>|]+$'))


def _digest_or_null(v, name):
    if v is not None and (not isinstance(v, str) or not DIGEST.match(v)):
        raise InvalidParams("liveness.event: %s must be 64 lowercase hex digits or null" % name)


def _paths(e, name):
    if name not in e:
        return
    v = e[name]
    if not isinstance(v, list) or any(
            not isinstance(t, str) or not 1 <= len(t) <= 512 or not ARTIFACT_PATH.match(t) for t in v):
        raise InvalidParams("liveness.event: every event.%s is a workspace-relative path of 1-512 characters" % name)


def check_event(params):
    e = params.get("event")
    if not isinstance(e, dict) or e.get("type") not in HOST_EVENTS:
        raise InvalidParams("liveness.event: event must be an object whose type is a host event")
    if "at" in e and parse_ms(e["at"]) is None:
        raise InvalidParams("liveness.event: event.at must be an RFC 3339 timestamp")
    t = e["type"]
    if t == "UserPromptSubmit":
        for n in ("turnKey", "sessionKey", "taskTraceId"):
            _string(e, n, required=False)
    if t in ("PreToolUse", "PostToolUse"):
        _string(e, "operationId")
    if t == "PreToolUse":
        _paths(e, "targetPaths")
        _digest_or_null(e.get("operationRecordDigest"), "event.operationRecordDigest")
    if t == "PostToolUse":
        _paths(e, "mutatedTargets")
    if t == "PreToolUse":
        _string(e, "toolName")
        if e.get("hostDecision") not in ("allowed", "blocked") or not isinstance(e.get("mutating"), bool):
            raise InvalidParams("liveness.event: PreToolUse needs hostDecision and mutating")
    context = params.get("context", {})
    if not isinstance(context, dict) or context.get("observer", "hook-event-time") not in OBSERVERS:
        raise InvalidParams("liveness.event: context must be an object with a known observer")
    _digest_or_null(context.get("taskOperationSetDigest"), "context.taskOperationSetDigest")
    return e, context


class Liveness:
    def __init__(self, clock):
        self.clock = clock
        self.path = None
        self.state = fresh_state(clock.now_ms())
        self.issues = []

    def on_hello(self, state_location, local_directory):
        self.path = os.path.join(local_directory, "turn-liveness.json") if local_directory else None
        stored = durable_file.read(self.path)
        if stored is None:
            self.state, self.issues = fresh_state(self.clock.now_ms()), []
        else:
            self._adopt(stored)

    def _adopt(self, doc):
        self.state = doc
        if doc is durable_file.UNREADABLE:
            self.issues = [{"code": "TURN_STATE_INVALID", "path": ""}]
        else:
            self.issues = validate_state(doc)

    def _valid(self):
        if self.issues:
            raise Refusal("TURN_STATE_INVALID", "the stored turn state is invalid; reset it or rehydrate a valid one",
                          issues=self.issues)
        return self.state

    def _persist(self, state):
        durable_file.write(self.path, state)
        self.state = state

    def reset(self, params):
        thresholds = params.get("thresholds")
        if thresholds is not None and not isinstance(thresholds, dict):
            raise InvalidParams("liveness.reset: thresholds must be an object")
        state = fresh_state(self.clock.now_ms(), thresholds)
        self.issues = []
        self._persist(state)
        return state

    def event(self, params):
        e, context = check_event(params)
        state = self._valid()
        code, new_state, card = apply_event(state, e, context, self.clock.now_ms())
        self._persist(new_state)
        if code is not None:
            raise Refusal(code, "the event was counted but its edge is refused", state=new_state, card=card)
        return {"state": new_state, "card": card}

    def classify(self, params):
        return classify_result(self._valid(), self.clock.now_ms())

    def current(self, params):
        return self._valid()

    def evidence(self, params):
        s = self._valid()
        now = self.clock.now_ms()
        c, reason, ref, age = classify(s, now)
        return {
            "schemaVersion": "TurnLivenessEvidenceV1",
            "observedAt": format_ms(now),
            "sourceStateDigest": jcs.digest_of(s),
            "sourceEventSequence": s["eventSequence"],
            "turnKey": s["turnKey"],
            "persistedState": s["state"],
            "classification": c,
            "reason": reason,
            "referenceAt": ref,
            "elapsedMs": age,
            "startedAt": s["startedAt"],
            "lastEventType": s["lastEventType"],
            "lastEventAt": s["lastEventAt"],
            "lastToolOutputAt": s["lastToolOutputAt"],
            "continuationAckAt": s["continuationAckAt"],
            "inFlightOperation": copy.deepcopy(s["inFlightOperation"]),
            "thresholds": dict(s["thresholds"]),
            "checkpoint": copy.deepcopy(s["checkpoint"]),
            "checkpointValidation": copy.deepcopy(s["checkpointValidation"]),
            "taskTraceId": s["taskTraceId"],
            "capabilityBoundary": {"mode": "observation-only", "observer": "read-only-sidecar",
                                   "stateMutation": False, "operationReplay": False, "processControl": False,
                                   "hostWakeup": False},
        }

    def watchdog(self, params):
        state = self._valid()
        new_state, card = watchdog(state, self.clock.now_ms())
        if card is not None:
            self._persist(new_state)
        return {"state": new_state, "card": card}

    def lease(self, params):
        kind = params.get("kind")
        if kind in ("user-process", "pid"):
            raise Refusal("TURN_LEASE_NOT_HOST_ALLOWED", "only a host-allowed tool call gets a lease")
        if kind != "tool-call" or params.get("hostDecision") not in ("allowed", "blocked"):
            raise InvalidParams("liveness.lease: kind must be tool-call, user-process or pid")
        s = self._valid()
        if params["hostDecision"] != "allowed":
            raise Refusal("TURN_LEASE_NOT_HOST_ALLOWED", "a blocked tool call gets no lease")
        if s["state"] == "idle":
            raise Refusal("TURN_NOT_STARTED", "no turn has started")
        if s["state"] in ("completed", "error", "interrupted"):
            raise Refusal("TURN_TERMINAL_FINAL", "the turn has ended")
        if s["inFlightOperation"] is not None:
            raise Refusal("TURN_OPERATION_LEASE_HELD", "another lease is in flight")
        return {"ok": True}

    def rehydrate(self, params):
        if "state" not in params:
            raise InvalidParams("liveness.rehydrate: params.state is required")
        doc = params["state"]
        durable_file.write(self.path, doc)
        self._adopt(doc)
        return self._valid()


def install(server):
    live = Liveness(server.clock)
    server.on_hello.append(live.on_hello)
    server.add_area("liveness", {
        "liveness.reset": live.reset,
        "liveness.event": live.event,
        "liveness.classify": live.classify,
        "liveness.state": live.current,
        "liveness.evidence": live.evidence,
        "liveness.watchdog": live.watchdog,
        "liveness.lease": live.lease,
        "liveness.rehydrate": live.rehydrate,
    })
    return live
