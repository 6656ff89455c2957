import { derivedId, digestOf } from '@agent-contracts/digest';
import type { AgentRouteDecisionV1 } from '../contracts/agent-routing.js';
import type { DigestRule } from '../digest-rules.js';

/** `decisionId`: `route-` + 24 hex of digestOf(`{seedDigest, decidedAt}`). */
export function computeRouteDecisionId(doc: {
  input: { intentSeed: { seedDigest: string } };
  decidedAt: string;
}): string {
  return derivedId('route-', { seedDigest: doc.input.intentSeed.seedDigest, decidedAt: doc.decidedAt }, 24);
}

/** `decisionDigest`: digest of the whole document except `decisionDigest`. */
export function computeRouteDecisionDigest(
  doc: Omit<AgentRouteDecisionV1, 'decisionDigest'> & { decisionDigest?: string },
): string {
  const { decisionDigest: _omit, ...rest } = doc;
  return digestOf(rest);
}

/** Digest rules of this area's contracts. */
export const AGENT_ROUTING_DIGEST_RULES: readonly DigestRule[] = [
  {
    contract: 'AgentRouteDecisionV1',
    pointer: '/decisionId',
    code: 'ROUTE_DECISION_ID_MISMATCH',
    covers:
      '`"route-"` + the first 24 hex characters of digestOf(`{seedDigest: input.intentSeed.seedDigest, decidedAt}`): one id per seed and decision time, so a re-decision of the same message gets a new id.',
    compute: (document) => [
      { pointer: '/decisionId', expected: computeRouteDecisionId(document as AgentRouteDecisionV1) },
    ],
  },
  {
    contract: 'AgentRouteDecisionV1',
    pointer: '/decisionDigest',
    code: 'ROUTE_DECISION_DIGEST_MISMATCH',
    covers:
      'digestOf(the whole document without the `decisionDigest` member): schemaVersion, decisionId, input, intent, route, reason, confirmation, degradation and decidedAt.',
    compute: (document) => [
      {
        pointer: '/decisionDigest',
        expected: computeRouteDecisionDigest(document as AgentRouteDecisionV1),
      },
    ],
  },
];
