// Semantic rules of TurnRecoveryCardV1 (docs/spec/turn-liveness-recovery-gate.md#invariants-3).
import type { TurnRecoveryCardV1 } from '@agent-contracts/schemas';
import type { Issue } from '../../issues.js';
import { contractRules } from '../kit.js';
import type { SemanticRule } from '../types.js';
import { ms, S_CARD } from './shared.js';

const { issue, rule } = contractRules<TurnRecoveryCardV1>('TurnRecoveryCardV1', S_CARD);

/** The one prior state each classification-only reason goes with. */
const REASON_STATE: Record<string, string> = {
  'continuation-grace-expired': 'suspect',
  'continuation-timeout': 'stalled-recoverable',
};

/** Semantic rules of TurnRecoveryCardV1. */
export const CARD_RULES: readonly SemanticRule[] = [
  rule(
    'TURN_RECOVERY_CARD_INCONSISTENT',
    'ageMs = observedAt - referenceAt; reason goes with priorState; inFlightOperationId iff operation-lease-expired; checkpoint of this turn; lastEventAt <= observedAt; recommendedAction follows the idempotency key.',
    (d) => {
      const code = 'TURN_RECOVERY_CARD_INCONSISTENT';
      const out: Issue[] = [];
      const age = ms(d.observedAt) - ms(d.referenceAt);
      if (age < 0 || d.ageMs !== age)
        out.push(
          issue(
            code,
            '/ageMs',
            `ageMs must be observedAt - referenceAt = ${age} (and not negative); refuse the card.`,
          ),
        );
      const paired = REASON_STATE[d.reason];
      if (paired !== undefined && paired !== d.priorState)
        out.push(
          issue(
            code,
            '/reason',
            `reason ${d.reason} goes only with ${paired}, not ${d.priorState}; refuse the card.`,
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
          ),
        );
      if (d.checkpoint.turnKey !== d.turnKey)
        out.push(
          issue(
            code,
            '/checkpoint/turnKey',
            `the checkpoint belongs to ${d.checkpoint.turnKey}, not the stale turn ${d.turnKey}; refuse the card.`,
          ),
        );
      if (ms(d.lastEventAt) > ms(d.observedAt))
        out.push(
          issue(
            code,
            '/lastEventAt',
            'the card was observed before the last event it copies; refuse the card.',
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
          ),
        );
      return out;
    },
  ),
];
