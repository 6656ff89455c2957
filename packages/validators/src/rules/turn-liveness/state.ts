// Semantic rules of TurnLivenessStateV1 (docs/spec/turn-liveness-recovery-gate.md#invariants-1).
// The embedded checkpoint and validations are judged by the rules of their own contracts
// (checkpoint.ts, checkpoint-validation.ts), reported at their place in the state.
import { isTerminalEvidence, isTerminalState } from '@agent-contracts/engines';
import type { TurnLivenessStateV1 } from '@agent-contracts/schemas';
import type { Issue } from '../../issues.js';
import { contractRules } from '../kit.js';
import type { SemanticRule } from '../types.js';
import { checkpointPhaseIssues } from './checkpoint.js';
import { terminalEvidenceMissing, validationInconsistencies } from './checkpoint-validation.js';
import { ms, S_STATE, thresholdRule } from './shared.js';

const STATE = 'TurnLivenessStateV1';
const { issue, rule } = contractRules<TurnLivenessStateV1>(STATE, S_STATE);

/** The terminal reason each terminal state ends with. */
const TERMINAL_REASON: Record<string, string> = {
  completed: 'host-stop',
  error: 'host-error',
  interrupted: 'host-interrupt',
};
/** The terminal state each end reason of a previous turn goes with. */
const END_REASON_STATUS: Record<string, string> = {
  'host-stop': 'completed',
  'host-error': 'error',
  'host-interrupt': 'interrupted',
  'superseded-by-new-prompt': 'interrupted',
  'stale-turn-recovered-by-new-prompt': 'interrupted',
};
const IDLE_NULL: readonly (keyof TurnLivenessStateV1)[] = [
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
const STARTED_SET: readonly (keyof TurnLivenessStateV1)[] = [
  'turnKey',
  'startedAt',
  'lastEventType',
  'lastEventAt',
  'checkpoint',
  'checkpointValidation',
  'taskTraceId',
];

/** Semantic rules of TurnLivenessStateV1, in spec order. */
export const STATE_RULES: readonly SemanticRule[] = [
  thresholdRule(STATE, S_STATE),
  rule(
    'TURN_EVENT_EVIDENCE_MISSING',
    'An idle state carries no turn fields; every other state carries its evidence fields and eventSequence >= 1.',
    (d) => {
      const code = 'TURN_EVENT_EVIDENCE_MISSING';
      if (d.state === 'idle')
        return IDLE_NULL.filter((f) => d[f] !== null).map((f) =>
          issue(
            code,
            `/${f}`,
            `an idle state has no turn, so ${f} must be null; rebuild the state from host events.`,
          ),
        );
      const out = STARTED_SET.filter((f) => d[f] === null).map((f) =>
        issue(code, `/${f}`, `a ${d.state} state needs ${f}; rebuild the state from host events.`),
      );
      if (d.eventSequence < 1)
        out.push(
          issue(
            code,
            '/eventSequence',
            `a ${d.state} state has seen at least one event; eventSequence must be >= 1.`,
          ),
        );
      return out;
    },
  ),
  rule(
    'TURN_EVENT_ORDER_INVALID',
    'initializedAt <= startedAt <= lastEventAt; lastToolOutputAt, continuationAckAt and terminalAt lie between startedAt and lastEventAt; previousTurn.terminalAt <= startedAt.',
    (d) => {
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
          ),
        );
    },
  ),
  rule(
    'TURN_AWAITING_STATE_INVALID',
    'awaiting-continuation has a tool output and its call id, no lease, and no acknowledgement at or after the output.',
    (d) => {
      if (d.state !== 'awaiting-continuation') return [];
      const code = 'TURN_AWAITING_STATE_INVALID';
      const out: Issue[] = [];
      for (const f of ['lastToolOutputAt', 'lastToolCallId'] as const)
        if (d[f] === null)
          out.push(
            issue(
              code,
              `/${f}`,
              `awaiting-continuation waits on a tool output, so ${f} must be set; refuse the state.`,
            ),
          );
      if (d.inFlightOperation !== null)
        out.push(
          issue(
            code,
            '/inFlightOperation',
            'awaiting-continuation holds no lease (the output ended it); refuse the state.',
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
          ),
        );
      return out;
    },
  ),
  rule(
    'TURN_OPERATION_LEASE_INVALID',
    'A lease exists only in running, starts at or after the turn, and expires exactly operationLeaseMs after it started.',
    (d) => {
      const lease = d.inFlightOperation;
      if (lease === null || isTerminalState(d.state)) return []; // terminal: TURN_TERMINAL_LEASE_NOT_CLEARED
      const code = 'TURN_OPERATION_LEASE_INVALID';
      const out: Issue[] = [];
      if (d.state !== 'running' && d.state !== 'awaiting-continuation')
        out.push(
          issue(
            code,
            '/inFlightOperation',
            `a lease exists only while the turn is running, not ${d.state}; refuse the state.`,
          ),
        );
      if (d.startedAt !== null && ms(lease.startedAt) < ms(d.startedAt))
        out.push(
          issue(code, '/inFlightOperation/startedAt', 'the lease started before the turn; refuse the state.'),
        );
      if (ms(lease.leaseExpiresAt) !== ms(lease.startedAt) + d.thresholds.operationLeaseMs)
        out.push(
          issue(
            code,
            '/inFlightOperation/leaseExpiresAt',
            `leaseExpiresAt must be startedAt + operationLeaseMs (${new Date(ms(lease.startedAt) + d.thresholds.operationLeaseMs).toISOString()}); refuse the state.`,
          ),
        );
      return out;
    },
  ),
  rule(
    'TURN_TERMINAL_LEASE_NOT_CLEARED',
    'A terminal state (completed, error, interrupted) holds no in-flight lease.',
    (d) =>
      isTerminalState(d.state) && d.inFlightOperation !== null
        ? [
            issue(
              'TURN_TERMINAL_LEASE_NOT_CLEARED',
              '/inFlightOperation',
              `a ${d.state} turn still holds lease ${d.inFlightOperation.operationId}; every terminal edge clears the lease, so refuse the state.`,
            ),
          ]
        : [],
  ),
  rule(
    'TURN_TERMINAL_FIELDS_INVALID',
    'terminalAt and terminalReason are set iff the state is terminal, the reason goes with the state, and previousTurn.reason goes with previousTurn.terminalState.',
    (d) => {
      const code = 'TURN_TERMINAL_FIELDS_INVALID';
      const out: Issue[] = [];
      const terminal = isTerminalState(d.state);
      for (const f of ['terminalAt', 'terminalReason'] as const)
        if ((d[f] !== null) !== terminal)
          out.push(
            issue(
              code,
              `/${f}`,
              terminal
                ? `a ${d.state} turn records ${f}; set it.`
                : `${f} is set but the turn is ${d.state}; it must be null.`,
            ),
          );
      if (terminal && d.terminalReason !== null && d.terminalReason !== TERMINAL_REASON[d.state])
        out.push(
          issue(
            code,
            '/terminalReason',
            `a ${d.state} turn ends with ${TERMINAL_REASON[d.state]}, not ${d.terminalReason}; refuse the state.`,
          ),
        );
      if (d.previousTurn && END_REASON_STATUS[d.previousTurn.reason] !== d.previousTurn.terminalState)
        out.push(
          issue(
            code,
            '/previousTurn/reason',
            `reason ${d.previousTurn.reason} goes only with ${END_REASON_STATUS[d.previousTurn.reason]}, not ${d.previousTurn.terminalState}; refuse the state.`,
          ),
        );
      return out;
    },
  ),
  rule('TURN_KEY_REUSED', 'previousTurn.turnKey differs from turnKey.', (d) =>
    d.previousTurn && d.previousTurn.turnKey === d.turnKey
      ? [
          issue(
            'TURN_KEY_REUSED',
            '/previousTurn/turnKey',
            `the previous turn has the current key ${d.turnKey}; each turn needs a fresh key.`,
          ),
        ]
      : [],
  ),
  rule(
    'TURN_CHECKPOINT_BINDING_MISMATCH',
    'The checkpoint and both validations belong to this turn, sit in their mode slots, and post-execution deadlineAt = startedAt + operationLeaseMs + stalledAfterMs.',
    (d) => {
      const code = 'TURN_CHECKPOINT_BINDING_MISMATCH';
      const out: Issue[] = [];
      if (d.checkpoint && d.checkpoint.turnKey !== d.turnKey)
        out.push(
          issue(
            code,
            '/checkpoint/turnKey',
            `the checkpoint belongs to ${d.checkpoint.turnKey}, not the current turn ${d.turnKey}; refuse the state.`,
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
            ),
          );
        if (pair[slot].mode !== mode)
          out.push(
            issue(
              code,
              `/checkpointValidation/${slot}/mode`,
              `the ${slot} slot holds a ${pair[slot].mode} validation; it must hold ${mode}.`,
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
          ),
        );
      return out;
    },
  ),
  rule(
    'TURN_CHECKPOINT_PHASE_INVALID',
    'A non-terminal state with a lease has a checkpoint naming it (phase tool:<toolName> or pre-compact); a terminal state has phase terminal:<state> and no operation; the embedded checkpoint satisfies CheckpointV1 invariant 2.',
    (d) => {
      const c = d.checkpoint;
      if (!c) return [];
      const code = 'TURN_CHECKPOINT_PHASE_INVALID';
      const lease = d.inFlightOperation;
      if (lease && !isTerminalState(d.state)) {
        if (c.operationId !== lease.operationId)
          return [
            issue(
              code,
              '/checkpoint/operationId',
              `the checkpoint must name the in-flight operation ${lease.operationId}; refuse the state.`,
            ),
          ];
        if (c.phase !== `tool:${lease.toolName}` && c.phase !== 'pre-compact')
          return [
            issue(
              code,
              '/checkpoint/phase',
              `with lease ${lease.operationId} in flight the phase is tool:${lease.toolName} or pre-compact, not ${c.phase}; refuse the state.`,
            ),
          ];
      }
      if (isTerminalState(d.state) && c.phase !== `terminal:${d.state}`)
        return [
          issue(
            code,
            '/checkpoint/phase',
            `a ${d.state} turn has checkpoint phase terminal:${d.state}, not ${c.phase}; refuse the state.`,
          ),
        ];
      return checkpointPhaseIssues(c, '/checkpoint', S_STATE);
    },
  ),
  rule(
    'TURN_TERMINAL_EVIDENCE_REQUIRED',
    'A post-execution pass needs a terminal state and terminal evidence of that status; a terminal state has a post-execution pass (or blocked with blocking issues).',
    (d) => {
      const pe = d.checkpointValidation?.postExecution;
      if (pe?.mode !== 'post-execution') return [];
      const code = 'TURN_TERMINAL_EVIDENCE_REQUIRED';
      const path = '/checkpointValidation/postExecution/status';
      if (pe.status === 'pass') {
        if (!isTerminalState(d.state))
          return [
            issue(
              code,
              path,
              `post-execution passes but the turn is ${d.state}; a turn is finished only by a terminal event. Treat it as unfinished.`,
            ),
          ];
        const state = d.state;
        if (!pe.evidence.some((e) => isTerminalEvidence(e) && e.terminalStatus === state))
          return [
            issue(
              code,
              path,
              `post-execution passes without terminal evidence reporting ${d.state}; wait for the terminal event.`,
            ),
          ];
      } else if (isTerminalState(d.state) && !(pe.status === 'blocked' && pe.blockingIssues.length > 0)) {
        return [
          issue(
            code,
            path,
            `a ${d.state} turn has post-execution ${pe.status}; its terminal evidence makes it pass (or blocked with blocking issues). Recompute the validation.`,
          ),
        ];
      }
      return terminalEvidenceMissing(pe, '/checkpointValidation/postExecution', S_STATE);
    },
  ),
  rule(
    'TURN_CHECKPOINT_VALIDATION_INCONSISTENT',
    "Each embedded CheckpointValidationResultV1 satisfies that contract's invariants (decision table, evidence items, deadline, evidence times).",
    (d) => {
      const pair = d.checkpointValidation;
      if (!pair) return [];
      return [
        ...validationInconsistencies(pair.responseTime, '/checkpointValidation/responseTime', S_STATE),
        ...validationInconsistencies(pair.postExecution, '/checkpointValidation/postExecution', S_STATE),
      ];
    },
  ),
];
