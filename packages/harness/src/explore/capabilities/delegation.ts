// Exploration of `delegate`: a root grant (or a contract accepted before, captured) delegating
// tools, permissions, budgets and deadlines inside, at and outside its own, to depth two, with
// the clock moved past the deadlines.
import fc from 'fast-check';
import { type CapabilityExplorer, clockCommands, command, hex, iso } from '../command.js';

const TOOLS = ['repo.read_file', 'repo.write_file', 'tests.run'];
const PARENT_PERMISSIONS = [
  { tool: 'repo.read_file', resource: 'repo:/*', actions: ['read'] },
  { tool: 'repo.write_file', resource: 'repo:/src/*', actions: ['write'] },
  { tool: 'tests.run', resource: 'repo:/test/*', actions: ['execute'] },
];
const ASKED = [
  { tool: 'repo.read_file', resource: 'repo:/test/*', actions: ['read'] },
  { tool: 'repo.write_file', resource: 'repo:/*', actions: ['write'] },
  { tool: 'repo.write_file', resource: 'repo:/src/auth/*', actions: ['write'] },
  { tool: 'tests.run', resource: 'repo:/test/auth/*', actions: ['execute', 'write'] },
  { tool: 'tests.run', resource: 'repo:/test/auth/*', actions: ['execute'] },
];
const BUDGET = {
  maxSteps: 40,
  maxToolCalls: 80,
  maxRetries: 5,
  maxDurationMs: 1_800_000,
  maxCostMicros: 5_000_000,
  currency: 'USD',
};

const request = fc.record({
  allowedTools: fc.subarray(TOOLS),
  permissions: fc.subarray(ASKED, { maxLength: 3 }),
  scale: fc.constantFrom(0.5, 1, 1.5),
  currency: fc.constantFrom('USD', 'USD', 'EUR'),
  deadline: fc.constantFrom(-600, 600, 1800, 4800),
  delegate: fc.constantFrom('agent:test-runner', 'agent:repo-fixer'),
});

export const delegationExplorer: CapabilityExplorer = {
  name: 'delegation',
  gate: 'DelegationGate',
  subject: 'DelegationContractV1',
  spec: 'docs/spec/delegation-gate.md#how-delegate-decides',
  requires: ['delegation', 'clock'],
  setup: (ctx) => [{ method: 'clock.set', params: { now: iso(ctx.t0) } }],
  commands: () => [
    fc.tuple(request, fc.boolean()).map(([r, nested]) =>
      command(
        `delegate ${nested ? 'under the last contract' : 'from the root grant'} tools=${r.allowedTools.join(',')} x${r.scale}`,
        (ctx, s) => {
          const parent =
            nested && s.bound('contract')
              ? { $var: 'contract' }
              : {
                  runId: ctx.runId,
                  agent: 'agent:repo-fixer',
                  allowedTools: TOOLS,
                  permissions: PARENT_PERMISSIONS,
                  budget: BUDGET,
                  deadline: iso(ctx.t0 + 3600_000),
                };
          const scaled = (n: number) => Math.max(1, Math.round(n * r.scale));
          return {
            method: 'delegate',
            params: {
              parent,
              request: {
                delegate: r.delegate,
                inputSnapshot: { ref: 'artifacts/patch-0003.diff', digest: hex('snapshot') },
                allowedTools: r.allowedTools,
                permissions: r.permissions,
                budget: {
                  maxSteps: scaled(20),
                  maxToolCalls: scaled(40),
                  maxRetries: scaled(5),
                  maxDurationMs: scaled(900_000),
                  maxCostMicros: scaled(2_000_000),
                  currency: r.currency,
                },
                deadline: iso(ctx.t0 + r.deadline * 1000),
                outputSchema: { type: 'object' },
                acceptanceCriteria: [
                  { id: 'output-valid', check: 'output-schema', statement: 'The output validates.' },
                ],
              },
            },
            capture: { contract: '' },
          };
        },
      ),
    ),
    ...clockCommands(),
  ],
};
