// The clock, page, fixture and session of the context cases, and the params of a plan request.
import { fileURLToPath } from 'node:url';
import type { ContextCatalogue } from '@agent-contracts/engines';
import { CONTEXT_CATALOGUE } from '@agent-contracts/harness/explore';

export const T0 = '2026-12-02T05:00:00.000Z';
export const PAGE = 'docs/spec/context-acquisition-gate.md';
export const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
export const V1_RECEIPT_FIXTURE = 'ContextReadReceiptV1/valid/legacy-relevant-complete.json';
export const fixturesDir = fileURLToPath(new URL('../../../conformance/fixtures/', import.meta.url));

export const TESTING_BODY = '# Testing\n\nRun `pnpm test` before every commit.\n';
export const SESSION = 'sess-0001';
export const PLAN_CALL = 'toolu-plan-0001';

/** The params of a plan request, as the case sends them. */
export interface PlanParams {
  readonly seed: Record<string, unknown>;
  readonly catalogue: ContextCatalogue;
  readonly host: string;
  readonly invocationNonce: string;
  readonly [key: string]: unknown;
}
export const planParams = (
  over: Partial<PlanParams> = {},
  seed: Record<string, unknown> = {},
): PlanParams => ({
  seed: { semantic: 'fix', contextEpoch: 'ctx-epoch-one', ...seed },
  catalogue: CONTEXT_CATALOGUE,
  host: 'standalone',
  invocationNonce: 'nonce-0000-0000-0001',
  changeTypes: ['testing'],
  ...over,
});
