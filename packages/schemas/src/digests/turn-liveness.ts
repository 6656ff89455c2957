import { derivedId, digestOf } from '@agent-contracts/digest';
import type { DigestRule } from '../digest-rules.js';

/** The fields a recovery notice key is derived from. */
export interface RecoveryNoticeKeyInput {
  turnKey: string;
  referenceAt: string;
  priorState: 'suspect' | 'stalled-recoverable';
  reason: string;
}

/**
 * `TurnRecoveryCardV1.noticeKey`: `derivedId('turn-notice-', {turnKey, referenceAt, priorState, reason}, 24)`.
 * The same stale condition of the same turn always gives the same key, so a card is emitted at
 * most once for it; escalation (`suspect` -> `stalled-recoverable`) gives a new key.
 *
 * @example
 * noticeKey({ turnKey: 't-1', referenceAt: '2026-11-30T05:53:08.000Z', priorState: 'suspect', reason: 'continuation-grace-expired' }).startsWith('turn-notice-');
 */
export function noticeKey(input: RecoveryNoticeKeyInput): string {
  const { turnKey, referenceAt, priorState, reason } = input;
  return derivedId('turn-notice-', { turnKey, referenceAt, priorState, reason }, 24);
}

/**
 * `CheckpointV1.resumeToken`: `derivedId('resume-', {purpose: 'resume', turnKey, operationId}, 24)`;
 * `operationId` may be `null`. The `purpose` member keeps the token and the idempotency key of the
 * same operation from sharing their hex part.
 */
export function resumeToken(turnKey: string, operationId: string | null): string {
  return derivedId('resume-', { purpose: 'resume', turnKey, operationId }, 24);
}

/** `CheckpointV1.idempotencyKey`: `derivedId('idem-', {purpose: 'idempotency', turnKey, operationId}, 24)`, or `null` when `operationId` is `null`. */
export function idempotencyKey(turnKey: string, operationId: string | null): string | null {
  return operationId === null
    ? null
    : derivedId('idem-', { purpose: 'idempotency', turnKey, operationId }, 24);
}

/** `TurnLivenessContractV1.contractDigest`: JCS SHA-256 of the document without `contractDigest`. */
export function turnLivenessContractDigest(contract: Record<string, unknown>): string {
  const { contractDigest: _self, ...rest } = contract;
  return digestOf(rest);
}

type Doc = Record<string, unknown>;
const asDoc = (v: unknown): Doc => (v && typeof v === 'object' ? (v as Doc) : {});

/** Expected resumeToken/idempotencyKey of a checkpoint found at `base` (`''` for a CheckpointV1 document). */
function checkpointKeys(
  checkpoint: unknown,
  base: string,
): Array<{ pointer: string; expected: string | null }> {
  if (checkpoint === null || checkpoint === undefined) return [];
  const c = asDoc(checkpoint);
  const turnKey = String(c.turnKey);
  const operationId = (c.operationId ?? null) as string | null;
  return [
    { pointer: `${base}/resumeToken`, expected: resumeToken(turnKey, operationId) },
    { pointer: `${base}/idempotencyKey`, expected: idempotencyKey(turnKey, operationId) },
  ];
}

const CHECKPOINT_COVERS =
  "resumeToken = derivedId('resume-', {purpose: 'resume', turnKey, operationId}, 24) and idempotencyKey = derivedId('idem-', {purpose: 'idempotency', turnKey, operationId}, 24) (null when operationId is null), over the checkpoint's own turnKey and operationId";

/** Digest rules of this area's contracts. */
export const TURN_LIVENESS_DIGEST_RULES: readonly DigestRule[] = [
  {
    contract: 'TurnLivenessContractV1',
    pointer: '/contractDigest',
    code: 'TURN_CONTRACT_DIGEST_MISMATCH',
    covers:
      'digestOf(the whole document without contractDigest): schemaVersion, runtimeName, runtimeVersion, frozenAt, all nine rows and thresholds',
    compute: (doc) => [{ pointer: '/contractDigest', expected: turnLivenessContractDigest(asDoc(doc)) }],
  },
  {
    contract: 'CheckpointV1',
    pointer: '/resumeToken',
    code: 'TURN_CHECKPOINT_KEY_MISMATCH',
    covers: CHECKPOINT_COVERS,
    compute: (doc) => checkpointKeys(doc, ''),
  },
  {
    contract: 'TurnLivenessStateV1',
    pointer: '/checkpoint/resumeToken',
    code: 'TURN_CHECKPOINT_KEY_MISMATCH',
    covers: `the embedded checkpoint, when not null: ${CHECKPOINT_COVERS}`,
    compute: (doc) => checkpointKeys(asDoc(doc).checkpoint, '/checkpoint'),
  },
  {
    contract: 'TurnLivenessEvidenceV1',
    pointer: '/checkpoint/resumeToken',
    code: 'TURN_CHECKPOINT_KEY_MISMATCH',
    covers: `the copied checkpoint, when not null: ${CHECKPOINT_COVERS}`,
    compute: (doc) => checkpointKeys(asDoc(doc).checkpoint, '/checkpoint'),
  },
  {
    contract: 'TurnRecoveryCardV1',
    pointer: '/noticeKey',
    code: 'TURN_RECOVERY_NOTICE_KEY_MISMATCH',
    covers:
      "derivedId('turn-notice-', {turnKey, referenceAt, priorState, reason}, 24) over the card's own fields of those names",
    compute: (doc) => {
      const d = asDoc(doc);
      return [
        {
          pointer: '/noticeKey',
          expected: noticeKey({
            turnKey: String(d.turnKey),
            referenceAt: String(d.referenceAt),
            priorState: d.priorState as RecoveryNoticeKeyInput['priorState'],
            reason: String(d.reason),
          }),
        },
      ];
    },
  },
  {
    contract: 'TurnRecoveryCardV1',
    pointer: '/checkpoint/resumeToken',
    code: 'TURN_CHECKPOINT_KEY_MISMATCH',
    covers: `the copied checkpoint: ${CHECKPOINT_COVERS}`,
    compute: (doc) => checkpointKeys(asDoc(doc).checkpoint, '/checkpoint'),
  },
];
