// Cross-document rules of the TurnLivenessRecoveryGate bundle kinds
// (docs/spec/turn-liveness-recovery-gate.md): turn-state-evidence, turn-state-card,
// turn-recovery-cards and checkpoint-operation.
import { classifyAt, turnStateDigest } from '@agent-contracts/engines';
import type {
  CheckpointV1,
  TaskOperationRecordV1,
  TurnLivenessEvidenceV1,
  TurnLivenessStateV1,
  TurnRecoveryCardV1,
} from '@agent-contracts/schemas';
import type { Issue } from '../../issues.js';
import { sameJson } from '../json.js';
import { bundleRule, issue } from '../kit.js';
import type { BundleRule, ContractDocument } from '../types.js';
import { ms, S_CARD, S_CHECKPOINT, S_EMISSION, S_EVIDENCE } from './shared.js';

type State = TurnLivenessStateV1;

/** A bundle's documents as the contracts its kind lists (bundle rules run on valid documents only). */
const documentsOf = <T extends readonly unknown[]>(docs: readonly ContractDocument[]) =>
  docs as unknown as Partial<T>;

/** A document made from `state`: its digest, sequence and the fields it copies match the state. */
function sourceIssues<D extends TurnLivenessEvidenceV1 | TurnRecoveryCardV1>(
  state: State,
  doc: D,
  index: number,
  copies: readonly (keyof D & keyof State)[],
  rule: string,
): Issue[] {
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
          `/documents/${index}/${String(f)}`,
          `${String(f)} differs from the state's ${String(f)}; copies must equal what was read.`,
          rule,
        ),
      );
  return out;
}

/** Cross-document rules of this area's bundle kinds. */
export const TURN_LIVENESS_BUNDLE_RULES: readonly BundleRule[] = [
  bundleRule(
    'TURN_EVIDENCE_SOURCE_MISMATCH',
    'turn-state-evidence',
    S_EVIDENCE,
    'Documents [state, evidence, state read again?]: the evidence digest, sequence and copies match the state, and the state read after the observation has the same digest.',
    (docs) => {
      const [state, evidence, after] = documentsOf<[State, TurnLivenessEvidenceV1, State]>(docs);
      if (!state || !evidence)
        return [
          issue(
            'TURN_EVIDENCE_SOURCE_MISMATCH',
            '/documents',
            'a turn-state-evidence bundle is [TurnLivenessStateV1, TurnLivenessEvidenceV1, optional TurnLivenessStateV1].',
            S_EVIDENCE,
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
        S_EVIDENCE,
      );
      if (evidence.persistedState !== state.state)
        out.push(
          issue(
            'TURN_EVIDENCE_SOURCE_MISMATCH',
            '/documents/1/persistedState',
            `persistedState must be the state's state ${state.state}.`,
            S_EVIDENCE,
          ),
        );
      if (after && turnStateDigest(after) !== evidence.sourceStateDigest)
        out.push(
          issue(
            'TURN_EVIDENCE_SOURCE_MISMATCH',
            '/documents/2',
            'the state read after the observation differs from the one observed; a read-only observation changed it. Investigate the writer.',
            S_EVIDENCE,
          ),
        );
      return out;
    },
  ),
  bundleRule(
    'TURN_EVIDENCE_SOURCE_MISMATCH',
    'turn-state-card',
    S_CARD,
    'Documents [state, card]: the card digest, sequence and copies match the state, and classifying the state at observedAt gives priorState, reason and referenceAt.',
    (docs) => {
      const [state, card] = documentsOf<[State, TurnRecoveryCardV1]>(docs);
      if (!state || !card)
        return [
          issue(
            'TURN_EVIDENCE_SOURCE_MISMATCH',
            '/documents',
            'a turn-state-card bundle is [TurnLivenessStateV1, TurnRecoveryCardV1].',
            S_CARD,
          ),
        ];
      const out = sourceIssues(
        state,
        card,
        1,
        ['turnKey', 'lastEventType', 'lastEventAt', 'lastToolOutputAt', 'continuationAckAt', 'checkpoint'],
        S_CARD,
      );
      const c = classifyAt(state, ms(card.observedAt));
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
            S_CARD,
          ),
        );
      return out;
    },
  ),
  bundleRule(
    'TURN_RECOVERY_NOTICE_DUPLICATE',
    'turn-recovery-cards',
    S_EMISSION,
    "One observer's cards, in order: no two share a noticeKey.",
    (docs) => {
      const seen = new Map<string, number>();
      const out: Issue[] = [];
      (docs as unknown as readonly TurnRecoveryCardV1[]).forEach((card, i) => {
        const first = seen.get(card.noticeKey);
        if (first !== undefined)
          out.push(
            issue(
              'TURN_RECOVERY_NOTICE_DUPLICATE',
              `/documents/${i}/noticeKey`,
              `card ${i} repeats the noticeKey of card ${first}; a card is emitted at most once per key, so drop the duplicate.`,
              S_EMISSION,
            ),
          );
        else seen.set(card.noticeKey, i);
      });
      return out;
    },
  ),
  bundleRule(
    'TURN_CHECKPOINT_KEY_MISMATCH',
    'checkpoint-operation',
    S_CHECKPOINT,
    "Documents [CheckpointV1, TaskOperationRecordV1]: the record is the checkpoint's operation and carries its idempotencyKey.",
    (docs) => {
      const [cp, rec] = documentsOf<[CheckpointV1, TaskOperationRecordV1]>(docs);
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
  ),
];
