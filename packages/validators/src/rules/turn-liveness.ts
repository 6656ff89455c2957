// Semantic and bundle rules of the TurnLivenessRecoveryGate
// (docs/spec/turn-liveness-recovery-gate.md). The classification table and the checkpoint
// decision table are not restated here: they come from the pure engines, so a stored document is
// judged by exactly the code that produces documents.
import {
  type CheckpointEvidence,
  type ClassificationInput,
  classifyAt,
  evidenceItemProblem,
  turnStateDigest,
  validateCheckpoint,
} from '@agent-contracts/engines';
import type { Issue } from '../issues.js';
import { issue } from './kit.js';
import type { BundleRule, ContractDocument, SemanticRule } from './types.js';

const PAGE = 'docs/spec/turn-liveness-recovery-gate.md';
const S_CONTRACT = `${PAGE}#invariants`;
const S_STATE = `${PAGE}#invariants-1`;
const S_EVIDENCE = `${PAGE}#invariants-2`;
const S_CARD = `${PAGE}#invariants-3`;
const S_CHECKPOINT = `${PAGE}#invariants-4`;
const S_VALIDATION = `${PAGE}#invariants-5`;

// biome-ignore lint/suspicious/noExplicitAny: rules run only on schema-valid documents, whose shape the schema guarantees.
type Doc = Record<string, any>;
type Thresholds = { suspectAfterMs: number; stalledAfterMs: number; operationLeaseMs: number };
type EvidenceItem = {
  kind: string;
  eventType: string;
  eventSequence: number;
  observedAt: string;
  terminalStatus?: string;
};

const ms = (s: string): number => Date.parse(s);
const TERMINAL = new Set(['completed', 'error', 'interrupted']);
const TERMINAL_KINDS = new Set(['host-terminal-event', 'host-native-terminal-status']);
const TERMINAL_REASON: Record<string, string> = {
  completed: 'host-stop',
  error: 'host-error',
  interrupted: 'host-interrupt',
};
const END_REASON_STATUS: Record<string, string> = {
  'host-stop': 'completed',
  'host-error': 'error',
  'host-interrupt': 'interrupted',
  'superseded-by-new-prompt': 'interrupted',
  'stale-turn-recovered-by-new-prompt': 'interrupted',
};

/** Classification of copied fields at `nowMs` (the engines' classification table). */
function classifyFields(f: Doc, nowMs: number) {
  return classifyAt(f as unknown as ClassificationInput, nowMs);
}

/** The decision table's output for a stored result's own inputs, or `null` when they are malformed. */
function decideValidation(v: Doc) {
  const r = validateCheckpoint(
    {
      turnKey: v.turnKey,
      mode: v.mode,
      evidence: v.evidence as CheckpointEvidence[],
      blockingIssues: v.blockingIssues,
      requiredActions: v.requiredActions,
      deadlineAt: v.deadlineAt,
    },
    { now: () => ms(v.observedAt) },
  );
  return r.ok ? r.result : null;
}

/** Structural equality of JSON values (key order ignored). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && sameJson((a as Doc)[k], (b as Doc)[k]))
  );
}

const passesWithoutTerminal = (v: Doc) =>
  v.mode === 'post-execution' &&
  v.status === 'pass' &&
  !(v.evidence as EvidenceItem[]).some((e) => TERMINAL_KINDS.has(e.kind));

/** CheckpointValidationResultV1 invariants 1, 3 and 4 on the result at `base`. */
function validationInconsistencies(v: Doc, base: string, rule: string): Issue[] {
  const code = 'TURN_CHECKPOINT_VALIDATION_INCONSISTENT';
  const out: Issue[] = [];
  (v.evidence as EvidenceItem[]).forEach((e, i) => {
    const p = `${base}/evidence/${i}`;
    const problem = evidenceItemProblem(e as CheckpointEvidence);
    if (problem) out.push(issue(code, `${p}/eventType`, `${problem}; fix the evidence item.`, rule));
    if (ms(e.observedAt) > ms(v.observedAt))
      out.push(
        issue(
          code,
          `${p}/observedAt`,
          `evidence observed at ${e.observedAt} is later than the result (${v.observedAt}); recompute the result after its evidence.`,
          rule,
        ),
      );
  });
  if (v.mode === 'post-execution' && v.deadlineAt === null)
    out.push(
      issue(
        code,
        `${base}/deadlineAt`,
        'a post-execution result needs deadlineAt = startedAt + operationLeaseMs + stalledAfterMs.',
        rule,
      ),
    );
  if (v.mode === 'response-time' && v.deadlineAt !== null)
    out.push(
      issue(
        code,
        `${base}/deadlineAt`,
        'a response-time result has deadlineAt null; remove the deadline.',
        rule,
      ),
    );
  if (out.length || passesWithoutTerminal(v)) return out; // the latter is TURN_TERMINAL_EVIDENCE_REQUIRED
  const want = decideValidation(v);
  if (want === null) return out;
  for (const field of ['status', 'blocking', 'evidenceState', 'errorCode', 'requiredActions'] as const) {
    if (!sameJson(v[field], want[field]))
      out.push(
        issue(
          code,
          `${base}/${field}`,
          `${field} is ${JSON.stringify(v[field])} but the decision table gives ${JSON.stringify(want[field])} for these inputs; recompute the result.`,
          rule,
        ),
      );
  }
  return out;
}

function terminalEvidenceMissing(v: Doc, base: string, rule: string): Issue[] {
  return passesWithoutTerminal(v)
    ? [
        issue(
          'TURN_TERMINAL_EVIDENCE_REQUIRED',
          `${base}/status`,
          'a post-execution pass needs a host-terminal-event or host-native-terminal-status item; tool output, PreCompact, host events and sidecar reads never finish a turn. Treat the turn as unfinished.',
          rule,
        ),
      ]
    : [];
}

// ---- checkpoint phase (CheckpointV1 invariant 2) ----

function checkpointPhaseIssues(c: Doc, base: string, rule: string): Issue[] {
  const phase = c.phase as string;
  const needsOp =
    phase.startsWith('tool:') || phase === 'tool-output-persisted' || phase === 'tool-error-observed';
  const noOp = phase === 'turn-started' || phase.startsWith('terminal:');
  if (needsOp && c.operationId === null)
    return [
      issue(
        'TURN_CHECKPOINT_PHASE_INVALID',
        `${base}/operationId`,
        `phase ${phase} concerns an operation; set operationId to it.`,
        rule,
      ),
    ];
  if (noOp && c.operationId !== null)
    return [
      issue(
        'TURN_CHECKPOINT_PHASE_INVALID',
        `${base}/operationId`,
        `phase ${phase} concerns no operation; operationId must be null.`,
        rule,
      ),
    ];
  return [];
}

// ---- rules ----

function thresholdRule(contract: string, specSection: string): SemanticRule {
  return {
    code: 'TURN_THRESHOLDS_INVALID',
    contract,
    specSection,
    description: 'thresholds.stalledAfterMs is at least thresholds.suspectAfterMs.',
    check: (d) => {
      const th = (d as Doc).thresholds as Thresholds;
      return th.stalledAfterMs < th.suspectAfterMs
        ? [
            issue(
              'TURN_THRESHOLDS_INVALID',
              '/thresholds/stalledAfterMs',
              `stalledAfterMs ${th.stalledAfterMs} is below suspectAfterMs ${th.suspectAfterMs}; normalise the thresholds (raise stalledAfterMs) before writing.`,
              specSection,
            ),
          ]
        : [];
    },
  };
}

const CONTRACT_RULES: SemanticRule[] = [
  thresholdRule('TurnLivenessContractV1', S_CONTRACT),
  {
    code: 'TURN_CONTRACT_ROW_INVALID',
    contract: 'TurnLivenessContractV1',
    specSection: S_CONTRACT,
    description:
      'postExecutionDeadlineMs = operationLeaseMs + stalledAfterMs; mappedEvents include UserPromptSubmit, PreToolUse, PostToolUse and Stop; the host-native watchdog detects without events only when host-native-verified.',
    check: (doc) => {
      const d = doc as Doc;
      const out: Issue[] = [];
      const code = 'TURN_CONTRACT_ROW_INVALID';
      const want = d.thresholds.operationLeaseMs + d.thresholds.stalledAfterMs;
      if (d.checkpointValidation.postExecutionDeadlineMs !== want)
        out.push(
          issue(
            code,
            '/checkpointValidation/postExecutionDeadlineMs',
            `postExecutionDeadlineMs is ${d.checkpointValidation.postExecutionDeadlineMs} but operationLeaseMs + stalledAfterMs is ${want}; set it to ${want} and refreeze.`,
            S_CONTRACT,
          ),
        );
      const missing = ['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'].filter(
        (e) => !d.eventEvidence.mappedEvents.includes(e),
      );
      if (missing.length)
        out.push(
          issue(
            code,
            '/eventEvidence/mappedEvents',
            `mappedEvents lacks ${missing.join(', ')}; map the host's events onto them and refreeze.`,
            S_CONTRACT,
          ),
        );
      const w = d.capabilityBoundary.hostNativeWatchdog;
      if (w.detectsWithoutEvent === true && w.status !== 'host-native-verified')
        out.push(
          issue(
            code,
            '/capabilityBoundary/hostNativeWatchdog/detectsWithoutEvent',
            `a ${w.status} watchdog cannot claim detection without events; verify it (host-native-verified) or set detectsWithoutEvent false.`,
            S_CONTRACT,
          ),
        );
      return out;
    },
  },
  {
    code: 'TURN_FAULT_MATRIX_INCOMPLETE',
    contract: 'TurnLivenessContractV1',
    specSection: S_CONTRACT,
    description:
      'validation.faultScenarios contains no-continuation, active-lease, restart-rehydrate and duplicate-recovery.',
    check: (doc) => {
      const have = (doc as Doc).validation.faultScenarios as string[];
      const missing = ['no-continuation', 'active-lease', 'restart-rehydrate', 'duplicate-recovery'].filter(
        (s) => !have.includes(s),
      );
      return missing.length
        ? [
            issue(
              'TURN_FAULT_MATRIX_INCOMPLETE',
              '/validation/faultScenarios',
              `faultScenarios lacks ${missing.join(', ')}; add and run the missing scenarios.`,
              S_CONTRACT,
            ),
          ]
        : [];
    },
  },
];

const STATE = 'TurnLivenessStateV1';
const IDLE_NULL = [
  'turnKey',
  'startedAt',
  'checkpoint',
  'checkpointValidation',
  'taskTraceId',
  'previousTurn',
  'inFlightOperation',
  'lastToolCallId',
  'lastToolOutputAt',
  'continuationAckAt',
  'terminalAt',
  'terminalReason',
  'lastRecoveryNoticeKey',
];
const STARTED_SET = [
  'turnKey',
  'startedAt',
  'lastEventType',
  'lastEventAt',
  'checkpoint',
  'checkpointValidation',
  'taskTraceId',
];

const STATE_RULES: SemanticRule[] = [
  thresholdRule(STATE, S_STATE),
  {
    code: 'TURN_EVENT_EVIDENCE_MISSING',
    contract: STATE,
    specSection: S_STATE,
    description:
      'An idle state carries no turn fields; every other state carries its evidence fields and eventSequence >= 1.',
    check: (doc) => {
      const d = doc as Doc;
      const code = 'TURN_EVENT_EVIDENCE_MISSING';
      if (d.state === 'idle')
        return IDLE_NULL.filter((f) => d[f] !== null).map((f) =>
          issue(
            code,
            `/${f}`,
            `an idle state has no turn, so ${f} must be null; rebuild the state from host events.`,
            S_STATE,
          ),
        );
      const out = STARTED_SET.filter((f) => d[f] === null).map((f) =>
        issue(code, `/${f}`, `a ${d.state} state needs ${f}; rebuild the state from host events.`, S_STATE),
      );
      if (d.eventSequence < 1)
        out.push(
          issue(
            code,
            '/eventSequence',
            `a ${d.state} state has seen at least one event; eventSequence must be >= 1.`,
            S_STATE,
          ),
        );
      return out;
    },
  },
  {
    code: 'TURN_EVENT_ORDER_INVALID',
    contract: STATE,
    specSection: S_STATE,
    description:
      'initializedAt <= startedAt <= lastEventAt; lastToolOutputAt, continuationAckAt and terminalAt lie between startedAt and lastEventAt; previousTurn.terminalAt <= startedAt.',
    check: (doc) => {
      const d = doc as Doc;
      const pairs: Array<[string, string | null, string, string | null]> = [
        ['initializedAt', d.initializedAt, 'startedAt', d.startedAt],
        ['startedAt', d.startedAt, 'lastEventAt', d.lastEventAt],
        ['startedAt', d.startedAt, 'lastToolOutputAt', d.lastToolOutputAt],
        ['lastToolOutputAt', d.lastToolOutputAt, 'lastEventAt', d.lastEventAt],
        ['startedAt', d.startedAt, 'continuationAckAt', d.continuationAckAt],
        ['continuationAckAt', d.continuationAckAt, 'lastEventAt', d.lastEventAt],
        ['startedAt', d.startedAt, 'terminalAt', d.terminalAt],
        ['terminalAt', d.terminalAt, 'lastEventAt', d.lastEventAt],
        ['previousTurn/terminalAt', d.previousTurn?.terminalAt ?? null, 'startedAt', d.startedAt],
      ];
      return pairs
        .filter(([, a, , b]) => a !== null && b !== null && ms(a) > ms(b))
        .map(([an, a, bn, b]) =>
          issue(
            'TURN_EVENT_ORDER_INVALID',
            `/${bn}`,
            `${bn} (${b}) is earlier than ${an} (${a}); time evidence is ordered, so refuse the state and check the host clock mapping.`,
            S_STATE,
          ),
        );
    },
  },
  {
    code: 'TURN_AWAITING_STATE_INVALID',
    contract: STATE,
    specSection: S_STATE,
    description:
      'awaiting-continuation has a tool output and its call id, no lease, and no acknowledgement at or after the output.',
    check: (doc) => {
      const d = doc as Doc;
      if (d.state !== 'awaiting-continuation') return [];
      const code = 'TURN_AWAITING_STATE_INVALID';
      const out: Issue[] = [];
      for (const f of ['lastToolOutputAt', 'lastToolCallId'])
        if (d[f] === null)
          out.push(
            issue(
              code,
              `/${f}`,
              `awaiting-continuation waits on a tool output, so ${f} must be set; refuse the state.`,
              S_STATE,
            ),
          );
      if (d.inFlightOperation !== null)
        out.push(
          issue(
            code,
            '/inFlightOperation',
            'awaiting-continuation holds no lease (the output ended it); refuse the state.',
            S_STATE,
          ),
        );
      if (
        d.continuationAckAt !== null &&
        d.lastToolOutputAt !== null &&
        ms(d.continuationAckAt) >= ms(d.lastToolOutputAt)
      )
        out.push(
          issue(
            code,
            '/continuationAckAt',
            'the output was already acknowledged (continuationAckAt at or after lastToolOutputAt), so the turn is running, not awaiting; refuse the state.',
            S_STATE,
          ),
        );
      return out;
    },
  },
  {
    code: 'TURN_OPERATION_LEASE_INVALID',
    contract: STATE,
    specSection: S_STATE,
    description:
      'A lease exists only in running, starts at or after the turn, and expires exactly operationLeaseMs after it started.',
    check: (doc) => {
      const d = doc as Doc;
      const lease = d.inFlightOperation;
      if (lease === null || TERMINAL.has(d.state)) return []; // terminal: TURN_TERMINAL_LEASE_NOT_CLEARED
      const code = 'TURN_OPERATION_LEASE_INVALID';
      const out: Issue[] = [];
      if (d.state !== 'running' && d.state !== 'awaiting-continuation')
        out.push(
          issue(
            code,
            '/inFlightOperation',
            `a lease exists only while the turn is running, not ${d.state}; refuse the state.`,
            S_STATE,
          ),
        );
      if (d.startedAt !== null && ms(lease.startedAt) < ms(d.startedAt))
        out.push(
          issue(
            code,
            '/inFlightOperation/startedAt',
            'the lease started before the turn; refuse the state.',
            S_STATE,
          ),
        );
      if (ms(lease.leaseExpiresAt) !== ms(lease.startedAt) + d.thresholds.operationLeaseMs)
        out.push(
          issue(
            code,
            '/inFlightOperation/leaseExpiresAt',
            `leaseExpiresAt must be startedAt + operationLeaseMs (${new Date(ms(lease.startedAt) + d.thresholds.operationLeaseMs).toISOString()}); refuse the state.`,
            S_STATE,
          ),
        );
      return out;
    },
  },
  {
    code: 'TURN_TERMINAL_LEASE_NOT_CLEARED',
    contract: STATE,
    specSection: S_STATE,
    description: 'A terminal state (completed, error, interrupted) holds no in-flight lease.',
    check: (doc) => {
      const d = doc as Doc;
      return TERMINAL.has(d.state) && d.inFlightOperation !== null
        ? [
            issue(
              'TURN_TERMINAL_LEASE_NOT_CLEARED',
              '/inFlightOperation',
              `a ${d.state} turn still holds lease ${d.inFlightOperation.operationId}; every terminal edge clears the lease, so refuse the state.`,
              S_STATE,
            ),
          ]
        : [];
    },
  },
  {
    code: 'TURN_TERMINAL_FIELDS_INVALID',
    contract: STATE,
    specSection: S_STATE,
    description:
      'terminalAt and terminalReason are set iff the state is terminal, the reason goes with the state, and previousTurn.reason goes with previousTurn.terminalState.',
    check: (doc) => {
      const d = doc as Doc;
      const code = 'TURN_TERMINAL_FIELDS_INVALID';
      const out: Issue[] = [];
      const terminal = TERMINAL.has(d.state);
      for (const f of ['terminalAt', 'terminalReason'])
        if ((d[f] !== null) !== terminal)
          out.push(
            issue(
              code,
              `/${f}`,
              terminal
                ? `a ${d.state} turn records ${f}; set it.`
                : `${f} is set but the turn is ${d.state}; it must be null.`,
              S_STATE,
            ),
          );
      if (terminal && d.terminalReason !== null && d.terminalReason !== TERMINAL_REASON[d.state])
        out.push(
          issue(
            code,
            '/terminalReason',
            `a ${d.state} turn ends with ${TERMINAL_REASON[d.state]}, not ${d.terminalReason}; refuse the state.`,
            S_STATE,
          ),
        );
      if (d.previousTurn && END_REASON_STATUS[d.previousTurn.reason] !== d.previousTurn.terminalState)
        out.push(
          issue(
            code,
            '/previousTurn/reason',
            `reason ${d.previousTurn.reason} goes only with ${END_REASON_STATUS[d.previousTurn.reason]}, not ${d.previousTurn.terminalState}; refuse the state.`,
            S_STATE,
          ),
        );
      return out;
    },
  },
  {
    code: 'TURN_KEY_REUSED',
    contract: STATE,
    specSection: S_STATE,
    description: 'previousTurn.turnKey differs from turnKey.',
    check: (doc) => {
      const d = doc as Doc;
      return d.previousTurn && d.previousTurn.turnKey === d.turnKey
        ? [
            issue(
              'TURN_KEY_REUSED',
              '/previousTurn/turnKey',
              `the previous turn has the current key ${d.turnKey}; each turn needs a fresh key.`,
              S_STATE,
            ),
          ]
        : [];
    },
  },
  {
    code: 'TURN_CHECKPOINT_BINDING_MISMATCH',
    contract: STATE,
    specSection: S_STATE,
    description:
      'The checkpoint and both validations belong to this turn, sit in their mode slots, and post-execution deadlineAt = startedAt + operationLeaseMs + stalledAfterMs.',
    check: (doc) => {
      const d = doc as Doc;
      const code = 'TURN_CHECKPOINT_BINDING_MISMATCH';
      const out: Issue[] = [];
      if (d.checkpoint && d.checkpoint.turnKey !== d.turnKey)
        out.push(
          issue(
            code,
            '/checkpoint/turnKey',
            `the checkpoint belongs to ${d.checkpoint.turnKey}, not the current turn ${d.turnKey}; refuse the state.`,
            S_STATE,
          ),
        );
      const pair = d.checkpointValidation;
      if (!pair) return out;
      for (const [slot, mode] of [
        ['responseTime', 'response-time'],
        ['postExecution', 'post-execution'],
      ] as const) {
        if (pair[slot].turnKey !== d.turnKey)
          out.push(
            issue(
              code,
              `/checkpointValidation/${slot}/turnKey`,
              `the ${mode} validation belongs to ${pair[slot].turnKey}, not ${d.turnKey}; refuse the state.`,
              S_STATE,
            ),
          );
        if (pair[slot].mode !== mode)
          out.push(
            issue(
              code,
              `/checkpointValidation/${slot}/mode`,
              `the ${slot} slot holds a ${pair[slot].mode} validation; it must hold ${mode}.`,
              S_STATE,
            ),
          );
      }
      const deadline = pair.postExecution.deadlineAt;
      if (
        d.startedAt !== null &&
        pair.postExecution.mode === 'post-execution' &&
        (deadline === null ||
          ms(deadline) !== ms(d.startedAt) + d.thresholds.operationLeaseMs + d.thresholds.stalledAfterMs)
      )
        out.push(
          issue(
            code,
            '/checkpointValidation/postExecution/deadlineAt',
            'the post-execution deadline must be startedAt + operationLeaseMs + stalledAfterMs; refuse the state.',
            S_STATE,
          ),
        );
      return out;
    },
  },
  {
    code: 'TURN_CHECKPOINT_PHASE_INVALID',
    contract: STATE,
    specSection: S_STATE,
    description:
      'A non-terminal state with a lease has a checkpoint naming it (phase tool:<toolName> or pre-compact); a terminal state has phase terminal:<state> and no operation; the embedded checkpoint satisfies CheckpointV1 invariant 2.',
    check: (doc) => {
      const d = doc as Doc;
      const c = d.checkpoint;
      if (!c) return [];
      const code = 'TURN_CHECKPOINT_PHASE_INVALID';
      const lease = d.inFlightOperation;
      if (lease && !TERMINAL.has(d.state)) {
        if (c.operationId !== lease.operationId)
          return [
            issue(
              code,
              '/checkpoint/operationId',
              `the checkpoint must name the in-flight operation ${lease.operationId}; refuse the state.`,
              S_STATE,
            ),
          ];
        if (c.phase !== `tool:${lease.toolName}` && c.phase !== 'pre-compact')
          return [
            issue(
              code,
              '/checkpoint/phase',
              `with lease ${lease.operationId} in flight the phase is tool:${lease.toolName} or pre-compact, not ${c.phase}; refuse the state.`,
              S_STATE,
            ),
          ];
      }
      if (TERMINAL.has(d.state) && c.phase !== `terminal:${d.state}`)
        return [
          issue(
            code,
            '/checkpoint/phase',
            `a ${d.state} turn has checkpoint phase terminal:${d.state}, not ${c.phase}; refuse the state.`,
            S_STATE,
          ),
        ];
      return checkpointPhaseIssues(c, '/checkpoint', S_STATE);
    },
  },
  {
    code: 'TURN_TERMINAL_EVIDENCE_REQUIRED',
    contract: STATE,
    specSection: S_STATE,
    description:
      'A post-execution pass needs a terminal state and terminal evidence of that status; a terminal state has a post-execution pass (or blocked with blocking issues).',
    check: (doc) => {
      const d = doc as Doc;
      const pe = d.checkpointValidation?.postExecution;
      if (pe?.mode !== 'post-execution') return [];
      const code = 'TURN_TERMINAL_EVIDENCE_REQUIRED';
      const path = '/checkpointValidation/postExecution/status';
      if (pe.status === 'pass') {
        if (!TERMINAL.has(d.state))
          return [
            issue(
              code,
              path,
              `post-execution passes but the turn is ${d.state}; a turn is finished only by a terminal event. Treat it as unfinished.`,
              S_STATE,
            ),
          ];
        if (
          !(pe.evidence as EvidenceItem[]).some(
            (e) => TERMINAL_KINDS.has(e.kind) && e.terminalStatus === d.state,
          )
        )
          return [
            issue(
              code,
              path,
              `post-execution passes without terminal evidence reporting ${d.state}; wait for the terminal event.`,
              S_STATE,
            ),
          ];
      } else if (TERMINAL.has(d.state) && !(pe.status === 'blocked' && pe.blockingIssues.length > 0)) {
        return [
          issue(
            code,
            path,
            `a ${d.state} turn has post-execution ${pe.status}; its terminal evidence makes it pass (or blocked with blocking issues). Recompute the validation.`,
            S_STATE,
          ),
        ];
      }
      return terminalEvidenceMissing(pe, '/checkpointValidation/postExecution', S_STATE);
    },
  },
  {
    code: 'TURN_CHECKPOINT_VALIDATION_INCONSISTENT',
    contract: STATE,
    specSection: S_STATE,
    description:
      "Each embedded CheckpointValidationResultV1 satisfies that contract's invariants (decision table, evidence items, deadline, evidence times).",
    check: (doc) => {
      const pair = (doc as Doc).checkpointValidation;
      if (!pair) return [];
      return [
        ...validationInconsistencies(pair.responseTime, '/checkpointValidation/responseTime', S_STATE),
        ...validationInconsistencies(pair.postExecution, '/checkpointValidation/postExecution', S_STATE),
      ];
    },
  },
];

const EVIDENCE_RULES: SemanticRule[] = [
  {
    code: 'TURN_EVIDENCE_CLASSIFICATION_MISMATCH',
    contract: 'TurnLivenessEvidenceV1',
    specSection: S_EVIDENCE,
    description:
      'classification, reason, referenceAt and elapsedMs recompute from the copied fields at observedAt.',
    check: (doc) => {
      const d = doc as Doc;
      const code = 'TURN_EVIDENCE_CLASSIFICATION_MISMATCH';
      const input = { ...d, state: d.persistedState };
      if (d.persistedState !== 'idle' && !TERMINAL.has(d.persistedState)) {
        const ref = d.inFlightOperation
          ? 'x'
          : d.persistedState === 'awaiting-continuation'
            ? d.lastToolOutputAt
            : d.lastEventAt;
        if (ref === null)
          return [
            issue(
              code,
              '/persistedState',
              `a ${d.persistedState} observation without its reference time cannot be classified; refuse the evidence.`,
              S_EVIDENCE,
            ),
          ];
      }
      const want = classifyFields(input, ms(d.observedAt));
      const out: Issue[] = [];
      for (const [field, value] of [
        ['classification', want.classification],
        ['reason', want.reason],
        ['referenceAt', want.referenceAt],
        ['elapsedMs', want.ageMs],
      ] as const) {
        const same =
          field === 'referenceAt' && value !== null && d[field] !== null
            ? ms(d[field]) === ms(value as string)
            : d[field] === value;
        if (!same)
          out.push(
            issue(
              code,
              `/${field}`,
              `${field} is ${JSON.stringify(d[field])} but the classification table gives ${JSON.stringify(value)} at observedAt; refuse the evidence.`,
              S_EVIDENCE,
            ),
          );
      }
      return out;
    },
  },
];

const CARD_RULES: SemanticRule[] = [
  {
    code: 'TURN_RECOVERY_CARD_INCONSISTENT',
    contract: 'TurnRecoveryCardV1',
    specSection: S_CARD,
    description:
      'ageMs = observedAt - referenceAt; reason goes with priorState; inFlightOperationId iff operation-lease-expired; checkpoint of this turn; lastEventAt <= observedAt; recommendedAction follows the idempotency key.',
    check: (doc) => {
      const d = doc as Doc;
      const code = 'TURN_RECOVERY_CARD_INCONSISTENT';
      const out: Issue[] = [];
      const age = ms(d.observedAt) - ms(d.referenceAt);
      if (age < 0 || d.ageMs !== age)
        out.push(
          issue(
            code,
            '/ageMs',
            `ageMs must be observedAt - referenceAt = ${age} (and not negative); refuse the card.`,
            S_CARD,
          ),
        );
      const pairs: Record<string, string> = {
        'continuation-grace-expired': 'suspect',
        'continuation-timeout': 'stalled-recoverable',
      };
      if (pairs[d.reason] !== undefined && pairs[d.reason] !== d.priorState)
        out.push(
          issue(
            code,
            '/reason',
            `reason ${d.reason} goes only with ${pairs[d.reason]}, not ${d.priorState}; refuse the card.`,
            S_CARD,
          ),
        );
      if ((d.inFlightOperationId !== null) !== (d.reason === 'operation-lease-expired'))
        out.push(
          issue(
            code,
            '/inFlightOperationId',
            d.inFlightOperationId === null
              ? 'an expired operation lease names its operation; set inFlightOperationId.'
              : `inFlightOperationId is set only for operation-lease-expired, not ${d.reason}; set it to null.`,
            S_CARD,
          ),
        );
      if (d.checkpoint.turnKey !== d.turnKey)
        out.push(
          issue(
            code,
            '/checkpoint/turnKey',
            `the checkpoint belongs to ${d.checkpoint.turnKey}, not the stale turn ${d.turnKey}; refuse the card.`,
            S_CARD,
          ),
        );
      if (ms(d.lastEventAt) > ms(d.observedAt))
        out.push(
          issue(
            code,
            '/lastEventAt',
            'the card was observed before the last event it copies; refuse the card.',
            S_CARD,
          ),
        );
      const wantAction =
        d.checkpoint.idempotencyKey !== null
          ? 'verify-idempotency-then-resume-via-host'
          : 'resume-from-checkpoint-via-host';
      if (d.recommendedAction !== wantAction)
        out.push(
          issue(
            code,
            '/recommendedAction',
            `with ${d.checkpoint.idempotencyKey === null ? 'no' : 'an'} idempotency key the advice is ${wantAction}; refuse the card.`,
            S_CARD,
          ),
        );
      return out;
    },
  },
];

const CHECKPOINT_RULES: SemanticRule[] = [
  {
    code: 'TURN_CHECKPOINT_PHASE_INVALID',
    contract: 'CheckpointV1',
    specSection: S_CHECKPOINT,
    description:
      'tool:<name>, tool-output-persisted and tool-error-observed name an operation; turn-started and terminal:<status> name none.',
    check: (doc) => checkpointPhaseIssues(doc as Doc, '', S_CHECKPOINT),
  },
];

const VALIDATION_RULES: SemanticRule[] = [
  {
    code: 'TURN_CHECKPOINT_VALIDATION_INCONSISTENT',
    contract: 'CheckpointValidationResultV1',
    specSection: S_VALIDATION,
    description:
      'The result equals the decision table for its inputs, its evidence items are well formed, deadlineAt fits the mode, and no evidence is later than observedAt.',
    check: (doc) => validationInconsistencies(doc as Doc, '', S_VALIDATION),
  },
  {
    code: 'TURN_TERMINAL_EVIDENCE_REQUIRED',
    contract: 'CheckpointValidationResultV1',
    specSection: S_VALIDATION,
    description:
      'A post-execution pass holds at least one host-terminal-event or host-native-terminal-status item.',
    check: (doc) => terminalEvidenceMissing(doc as Doc, '', S_VALIDATION),
  },
];

/** Semantic rules of this area's contracts (one per code and contract), in spec order. */
export const TURN_LIVENESS_RULES: readonly SemanticRule[] = [
  ...CONTRACT_RULES,
  ...STATE_RULES,
  ...EVIDENCE_RULES,
  ...CARD_RULES,
  ...CHECKPOINT_RULES,
  ...VALIDATION_RULES,
];

// ---- bundles ----

const B_EVIDENCE = `${PAGE}#invariants-2`;
const B_CARD = `${PAGE}#invariants-3`;

function sourceIssues(state: Doc, doc: Doc, index: number, copies: readonly string[], rule: string): Issue[] {
  const code = 'TURN_EVIDENCE_SOURCE_MISMATCH';
  const out: Issue[] = [];
  if (doc.sourceStateDigest !== turnStateDigest(state))
    out.push(
      issue(
        code,
        `/documents/${index}/sourceStateDigest`,
        'sourceStateDigest is not the JCS digest of the state in the bundle; the document was not made from this state, so refuse it.',
        rule,
      ),
    );
  if (doc.sourceEventSequence !== state.eventSequence)
    out.push(
      issue(
        code,
        `/documents/${index}/sourceEventSequence`,
        `sourceEventSequence must be the state's eventSequence ${state.eventSequence}.`,
        rule,
      ),
    );
  for (const f of copies)
    if (!sameJson(doc[f] ?? null, state[f] ?? null))
      out.push(
        issue(
          code,
          `/documents/${index}/${f}`,
          `${f} differs from the state's ${f}; copies must equal what was read.`,
          rule,
        ),
      );
  return out;
}

/** Cross-document rules of this area's bundle kinds. */
export const TURN_LIVENESS_BUNDLE_RULES: readonly BundleRule[] = [
  {
    code: 'TURN_EVIDENCE_SOURCE_MISMATCH',
    bundle: 'turn-state-evidence',
    specSection: B_EVIDENCE,
    description:
      'Documents [state, evidence, state read again?]: the evidence digest, sequence and copies match the state, and the state read after the observation has the same digest.',
    check: (docs: readonly ContractDocument[]) => {
      const [state, evidence, after] = docs as unknown as Doc[];
      if (!state || !evidence)
        return [
          issue(
            'TURN_EVIDENCE_SOURCE_MISMATCH',
            '/documents',
            'a turn-state-evidence bundle is [TurnLivenessStateV1, TurnLivenessEvidenceV1, optional TurnLivenessStateV1].',
            B_EVIDENCE,
          ),
        ];
      const out = sourceIssues(
        state,
        evidence,
        1,
        [
          'turnKey',
          'startedAt',
          'lastEventType',
          'lastEventAt',
          'lastToolOutputAt',
          'continuationAckAt',
          'inFlightOperation',
          'thresholds',
          'checkpoint',
          'checkpointValidation',
          'taskTraceId',
        ],
        B_EVIDENCE,
      );
      if (evidence.persistedState !== state.state)
        out.push(
          issue(
            'TURN_EVIDENCE_SOURCE_MISMATCH',
            '/documents/1/persistedState',
            `persistedState must be the state's state ${state.state}.`,
            B_EVIDENCE,
          ),
        );
      if (after && turnStateDigest(after) !== evidence.sourceStateDigest)
        out.push(
          issue(
            'TURN_EVIDENCE_SOURCE_MISMATCH',
            '/documents/2',
            'the state read after the observation differs from the one observed; a read-only observation changed it. Investigate the writer.',
            B_EVIDENCE,
          ),
        );
      return out;
    },
  },
  {
    code: 'TURN_EVIDENCE_SOURCE_MISMATCH',
    bundle: 'turn-state-card',
    specSection: B_CARD,
    description:
      'Documents [state, card]: the card digest, sequence and copies match the state, and classifying the state at observedAt gives priorState, reason and referenceAt.',
    check: (docs: readonly ContractDocument[]) => {
      const [state, card] = docs as unknown as Doc[];
      if (!state || !card)
        return [
          issue(
            'TURN_EVIDENCE_SOURCE_MISMATCH',
            '/documents',
            'a turn-state-card bundle is [TurnLivenessStateV1, TurnRecoveryCardV1].',
            B_CARD,
          ),
        ];
      const out = sourceIssues(
        state,
        card,
        1,
        ['turnKey', 'lastEventType', 'lastEventAt', 'lastToolOutputAt', 'continuationAckAt', 'checkpoint'],
        B_CARD,
      );
      const c = classifyFields(state, ms(card.observedAt));
      if (
        c.classification !== card.priorState ||
        c.reason !== card.reason ||
        c.referenceAt === null ||
        ms(c.referenceAt) !== ms(card.referenceAt)
      )
        out.push(
          issue(
            'TURN_EVIDENCE_SOURCE_MISMATCH',
            '/documents/1/priorState',
            `classifying the state at observedAt gives ${c.classification} / ${c.reason} from ${c.referenceAt}, not ${card.priorState} / ${card.reason} from ${card.referenceAt}; refuse the card.`,
            B_CARD,
          ),
        );
      return out;
    },
  },
  {
    code: 'TURN_RECOVERY_NOTICE_DUPLICATE',
    bundle: 'turn-recovery-cards',
    specSection: `${PAGE}#emission`,
    description: "One observer's cards, in order: no two share a noticeKey.",
    check: (docs: readonly ContractDocument[]) => {
      const seen = new Map<string, number>();
      const out: Issue[] = [];
      (docs as unknown as Doc[]).forEach((card, i) => {
        const first = seen.get(card.noticeKey);
        if (first !== undefined)
          out.push(
            issue(
              'TURN_RECOVERY_NOTICE_DUPLICATE',
              `/documents/${i}/noticeKey`,
              `card ${i} repeats the noticeKey of card ${first}; a card is emitted at most once per key, so drop the duplicate.`,
              `${PAGE}#emission`,
            ),
          );
        else seen.set(card.noticeKey, i);
      });
      return out;
    },
  },
  {
    code: 'TURN_CHECKPOINT_KEY_MISMATCH',
    bundle: 'checkpoint-operation',
    specSection: S_CHECKPOINT,
    description:
      "Documents [CheckpointV1, TaskOperationRecordV1]: the record is the checkpoint's operation and carries its idempotencyKey.",
    check: (docs: readonly ContractDocument[]) => {
      const [cp, rec] = docs as unknown as Doc[];
      if (!cp || !rec)
        return [
          issue(
            'TURN_CHECKPOINT_KEY_MISMATCH',
            '/documents',
            'a checkpoint-operation bundle is [CheckpointV1, TaskOperationRecordV1].',
            S_CHECKPOINT,
          ),
        ];
      if (rec.operationId !== cp.operationId)
        return [
          issue(
            'TURN_CHECKPOINT_KEY_MISMATCH',
            '/documents/1/operationId',
            `the record is operation ${rec.operationId} but the checkpoint concerns ${cp.operationId}; do not resume, reconcile the operation first.`,
            S_CHECKPOINT,
          ),
        ];
      if (rec.idempotencyKey !== cp.idempotencyKey)
        return [
          issue(
            'TURN_CHECKPOINT_KEY_MISMATCH',
            '/documents/1/idempotencyKey',
            `the operation record carries idempotencyKey ${rec.idempotencyKey}, the checkpoint ${cp.idempotencyKey}; do not resume, reconcile the operation first.`,
            S_CHECKPOINT,
          ),
        ];
      return [];
    },
  },
];
