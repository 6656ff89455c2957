// @module-tag unit
// `delegate` refuses what is not within the delegator's scope, in the order of
// docs/spec/delegation-gate.md#how-delegate-decides, and otherwise makes the contract.
import { describe, expect, it } from 'vitest';
import { type DelegationRequest, type DelegatorGrant, delegate, ManualClock } from '../../src/index.ts';

const clock = new ManualClock(Date.parse('2026-11-30T06:10:00.000Z'));
const budget = {
  maxSteps: 20,
  maxToolCalls: 40,
  maxRetries: 3,
  maxDurationMs: 600000,
  maxCostMicros: 2000000,
  currency: 'USD',
};
const grant: DelegatorGrant = {
  runId: 'run-1',
  agent: 'agent:fixer',
  allowedTools: ['repo.read_file', 'tests.run'],
  permissions: [
    { tool: 'repo.read_file', resource: 'repo:/test/*', actions: ['read'] },
    { tool: 'tests.run', resource: 'repo:/test/*', actions: ['execute'] },
  ],
  budget,
  deadline: '2026-11-30T07:00:00.000Z',
};
const request = (over: Partial<DelegationRequest> = {}): DelegationRequest => ({
  delegate: 'agent:tester',
  inputSnapshot: { ref: 'artifacts/patch.diff', digest: 'a'.repeat(64) },
  allowedTools: ['tests.run'],
  permissions: [{ tool: 'tests.run', resource: 'repo:/test/auth/*', actions: ['execute'] }],
  budget: { ...budget, maxSteps: 10 },
  deadline: '2026-11-30T06:40:00.000Z',
  outputSchema: { type: 'object' },
  acceptanceCriteria: [{ id: 'passes', check: 'command', statement: 'tests exit 0' }],
  ...over,
});

describe('delegate', () => {
  it('makes a contract from a grant, and a nested one from that contract', () => {
    const r = delegate(grant, request(), clock);
    if (!r.ok) throw new Error(r.code);
    expect(r.contract.parent).toEqual({ kind: 'run', ref: 'run-1', delegationDigest: null });
    expect(r.contract).toMatchObject({ delegator: 'agent:fixer', createdAt: '2026-11-30T06:10:00.000Z' });
    const nested = delegate(
      r.contract,
      request({ delegate: 'agent:sub', budget: { ...budget, maxSteps: 5 } }),
      clock,
    );
    if (!nested.ok) throw new Error(nested.code);
    expect(nested.contract.parent).toEqual({
      kind: 'delegation',
      ref: r.contract.delegationId,
      delegationDigest: r.contract.delegationDigest,
    });
    expect(nested.contract.delegator).toBe('agent:tester');
  });

  it.each([
    [
      'a wildcard action',
      { permissions: [{ tool: 'tests.run', resource: 'repo:/test/*', actions: ['*'] }] },
      'DELEGATION_WILDCARD_GRANT',
      '/permissions/0/actions/0',
    ],
    [
      'a permission for a tool not allowed',
      { allowedTools: [] },
      'DELEGATION_GRANT_TOOL_NOT_ALLOWED',
      '/permissions/0/tool',
    ],
    [
      'a tool the parent lacks',
      { allowedTools: ['tests.run', 'mail.send'] },
      'DELEGATION_TOOL_NOT_CONTAINED',
      '/allowedTools/1',
    ],
    [
      'a permission the parent lacks',
      { permissions: [{ tool: 'tests.run', resource: 'repo:/src/*', actions: ['execute'] }] },
      'DELEGATION_PERMISSION_NOT_CONTAINED',
      '/permissions/0',
    ],
    [
      'more budget',
      { budget: { ...budget, maxRetries: 4 } },
      'DELEGATION_BUDGET_EXCEEDS_PARENT',
      '/budget/maxRetries',
    ],
    [
      'another currency',
      { budget: { ...budget, currency: 'EUR' } },
      'DELEGATION_BUDGET_EXCEEDS_PARENT',
      '/budget/currency',
    ],
    [
      'a later deadline',
      { deadline: '2026-11-30T08:00:00.000Z' },
      'DELEGATION_DEADLINE_EXCEEDS_PARENT',
      '/deadline',
    ],
    [
      'a deadline already passed',
      { deadline: '2026-11-30T06:10:00.000Z' },
      'DELEGATION_DEADLINE_NOT_AFTER_CREATION',
      '/deadline',
    ],
    [
      'a repeated criterion id',
      {
        acceptanceCriteria: [
          { id: 'a', check: 'command' as const, statement: 'x' },
          { id: 'a', check: 'reviewer' as const, statement: 'y' },
        ],
      },
      'DELEGATION_CRITERION_DUPLICATE',
      '/acceptanceCriteria/1/id',
    ],
  ])('refuses %s', (_what, over, code, path) => {
    expect(delegate(grant, request(over as Partial<DelegationRequest>), clock)).toMatchObject({
      ok: false,
      code,
      path,
    });
  });
});
