// The golden cases of the PermissionPolicyGate engine (`policy.observe`, `policy.decide`) and the
// DelegationGate check (`delegate`), as multi-step scenarios (conformance/cases/policy/,
// conformance/cases/delegation/). Every expectation is computed here by running the reference
// engines (packages/engines) at the case's clock, never written by hand; each step also states
// what it means (the decision, or the refusal code), and the generator fails when the engine
// disagrees, so a scenario can never silently test something else.
import {
  type DelegationRequest,
  type DelegatorGrant,
  delegate,
  ManualClock,
  type PolicyCall,
  type PolicyContext,
  type PolicyGrant,
  PolicySession,
} from '@agent-contracts/engines';
import type { Case, Step } from '@agent-contracts/harness';
import type { DelegationContractV1, PolicyTaintSource } from '@agent-contracts/schemas';
import { requirementsOf } from './requirements.ts';

const T0 = '2026-11-30T06:10:00.000Z';
const POLICY_PAGE = 'docs/spec/permission-policy-gate.md';
const DELEGATION_PAGE = 'docs/spec/delegation-gate.md';
const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const clockStep: Step = { method: 'clock.set', params: { now: T0 }, expect: { result: { now: T0 } } };

// ---------------------------------------------------------------------------------------------
// policy

const TOOLS = {
  read: {
    toolName: 'repo.read_file',
    sideEffectLevel: 'read',
    requiresConfirmation: false,
    networkEgress: false,
  },
  write: {
    toolName: 'repo.write_file',
    sideEffectLevel: 'local-write',
    requiresConfirmation: true,
    networkEgress: false,
  },
  send: {
    toolName: 'mail.send',
    sideEffectLevel: 'external-write',
    requiresConfirmation: false,
    networkEgress: true,
  },
  deploy: {
    toolName: 'deploy.production',
    sideEffectLevel: 'irreversible',
    requiresConfirmation: false,
    networkEgress: true,
  },
  fetch: { toolName: 'web.fetch', sideEffectLevel: 'read', requiresConfirmation: false, networkEgress: true },
} as const;

const grant = (
  grantId: string,
  tool: string,
  resource: string,
  actions: string[],
  over: Partial<PolicyGrant> = {},
): PolicyGrant => ({
  grantId,
  tool,
  resource,
  actions,
  origin: 'task-contract',
  dataFlowPolicyRef: null,
  credentialRef: null,
  ...over,
});

const GRANTS: PolicyGrant[] = [
  grant('task-grant-repo-read', 'repo.read_file', 'repo:/src/*', ['read'], {
    credentialRef: 'credref:github:repo-fixer-read',
  }),
  grant('task-grant-repo-write', 'repo.write_file', 'repo:/src/*', ['write']),
  grant('host-grant-team-mail', 'mail.send', 'mailto:team@example.com', ['send'], {
    origin: 'host-policy',
    credentialRef: 'credref:smtp:team-relay',
  }),
  grant('host-grant-deploy', 'deploy.production', 'prod:web-frontend', ['deploy'], { origin: 'host-policy' }),
  grant('task-grant-docs-fetch', 'web.fetch', 'https://docs.example.com/*', ['read']),
];

const CONTEXT: PolicyContext = {
  identity: { principal: 'agent:repo-fixer', kind: 'agent' },
  taskScope: {
    taskRef: 'task-login-redirect-fix',
    allowedTools: ['repo.read_file', 'repo.write_file', 'mail.send', 'deploy.production', 'web.fetch'],
    allowedResources: [
      'repo:/src/*',
      'mailto:team@example.com',
      'prod:web-frontend',
      'https://docs.example.com/*',
    ],
  },
  approval: { state: 'none', approvalRef: null },
  grants: GRANTS,
};

type PolicyAction =
  | { observe: PolicyTaintSource; run?: string }
  | {
      decide: { tool: keyof typeof TOOLS; resource: string; action: string; run?: string };
      context?: Partial<PolicyContext>;
      /** What the step means: the decision, or the refusal code. */
      means: 'allow' | 'deny' | 'requires-approval' | 'PERMISSION_CREDENTIAL_VALUE_IN_CONTEXT';
    };

interface Scenario<A> {
  readonly name: string;
  readonly title: string;
  readonly actions: readonly A[];
  /** Requirements the case observes beyond its general one and its codes. */
  readonly extra?: readonly string[];
}

const INJECTED: PolicyTaintSource = {
  observationId: 'call-0006-output',
  kind: 'tool-output',
  origin: 'web.fetch',
};
const WEB: PolicyTaintSource = {
  observationId: 'obs-0007',
  kind: 'web-page',
  origin: 'https://docs.example.com/auth',
};
const granted = { approval: { state: 'granted', approvalRef: 'approval-0042' } } as const;

const POLICY_SCENARIOS: ReadonlyArray<Scenario<PolicyAction>> = [
  {
    name: 'allow/granted-read',
    title: 'a read the task contract grants, in scope, is allowed with a short-lived credential reference',
    actions: [
      { decide: { tool: 'read', resource: 'repo:/src/auth/redirect.ts', action: 'read' }, means: 'allow' },
    ],
  },
  {
    name: 'deny/no-matching-grant',
    title: 'default deny: a call no grant covers (the action is not granted) is denied',
    actions: [
      { decide: { tool: 'read', resource: 'repo:/src/auth/redirect.ts', action: 'list' }, means: 'deny' },
    ],
  },
  {
    // Found by StrykerJS (docs/conformance-quality.md): a grant matched on resource and action alone.
    name: 'deny/grant-of-another-tool',
    title:
      'a grant covers calls of its own tool only: a write through repo.read_file is denied although repo.write_file is granted write on the resource',
    actions: [
      { decide: { tool: 'read', resource: 'repo:/src/auth/redirect.ts', action: 'write' }, means: 'deny' },
    ],
    extra: ['PRM-003'],
  },
  {
    name: 'deny/tool-not-in-task-scope',
    title: 'a tool the task scope does not allow is denied, whatever the grants',
    actions: [
      {
        decide: { tool: 'read', resource: 'repo:/src/auth/redirect.ts', action: 'read' },
        context: { taskScope: { ...CONTEXT.taskScope, allowedTools: ['mail.send'] } },
        means: 'deny',
      },
    ],
  },
  {
    name: 'deny/resource-not-in-task-scope',
    title: 'a resource outside the task scope (a production secret file) is denied',
    actions: [{ decide: { tool: 'read', resource: 'repo:/.env.production', action: 'read' }, means: 'deny' }],
  },
  {
    name: 'deny/approval-denied',
    title: 'a call a person denied stays denied',
    actions: [
      {
        decide: { tool: 'write', resource: 'repo:/src/auth/redirect.ts', action: 'write' },
        context: { approval: { state: 'denied', approvalRef: 'approval-0040' } },
        means: 'deny',
      },
    ],
  },
  {
    name: 'approval/confirmation-required',
    title: 'a tool that requires confirmation waits for approval when none is granted',
    actions: [
      {
        decide: { tool: 'write', resource: 'repo:/src/auth/redirect.ts', action: 'write' },
        context: { approval: { state: 'pending', approvalRef: 'approval-0041' } },
        means: 'requires-approval',
      },
    ],
  },
  {
    name: 'approval/confirmation-granted',
    title: 'a tool that requires confirmation is allowed once a person granted it',
    actions: [
      {
        decide: { tool: 'write', resource: 'repo:/src/auth/redirect.ts', action: 'write' },
        context: granted,
        means: 'allow',
      },
    ],
  },
  {
    name: 'approval/irreversible',
    title: 'an irreversible tool needs approval even when its contract does not ask for confirmation',
    actions: [
      {
        decide: { tool: 'deploy', resource: 'prod:web-frontend', action: 'deploy' },
        means: 'requires-approval',
      },
    ],
  },
  {
    name: 'taint/prompt-injected-send',
    title:
      'a prompt-injected tool output asks to mail the repository out: after the untrusted observation, the send waits for approval',
    actions: [
      {
        decide: { tool: 'fetch', resource: 'https://docs.example.com/auth', action: 'read' },
        means: 'allow',
      },
      { observe: INJECTED },
      {
        decide: { tool: 'send', resource: 'mailto:team@example.com', action: 'send' },
        means: 'requires-approval',
      },
    ],
    extra: ['PRM-007', 'PROTO-602'],
  },
  {
    name: 'taint/prompt-injected-grant',
    title:
      'a prompt-injected tool output grants itself a send to another domain: the grant from untrusted content never matches, the send is denied',
    actions: [
      { observe: INJECTED },
      {
        decide: { tool: 'send', resource: 'mailto:team@example.com', action: 'forward' },
        context: {
          grants: [
            ...GRANTS,
            grant('injected-forward-grant', 'mail.send', 'mailto:*', ['forward', 'send'], {
              origin: 'untrusted-content',
            }),
          ],
        },
        means: 'deny',
      },
    ],
    extra: ['PRM-004', 'PRM-015', 'PROTO-602'],
  },
  {
    name: 'taint/persists-for-the-run',
    title:
      'the same send is allowed before the run reads a web page and waits for approval after it; a read stays allowed',
    actions: [
      { decide: { tool: 'send', resource: 'mailto:team@example.com', action: 'send' }, means: 'allow' },
      { observe: WEB },
      { decide: { tool: 'read', resource: 'repo:/src/auth/redirect.ts', action: 'read' }, means: 'allow' },
      {
        decide: { tool: 'send', resource: 'mailto:team@example.com', action: 'send' },
        means: 'requires-approval',
      },
      { observe: INJECTED },
      {
        decide: { tool: 'send', resource: 'mailto:team@example.com', action: 'send' },
        means: 'requires-approval',
      },
    ],
    extra: ['PRM-007', 'PROTO-602'],
  },
  {
    name: 'taint/other-run-untouched',
    title: "an observation taints only its own run: another run's send is allowed",
    actions: [
      { observe: WEB, run: 'other' },
      { decide: { tool: 'send', resource: 'mailto:team@example.com', action: 'send' }, means: 'allow' },
    ],
    extra: ['PROTO-602'],
  },
  {
    name: 'taint/data-flow-policy',
    title:
      'a tainted run sends through a grant that names a data-flow policy: allowed, with the policy recorded',
    actions: [
      { observe: WEB },
      {
        decide: { tool: 'send', resource: 'mailto:team@example.com', action: 'send' },
        context: {
          grants: [
            grant('host-grant-team-mail-summaries', 'mail.send', 'mailto:team@example.com', ['send'], {
              origin: 'host-policy',
              dataFlowPolicyRef: 'dfp-team-mail-summaries',
              credentialRef: 'credref:smtp:team-relay',
            }),
          ],
        },
        means: 'allow',
      },
    ],
    extra: ['PRM-007', 'PROTO-602'],
  },
  {
    name: 'taint/approval-granted',
    title: 'a tainted run sends after a person granted the send: allowed',
    actions: [
      { observe: WEB },
      {
        decide: { tool: 'send', resource: 'mailto:team@example.com', action: 'send' },
        context: granted,
        means: 'allow',
      },
    ],
    extra: ['PRM-007', 'PROTO-602'],
  },
  {
    name: 'taint/denied-with-every-reason',
    title:
      'a prompt-injected deploy of another system after a tool output: denied, with every reason that applies',
    actions: [
      { observe: INJECTED },
      {
        decide: { tool: 'deploy', resource: 'prod:billing', action: 'deploy' },
        context: { taskScope: { ...CONTEXT.taskScope, allowedTools: ['repo.read_file'] } },
        means: 'deny',
      },
    ],
    extra: ['PROTO-602'],
  },
  {
    name: 'credential/value-in-resource',
    title: 'a call whose resource carries an API key is refused: no decision, no credential value in context',
    actions: [
      {
        decide: {
          tool: 'fetch',
          resource: 'https://docs.example.com/auth?api_key=abcd1234efgh5678',
          action: 'read',
        },
        means: 'PERMISSION_CREDENTIAL_VALUE_IN_CONTEXT',
      },
    ],
    extra: ['PROTO-604'],
  },
  {
    name: 'credential/value-as-grant-credential',
    title: 'a grant that names a token instead of a credref: reference is refused',
    actions: [
      {
        decide: { tool: 'read', resource: 'repo:/src/auth/redirect.ts', action: 'read' },
        context: {
          grants: [
            grant('task-grant-repo-read', 'repo.read_file', 'repo:/src/*', ['read'], {
              credentialRef: 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB',
            }),
          ],
        },
        means: 'PERMISSION_CREDENTIAL_VALUE_IN_CONTEXT',
      },
    ],
    extra: ['PROTO-604'],
  },
];

function policyCase(s: Scenario<PolicyAction>): Case {
  const session = new PolicySession(new ManualClock(Date.parse(T0)));
  const runId = (run?: string) => `run-${s.name.replace(/\//g, '-')}${run ? `-${run}` : ''}`;
  const steps: Step[] = [clockStep];
  let call = 0;
  for (const a of s.actions) {
    if ('observe' in a) {
      const r = session.observe(runId(a.run), a.observe);
      const id = runId(a.run);
      steps.push({
        method: 'policy.observe',
        params: { runId: id, observation: a.observe },
        expect: { result: json({ runId: id, tainted: r.tainted, taintSources: r.taintSources }) },
      });
      continue;
    }
    call++;
    const c: PolicyCall = {
      runId: runId(a.decide.run),
      callId: `call-${String(call).padStart(4, '0')}`,
      tool: TOOLS[a.decide.tool],
      resource: a.decide.resource,
      action: a.decide.action,
    };
    const context: PolicyContext = { ...CONTEXT, ...a.context };
    const r = session.decide(c, context);
    const params = { ...c, context };
    if (!r.ok) {
      if (a.means !== r.code)
        throw new Error(`policy/${s.name}: the engine refuses with ${r.code}, not ${a.means}`);
      steps.push({ method: 'policy.decide', params: json(params), expect: { error: r.code } });
    } else {
      if (a.means !== r.decision.decision)
        throw new Error(`policy/${s.name}: the engine decides ${r.decision.decision}, not ${a.means}`);
      steps.push({ method: 'policy.decide', params: json(params), expect: { result: json(r.decision) } });
    }
  }
  const id = `policy/PermissionDecisionV1/${s.name}`;
  const spec = `${POLICY_PAGE}#how-a-policy-engine-decides`;
  return {
    id,
    title: s.title,
    gate: 'PermissionPolicyGate',
    subject: 'PermissionDecisionV1',
    spec,
    ...requirementsOf({ id, spec, steps }, 'operation', [
      'PRM-014',
      'PRM-016',
      'PROTO-603',
      ...(s.extra ?? []),
    ]),
    requires: ['policy', 'clock'],
    steps,
  };
}

// ---------------------------------------------------------------------------------------------
// delegation

const BUDGET = {
  maxSteps: 40,
  maxToolCalls: 80,
  maxRetries: 5,
  maxDurationMs: 1800000,
  maxCostMicros: 5000000,
  currency: 'USD',
};
const GRANT: DelegatorGrant = {
  runId: 'run-2026-11-30-login-fix',
  agent: 'agent:repo-fixer',
  allowedTools: ['repo.read_file', 'repo.write_file', 'tests.run'],
  permissions: [
    { tool: 'repo.read_file', resource: 'repo:/*', actions: ['read'] },
    { tool: 'repo.write_file', resource: 'repo:/src/*', actions: ['write'] },
    { tool: 'tests.run', resource: 'repo:/test/*', actions: ['execute'] },
  ],
  budget: BUDGET,
  deadline: '2026-11-30T07:00:00.000Z',
};
const REQUEST: DelegationRequest = {
  delegate: 'agent:test-runner',
  inputSnapshot: {
    ref: 'artifacts/patch-0003.diff',
    digest: '5b1f2a0c9e8d7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a',
  },
  allowedTools: ['repo.read_file', 'tests.run'],
  permissions: [
    { tool: 'repo.read_file', resource: 'repo:/test/*', actions: ['read'] },
    { tool: 'tests.run', resource: 'repo:/test/auth/*', actions: ['execute'] },
  ],
  budget: { ...BUDGET, maxSteps: 20, maxToolCalls: 40, maxCostMicros: 2000000 },
  deadline: '2026-11-30T06:40:00.000Z',
  outputSchema: { type: 'object', required: ['passed'], properties: { passed: { type: 'integer' } } },
  acceptanceCriteria: [
    {
      id: 'output-valid',
      check: 'output-schema',
      statement: 'The report validates against the output schema.',
    },
    { id: 'auth-tests-pass', check: 'command', statement: 'pnpm vitest run test/auth exits 0.' },
  ],
};
const NESTED: DelegationRequest = {
  ...REQUEST,
  delegate: 'agent:log-reader',
  inputSnapshot: {
    ref: 'artifacts/test-auth.log',
    digest: 'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00',
  },
  allowedTools: ['repo.read_file'],
  permissions: [{ tool: 'repo.read_file', resource: 'repo:/test/auth/*', actions: ['read'] }],
  budget: {
    ...BUDGET,
    maxSteps: 5,
    maxToolCalls: 10,
    maxRetries: 1,
    maxDurationMs: 120000,
    maxCostMicros: 200000,
  },
  deadline: '2026-11-30T06:30:00.000Z',
  acceptanceCriteria: [
    { id: 'summary-present', check: 'output-schema', statement: 'A summary of the failure.' },
  ],
};

/** The root contract the nested scenarios delegate under, as `delegate` makes it at T0. */
function rootContract(): DelegationContractV1 {
  const r = delegate(GRANT, REQUEST, new ManualClock(Date.parse(T0)));
  if (!r.ok) throw new Error(`delegation: the root request is refused (${r.code})`);
  return r.contract;
}

type DelegationAction = {
  readonly parent: 'grant' | 'root' | 'tampered-root';
  readonly request: DelegationRequest;
  readonly means: 'accepted' | string;
};

/** A request with every member writable, for the edits that narrow or break one. */
type Draft<T> =
  T extends ReadonlyArray<infer U>
    ? Draft<U>[]
    : T extends object
      ? { -readonly [K in keyof T]: Draft<T[K]> }
      : T;

const narrower = (
  edit: (r: Draft<DelegationRequest>) => void,
  base: DelegationRequest = NESTED,
): DelegationRequest => {
  const r = structuredClone(base) as Draft<DelegationRequest>;
  edit(r);
  return r;
};

const DELEGATION_SCENARIOS: ReadonlyArray<Scenario<DelegationAction>> = [
  {
    name: 'accepted/from-grant',
    title: 'a root run delegates the auth tests with a subset of its tools and permissions: accepted',
    actions: [{ parent: 'grant', request: REQUEST, means: 'accepted' }],
  },
  {
    name: 'accepted/from-contract',
    title:
      'the test agent delegates reading the log under its own contract: accepted, naming its parent by id and digest',
    actions: [{ parent: 'root', request: NESTED, means: 'accepted' }],
  },
  {
    name: 'accepted/equal-limits',
    title:
      "a delegate may get exactly its delegator's tools, permissions, budget and deadline (equal is within)",
    actions: [
      {
        parent: 'grant',
        request: {
          ...REQUEST,
          allowedTools: [...GRANT.allowedTools],
          permissions: structuredClone(GRANT.permissions) as never,
          budget: { ...BUDGET },
          deadline: GRANT.deadline,
        },
        means: 'accepted',
      },
    ],
  },
  {
    name: 'refused/permission-parent-lacks',
    title:
      'a delegated agent asks for a permission its parent lacks (reading the sources, where its parent may read only the tests): refused',
    actions: [
      {
        parent: 'root',
        request: narrower((r) => {
          r.allowedTools = ['repo.read_file'];
          r.permissions = [{ tool: 'repo.read_file', resource: 'repo:/src/*', actions: ['read'] }];
        }),
        means: 'DELEGATION_PERMISSION_NOT_CONTAINED',
      },
    ],
  },
  {
    name: 'refused/action-parent-lacks',
    title: 'a delegate asks for an action its parent does not hold on a resource it does: refused',
    actions: [
      {
        parent: 'grant',
        request: narrower((r) => {
          r.permissions = [{ tool: 'tests.run', resource: 'repo:/test/*', actions: ['execute', 'write'] }];
        }, REQUEST),
        means: 'DELEGATION_PERMISSION_NOT_CONTAINED',
      },
    ],
  },
  {
    name: 'refused/tool-parent-lacks',
    title: 'a delegate asks for a tool its delegator may not call: refused',
    actions: [
      {
        parent: 'root',
        request: narrower((r) => {
          r.allowedTools = ['repo.read_file', 'repo.write_file'];
        }),
        means: 'DELEGATION_TOOL_NOT_CONTAINED',
      },
    ],
  },
  {
    name: 'refused/wildcard-inherits-all',
    title:
      'a delegate asks to inherit every permission (a wildcard resource): refused, even under a root grant',
    actions: [
      {
        parent: 'grant',
        request: narrower((r) => {
          r.permissions = [{ tool: 'repo.read_file', resource: '*', actions: ['read'] }];
        }, REQUEST),
        means: 'DELEGATION_WILDCARD_GRANT',
      },
    ],
  },
  {
    name: 'refused/grant-tool-not-allowed',
    title: 'a permission for a tool the request does not allow: refused',
    actions: [
      {
        parent: 'grant',
        request: narrower((r) => {
          r.allowedTools = ['tests.run'];
        }, REQUEST),
        means: 'DELEGATION_GRANT_TOOL_NOT_ALLOWED',
      },
    ],
  },
  {
    name: 'refused/budget-exceeds-parent',
    title: 'a delegate asks for more retries than its delegator has: refused',
    actions: [
      {
        parent: 'root',
        request: narrower((r) => {
          r.budget.maxRetries = 9;
        }),
        means: 'DELEGATION_BUDGET_EXCEEDS_PARENT',
      },
    ],
  },
  {
    name: 'refused/budget-other-currency',
    title: "a delegate's budget in another currency than its delegator's: refused",
    actions: [
      {
        parent: 'grant',
        request: narrower((r) => {
          r.budget.currency = 'EUR';
        }, REQUEST),
        means: 'DELEGATION_BUDGET_EXCEEDS_PARENT',
      },
    ],
  },
  {
    name: 'refused/deadline-exceeds-parent',
    title: "a delegate's deadline after its delegator's: refused",
    actions: [
      {
        parent: 'root',
        request: narrower((r) => {
          r.deadline = '2026-11-30T06:50:00.000Z';
        }),
        means: 'DELEGATION_DEADLINE_EXCEEDS_PARENT',
      },
    ],
  },
  {
    name: 'refused/deadline-passed',
    title: 'a deadline that is not after now: refused',
    actions: [
      {
        parent: 'grant',
        request: narrower((r) => {
          r.deadline = T0;
        }, REQUEST),
        means: 'DELEGATION_DEADLINE_NOT_AFTER_CREATION',
      },
    ],
  },
  {
    name: 'refused/criterion-duplicate',
    title: 'two acceptance criteria with one id: refused',
    actions: [
      {
        parent: 'grant',
        request: narrower((r) => {
          r.acceptanceCriteria[1]!.id = 'output-valid';
        }, REQUEST),
        means: 'DELEGATION_CRITERION_DUPLICATE',
      },
    ],
  },
  {
    name: 'refused/parent-tampered',
    title: 'a parent contract widened after it was made (its digest no longer recomputes): refused',
    actions: [{ parent: 'tampered-root', request: NESTED, means: 'DELEGATION_PARENT_INVALID' }],
  },
];

function delegationCase(s: Scenario<DelegationAction>): Case {
  const steps: Step[] = [clockStep];
  for (const a of s.actions) {
    const root = rootContract();
    const parent =
      a.parent === 'grant'
        ? GRANT
        : a.parent === 'root'
          ? root
          : { ...root, allowedTools: [...root.allowedTools, 'repo.write_file'] };
    const params = json({ parent, request: a.request });
    if (a.parent === 'tampered-root') {
      // The engine is given only valid parents; the refusal of an invalid one is the method's
      // (docs/spec/delegation-gate.md#how-delegate-decides).
      steps.push({ method: 'delegate', params, expect: { error: a.means } });
      continue;
    }
    const r = delegate(
      parent as DelegationContractV1 | DelegatorGrant,
      a.request,
      new ManualClock(Date.parse(T0)),
    );
    if (r.ok) {
      if (a.means !== 'accepted') throw new Error(`delegation/${s.name}: the engine accepts, not ${a.means}`);
      steps.push({ method: 'delegate', params, expect: { result: json(r.contract) } });
    } else {
      if (a.means !== r.code)
        throw new Error(`delegation/${s.name}: the engine refuses with ${r.code}, not ${a.means}`);
      steps.push({ method: 'delegate', params, expect: { error: r.code } });
    }
  }
  const id = `delegation/DelegationContractV1/${s.name}`;
  const spec = `${DELEGATION_PAGE}#how-delegate-decides`;
  const accepted = steps.some((st) => st.method === 'delegate' && 'result' in st.expect);
  return {
    id,
    title: s.title,
    gate: 'DelegationGate',
    subject: 'DelegationContractV1',
    spec,
    ...requirementsOf({ id, spec, steps }, 'operation', [
      ...(accepted ? ['DLG-014', 'PROTO-606'] : ['DLG-013', 'PROTO-605']),
      ...(s.extra ?? []),
    ]),
    requires: ['delegation', 'clock'],
    steps,
  };
}

/** The case groups this file writes under conformance/cases/. */
export const POLICY_CASE_GROUPS = ['policy', 'delegation'] as const;

/** Build every case file: path under conformance/cases/ -> `{ $comment, cases }`. */
export function policyCaseFiles(): Map<string, { $comment: string; cases: Case[] }> {
  const comment =
    'Generated by scripts/cases/policy.ts from the reference engines (packages/engines/src/policy, packages/engines/src/delegation) with a fixed clock; do not edit.';
  return new Map([
    ['policy/PermissionDecisionV1.json', { $comment: comment, cases: POLICY_SCENARIOS.map(policyCase) }],
    [
      'delegation/DelegationContractV1.json',
      { $comment: comment, cases: DELEGATION_SCENARIOS.map(delegationCase) },
    ],
  ]);
}
