// checkpoint.validate (TurnLivenessRecoveryGate, CheckpointValidationResultV1): the pure decision
// table at the implementation's clock. Stateless.
import { type CheckpointEvidence, type ManualClock, validateCheckpoint } from '@agent-contracts/engines';
import { InvalidParams, Refusal } from '@agent-contracts/protocol';
import { isObject, objectParams, optStrings, str } from './params.js';

const KINDS = new Set([
  'host-event',
  'tool-output',
  'pre-compact',
  'sidecar-observation',
  'host-terminal-event',
  'host-native-terminal-status',
]);
const TERMINAL_KINDS = new Set(['host-terminal-event', 'host-native-terminal-status']);
const STATUSES = new Set(['completed', 'error', 'interrupted']);

/** Check the shape of one evidence item (its meaning is the engine's to judge). */
function evidenceItem(raw: unknown, i: number): CheckpointEvidence {
  const at = `evidence[${i}]`;
  if (!isObject(raw)) throw new InvalidParams(`${at} must be an object`);
  if (typeof raw.kind !== 'string' || !KINDS.has(raw.kind))
    throw new InvalidParams(`${at}.kind must be one of ${[...KINDS].join(', ')}`);
  str(raw, 'eventType', at);
  if (typeof raw.eventSequence !== 'number' || !Number.isInteger(raw.eventSequence) || raw.eventSequence < 0)
    throw new InvalidParams(`${at}.eventSequence must be a non-negative integer`);
  if (typeof raw.observedAt !== 'string' || Number.isNaN(Date.parse(raw.observedAt)))
    throw new InvalidParams(`${at}.observedAt must be an RFC 3339 timestamp`);
  const terminal = TERMINAL_KINDS.has(raw.kind);
  if (terminal !== (typeof raw.terminalStatus === 'string' && STATUSES.has(raw.terminalStatus)))
    throw new InvalidParams(
      `${at}.terminalStatus (completed, error, interrupted) is required on terminal kinds and absent otherwise`,
    );
  return raw as unknown as CheckpointEvidence;
}

/**
 * The checkpoint.validate method.
 *
 * @example
 * const methods = checkpointMethods(clock);
 * methods['checkpoint.validate']!({ turnKey: 't1', mode: 'response-time', evidence: [], deadlineAt: null });
 */
export function checkpointMethods(clock: ManualClock): Record<string, (params: unknown) => unknown> {
  return {
    'checkpoint.validate'(params) {
      const p = objectParams(params, 'checkpoint.validate');
      const turnKey = str(p, 'turnKey', 'params');
      if (!Array.isArray(p.evidence)) throw new InvalidParams('params.evidence must be an array');
      const evidence = p.evidence.map(evidenceItem);
      const blockingIssues = optStrings(p, 'blockingIssues', 'params');
      const requiredActions = optStrings(p, 'requiredActions', 'params');
      const deadlineAt = p.deadlineAt;
      if (deadlineAt !== null && (typeof deadlineAt !== 'string' || Number.isNaN(Date.parse(deadlineAt))))
        throw new InvalidParams('params.deadlineAt must be an RFC 3339 timestamp or null');
      const r = validateCheckpoint(
        {
          turnKey,
          mode: typeof p.mode === 'string' ? p.mode : String(p.mode),
          evidence,
          ...(blockingIssues === undefined ? {} : { blockingIssues }),
          ...(requiredActions === undefined ? {} : { requiredActions }),
          deadlineAt,
        },
        clock,
      );
      if (!r.ok) throw Refusal.from(r);
      return r.result;
    },
  };
}
