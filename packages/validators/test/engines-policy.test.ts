// @module-tag unit
// Every decision of the reference policy engine and every contract of `delegate` is valid under
// the reference validator, and a delegate's contract forms a valid delegation-chain with its parent.
import { delegate, ManualClock, type PolicyGrant, PolicySession } from '@agent-contracts/engines';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validate, validateBundle } from '../src/index.ts';

const T0 = Date.parse('2026-11-30T06:10:00.000Z');
const expectValid = (doc: unknown) => {
  const r = validate(doc);
  expect(r.ok ? [] : r.issues).toEqual([]);
};

const tools = ['repo.read_file', 'mail.send', 'deploy.production'] as const;
const toolFacts = {
  'repo.read_file': { sideEffectLevel: 'read', requiresConfirmation: false, networkEgress: false },
  'mail.send': { sideEffectLevel: 'external-write', requiresConfirmation: false, networkEgress: true },
  'deploy.production': { sideEffectLevel: 'irreversible', requiresConfirmation: true, networkEgress: true },
} as const;

describe('engine outputs are valid documents', () => {
  it('policy decisions, over random calls, grants, approvals and observations', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            observe: fc.boolean(),
            tool: fc.constantFrom(...tools),
            resource: fc.constantFrom('repo:/src/a.ts', 'mailto:team@example.com', 'prod:web'),
            action: fc.constantFrom('read', 'send', 'deploy'),
            approval: fc.constantFrom('none', 'pending', 'granted', 'denied'),
            origin: fc.constantFrom('host-policy', 'task-contract', 'human-approval', 'untrusted-content'),
            dataFlow: fc.boolean(),
          }),
          { maxLength: 8 },
        ),
        (steps) => {
          const s = new PolicySession(new ManualClock(T0));
          steps.forEach((st, i) => {
            if (st.observe)
              s.observe('run-1', { observationId: `obs-${i}`, kind: 'tool-output', origin: 'web.fetch' });
            const grants: PolicyGrant[] = [
              {
                grantId: 'g',
                tool: st.tool,
                resource: st.resource,
                actions: [st.action],
                origin: st.origin,
                dataFlowPolicyRef: st.dataFlow ? 'dfp-1' : null,
                credentialRef: 'credref:host:one',
              },
            ];
            const r = s.decide(
              {
                runId: 'run-1',
                callId: `call-${i}`,
                tool: { toolName: st.tool, ...toolFacts[st.tool] },
                resource: st.resource,
                action: st.action,
              },
              {
                identity: { principal: 'agent:a', kind: 'agent' },
                taskScope: {
                  taskRef: 't',
                  allowedTools: ['repo.read_file', 'mail.send'],
                  allowedResources: ['repo:/src/*', 'mailto:*'],
                },
                approval: { state: st.approval, approvalRef: st.approval === 'none' ? null : 'ap-1' },
                grants,
              },
            );
            expect(r.ok).toBe(true);
            if (r.ok) expectValid(r.decision);
          });
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a contract of delegate is valid, and chains with the contract it was made under', () => {
    const clock = new ManualClock(T0);
    const budget = {
      maxSteps: 9,
      maxToolCalls: 9,
      maxRetries: 1,
      maxDurationMs: 60000,
      maxCostMicros: 100,
      currency: 'USD',
    };
    const scope = {
      allowedTools: ['repo.read_file'],
      permissions: [{ tool: 'repo.read_file', resource: 'repo:/test/*', actions: ['read'] }],
      budget,
      deadline: '2026-11-30T07:00:00.000Z',
    };
    const request = {
      ...scope,
      delegate: 'agent:b',
      inputSnapshot: { ref: 'in.json', digest: 'b'.repeat(64) },
      outputSchema: { type: 'object' },
      acceptanceCriteria: [{ id: 'ok', check: 'output-schema' as const, statement: 'valid output' }],
    };
    const root = delegate({ ...scope, runId: 'run-1', agent: 'agent:a' }, request, clock);
    if (!root.ok) throw new Error(root.code);
    expectValid(root.contract);
    clock.advance(1000);
    const nested = delegate(root.contract, { ...request, delegate: 'agent:c' }, clock);
    if (!nested.ok) throw new Error(nested.code);
    expectValid(nested.contract);
    const chain = validateBundle({ kind: 'delegation-chain', documents: [root.contract, nested.contract] });
    expect(chain.ok ? [] : chain.issues).toEqual([]);
  });
});
