// Exploration of `policy.observe` and `policy.decide`: runs that read untrusted content (or not)
// before calls of tools with every side-effect level, egress and confirmation, resources in and
// out of the task scope, grants of every origin with and without a data-flow policy, every
// approval state, and a credential value smuggled into the request, with the clock moved.
import fc from 'fast-check';
import { type CapabilityExplorer, clockCommands, command, iso } from '../command.js';

const TOOLS = [
  { toolName: 'repo.read_file', sideEffectLevel: 'read', requiresConfirmation: false, networkEgress: false },
  {
    toolName: 'repo.write_file',
    sideEffectLevel: 'local-write',
    requiresConfirmation: false,
    networkEgress: false,
  },
  {
    toolName: 'mail.send',
    sideEffectLevel: 'external-write',
    requiresConfirmation: false,
    networkEgress: true,
  },
  {
    toolName: 'deploy.production',
    sideEffectLevel: 'irreversible',
    requiresConfirmation: true,
    networkEgress: true,
  },
  { toolName: 'web.fetch', sideEffectLevel: 'none', requiresConfirmation: false, networkEgress: true },
];
const RESOURCES = [
  'repo:/src/app.ts',
  'repo:/secrets/.env',
  'mailto:team@example.com',
  'prod:web-frontend',
  'https://docs.example.com/a',
];
const ACTIONS = ['read', 'write', 'send', 'deploy'];
const ORIGINS = ['host-policy', 'task-contract', 'human-approval', 'untrusted-content'];

const grant = fc.record({
  tool: fc.constantFrom(...TOOLS.map((t) => t.toolName)),
  resource: fc.constantFrom(
    'repo:/src/*',
    'mailto:team@example.com',
    'prod:web-frontend',
    'https://docs.example.com/*',
    'repo:/*',
  ),
  actions: fc.subarray(ACTIONS, { minLength: 1 }),
  origin: fc.constantFrom(...ORIGINS),
  dataFlowPolicyRef: fc.constantFrom(null, null, 'dfp:team-mail-ok'),
  credentialRef: fc.constantFrom(null, 'credref:smtp:relay', 'sk-live0123456789abcdefghijklmnop'),
});

const run = fc.constantFrom('', '-other');

export const policyExplorer: CapabilityExplorer = {
  name: 'policy',
  gate: 'PermissionPolicyGate',
  subject: 'PermissionDecisionV1',
  spec: 'docs/spec/permission-policy-gate.md#how-a-policy-engine-decides',
  requires: ['policy', 'clock'],
  setup: (ctx) => [{ method: 'clock.set', params: { now: iso(ctx.t0) } }],
  commands: () => [
    fc
      .record({
        run,
        id: fc.constantFrom('obs-1', 'obs-2'),
        kind: fc.constantFrom('web-page', 'document', 'retrieval', 'tool-output', 'message'),
        origin: fc.constantFrom('evil.example', 'web.fetch', 'inbox'),
      })
      .map((o) =>
        command(`policy.observe run${o.run} ${o.kind}`, (ctx) => ({
          method: 'policy.observe',
          params: {
            runId: `${ctx.runId}${o.run}`,
            observation: { observationId: o.id, kind: o.kind, origin: o.origin },
          },
        })),
      ),
    fc
      .record({
        run,
        call: fc.integer({ min: 1, max: 3 }),
        tool: fc.constantFrom(...TOOLS),
        resource: fc.constantFrom(...RESOURCES),
        action: fc.constantFrom(...ACTIONS),
        principal: fc.constantFrom(['agent:repo-fixer', 'agent'], ['user:alice', 'user']),
        allowedTools: fc.subarray(TOOLS.map((t) => t.toolName)),
        allowedResources: fc.subarray([
          'repo:/src/*',
          'mailto:team@example.com',
          'prod:web-frontend',
          'https://docs.example.com/*',
        ]),
        approval: fc.constantFrom('none', 'pending', 'granted', 'denied'),
        grants: fc.array(grant, { maxLength: 3 }),
      })
      .map((d) =>
        command(
          `policy.decide run${d.run} ${d.tool.toolName} ${d.action} ${d.resource} approval=${d.approval}`,
          (ctx) => ({
            method: 'policy.decide',
            params: {
              runId: `${ctx.runId}${d.run}`,
              callId: `call-${d.call}`,
              tool: d.tool,
              resource: d.resource,
              action: d.action,
              context: {
                identity: { principal: d.principal[0], kind: d.principal[1] },
                taskScope: {
                  taskRef: 'task-explore',
                  allowedTools: d.allowedTools,
                  allowedResources: d.allowedResources,
                },
                approval: { state: d.approval, approvalRef: d.approval === 'none' ? null : 'approval-1' },
                grants: d.grants.map((g, i) => ({ grantId: `grant-${i}`, ...g })),
              },
            },
          }),
        ),
      ),
    ...clockCommands(),
  ],
};
