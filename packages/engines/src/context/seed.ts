// Producing an IntentSeedV1 (docs/spec/context-acquisition-gate.md, "Producing a seed"): the input
// record is normalized, never trusted; a word of the message is never an intent.
import { derivedId } from '@agent-contracts/digest';
import type { ContextIntent, ContextRisk, IntentSeedV1 } from '@agent-contracts/schemas';
import { type Clock, timestampOf } from '../clock.js';
import { type EngineRefusal, refusal } from '../refusal.js';

/** The canonical intents, in the page's order. */
export const CONTEXT_INTENTS: readonly ContextIntent[] = [
  'dev',
  'fix',
  'analyze',
  'audit',
  'self-fix',
  'chat',
  'resume',
  'other',
];
const RISKS: readonly ContextRisk[] = ['normal', 'high', 'critical'];
const INPUT_KEYS = new Set([
  'schemaVersion',
  'contextEpoch',
  'semantic',
  'intent',
  'targetHint',
  'continuationHint',
  'riskHint',
  'confidence',
  'createdAt',
]);
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
const EPOCH = /^\S{1,256}$/;

/** Codes a seed input is refused with. */
export type SeedRefusalCode = 'CONTEXT_INTENT_REQUIRED' | 'CONTEXT_INTENT_INVALID' | 'CONTEXT_PLAN_INVALID';

/** Result of {@link formIntentSeed}. */
export type SeedResult =
  | { readonly ok: true; readonly seed: IntentSeedV1 }
  | EngineRefusal<SeedRefusalCode, { readonly path: string }>;

const refuse = (code: SeedRefusalCode, path: string, message: string): SeedResult =>
  refusal(code, message, { path });

/**
 * Normalize a seed input record into an `IntentSeedV1`, or refuse it with the page's code.
 *
 * @example
 * const r = formIntentSeed({ intent: 'fix', targetHint: ' acme ' }, clock);
 * if (r.ok) r.seed.targetHint; // 'acme'
 */
export function formIntentSeed(input: unknown, clock: Clock): SeedResult {
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    return refuse(
      'CONTEXT_INTENT_REQUIRED',
      '',
      'the seed input is not an object; classify the message into one canonical intent and retry.',
    );
  const rec = input as Record<string, unknown>;
  for (const key of Object.keys(rec))
    if (!INPUT_KEYS.has(key))
      return refuse(
        'CONTEXT_PLAN_INVALID',
        `/${key}`,
        `"${key}" is not a seed input key; a seed never carries plan or receipt fields, remove it.`,
      );
  if (rec.schemaVersion !== undefined && rec.schemaVersion !== 'IntentSeedV1')
    return refuse(
      'CONTEXT_PLAN_INVALID',
      '/schemaVersion',
      'schemaVersion must be "IntentSeedV1" when given.',
    );
  // Null and the empty string are no intent given (D-CTX-55): only two given values must agree.
  const given = (v: unknown) => (v === null || v === '' ? undefined : v);
  const semantic = given(rec.semantic);
  const intent = given(rec.intent);
  if (semantic !== undefined && intent !== undefined && semantic !== intent)
    return refuse(
      'CONTEXT_INTENT_INVALID',
      '/intent',
      `intent ${JSON.stringify(intent)} differs from semantic ${JSON.stringify(semantic)}; give one canonical intent.`,
    );
  const chosen = semantic ?? intent;
  if (chosen === undefined)
    return refuse(
      'CONTEXT_INTENT_REQUIRED',
      '/semantic',
      'no intent given; classify the message into one canonical intent and retry.',
    );
  if (typeof chosen !== 'string' || !(CONTEXT_INTENTS as readonly string[]).includes(chosen))
    return refuse(
      'CONTEXT_INTENT_INVALID',
      semantic !== undefined ? '/semantic' : '/intent',
      `${JSON.stringify(chosen)} is not a canonical intent (a word of the message is never an intent); use one of ${CONTEXT_INTENTS.join(', ')}.`,
    );
  const riskHint = rec.riskHint ?? 'normal';
  if (typeof riskHint !== 'string' || !(RISKS as readonly string[]).includes(riskHint))
    return refuse('CONTEXT_PLAN_INVALID', '/riskHint', `riskHint must be one of ${RISKS.join(', ')}.`);
  const confidence = rec.confidence ?? 1;
  if (typeof confidence !== 'number' || !Number.isFinite(confidence) || confidence < 0 || confidence > 1)
    return refuse('CONTEXT_PLAN_INVALID', '/confidence', 'confidence must be a number from 0 to 1.');
  let targetHint: string | null = null;
  if (rec.targetHint !== undefined && rec.targetHint !== null) {
    if (typeof rec.targetHint !== 'string')
      return refuse('CONTEXT_PLAN_INVALID', '/targetHint', 'targetHint must be a string or null.');
    const t = rec.targetHint.trim();
    if (t.length > 256)
      return refuse('CONTEXT_PLAN_INVALID', '/targetHint', 'targetHint is longer than 256 characters.');
    targetHint = t === '' ? null : t;
  }
  const createdAt = rec.createdAt ?? timestampOf(clock.now());
  if (typeof createdAt !== 'string' || !TIMESTAMP.test(createdAt) || Number.isNaN(Date.parse(createdAt)))
    return refuse('CONTEXT_PLAN_INVALID', '/createdAt', 'createdAt must be an RFC 3339 UTC timestamp.');
  const contextEpoch =
    rec.contextEpoch ?? `ctx-${derivedId('', { semantic: chosen, targetHint, createdAt }, 20)}`;
  if (typeof contextEpoch !== 'string' || !EPOCH.test(contextEpoch))
    return refuse(
      'CONTEXT_PLAN_INVALID',
      '/contextEpoch',
      'contextEpoch must be 1-256 characters without whitespace.',
    );
  return {
    ok: true,
    seed: {
      schemaVersion: 'IntentSeedV1',
      contextEpoch,
      semantic: chosen as ContextIntent,
      targetHint,
      continuationHint: rec.continuationHint === true,
      riskHint: riskHint as ContextRisk,
      confidence,
      createdAt,
    },
  };
}
