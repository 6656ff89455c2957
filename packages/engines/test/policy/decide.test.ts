// @module-tag unit
// The reference policy engine decides as docs/spec/permission-policy-gate.md#how-a-policy-engine-decides
// states: default deny, every reason in the page's order, taint kept for the rest of the run.
import { describe, expect, it } from 'vitest';
import { ManualClock, type PolicyCall, type PolicyContext, PolicySession } from '../../src/index.ts';

const T0 = Date.parse('2026-11-30T06:10:00.000Z');
const call = (over: Partial<PolicyCall> = {}): PolicyCall => ({
  runId: 'run-1',
  callId: 'call-1',
  tool: {
    toolName: 'mail.send',
    sideEffectLevel: 'external-write',
    requiresConfirmation: false,
    networkEgress: true,
  },
  resource: 'mailto:team@example.com',
  action: 'send',
  ...over,
});
const context = (over: Partial<PolicyContext> = {}): PolicyContext => ({
  identity: { principal: 'agent:repo-fixer', kind: 'agent' },
  taskScope: {
    taskRef: 'task-1',
    allowedTools: ['mail.send', 'repo.read_file'],
    allowedResources: ['mailto:*', 'repo:/src/*'],
  },
  approval: { state: 'none', approvalRef: null },
  grants: [
    {
      grantId: 'g-mail',
      tool: 'mail.send',
      resource: 'mailto:team@example.com',
      actions: ['send'],
      origin: 'host-policy',
      dataFlowPolicyRef: null,
      credentialRef: 'credref:smtp:relay',
    },
  ],
  ...over,
});
const decide = (s: PolicySession, c = call(), x = context()) => {
  const r = s.decide(c, x);
  if (!r.ok) throw new Error(r.code);
  return r.decision;
};

describe('policy engine', () => {
  it('allows a granted call of an untainted run, with a 300 s credential', () => {
    const d = decide(new PolicySession(new ManualClock(T0)));
    expect(d.decision).toBe('allow');
    expect(d.reasonCodes).toEqual(['granted']);
    expect(d.credential).toEqual({ ref: 'credref:smtp:relay', expiresAt: '2026-11-30T06:15:00.000Z' });
  });

  it('denies by default: no grant covers the action', () => {
    const d = decide(new PolicySession(new ManualClock(T0)), call({ action: 'forward' }));
    expect(d).toMatchObject({
      decision: 'deny',
      reasonCodes: ['no-matching-grant'],
      matchedGrant: null,
      credential: null,
    });
  });

  it('a tool output taints the run: a later send needs approval, and an approval lets it through', () => {
    const s = new PolicySession(new ManualClock(T0));
    expect(decide(s).decision).toBe('allow');
    s.observe('run-1', { observationId: 'obs-1', kind: 'tool-output', origin: 'web.fetch' });
    const d = decide(s, call({ callId: 'call-2' }));
    expect(d).toMatchObject({ decision: 'requires-approval', reasonCodes: ['untrusted-data-egress'] });
    expect(d.inputs.provenance.taintSources).toHaveLength(1);
    const approved = decide(
      s,
      call({ callId: 'call-3' }),
      context({ approval: { state: 'granted', approvalRef: 'a-1' } }),
    );
    expect(approved.decision).toBe('allow');
    // Another run is not tainted.
    expect(decide(s, call({ runId: 'run-2' })).decision).toBe('allow');
  });

  it('a grant from untrusted content never matches', () => {
    const grants = context().grants.map((g) => ({ ...g, origin: 'untrusted-content' as const }));
    const d = decide(new PolicySession(new ManualClock(T0)), call(), context({ grants }));
    expect(d).toMatchObject({ decision: 'deny', matchedGrant: null, reasonCodes: ['no-matching-grant'] });
  });

  it('records every reason in the page order and decides the strongest', () => {
    const tool = {
      toolName: 'deploy.production',
      sideEffectLevel: 'irreversible' as const,
      requiresConfirmation: true,
      networkEgress: true,
    };
    const s = new PolicySession(new ManualClock(T0));
    s.observe('run-1', { observationId: 'obs-1', kind: 'web-page', origin: 'https://x.example' });
    const d = decide(s, call({ tool, resource: 'prod:web', action: 'deploy' }));
    expect(d.decision).toBe('deny');
    expect(d.reasonCodes).toEqual([
      'tool-not-in-task-scope',
      'resource-not-in-task-scope',
      'no-matching-grant',
      'confirmation-required',
      'untrusted-data-egress',
    ]);
  });

  it('refuses a request holding a credential value, and decides nothing', () => {
    const r = new PolicySession(new ManualClock(T0)).decide(
      call({ resource: 'mailto:x?access_token=abcdef123456' }),
      context(),
    );
    expect(r).toMatchObject({
      ok: false,
      code: 'PERMISSION_CREDENTIAL_VALUE_IN_CONTEXT',
      path: '/call/resource',
    });
  });

  it('keeps at most 64 taint sources and stays tainted', () => {
    const s = new PolicySession(new ManualClock(T0));
    for (let i = 0; i < 70; i++)
      s.observe('run-1', { observationId: `obs-${i}`, kind: 'document', origin: 'd' });
    s.observe('run-1', { observationId: 'obs-0', kind: 'document', origin: 'd' });
    expect(s.provenance('run-1').taintSources).toHaveLength(64);
    expect(s.provenance('run-1').tainted).toBe(true);
  });
});
