// context.receipt and context.observe scenarios: correlated reads, failure markers, reads that
// never complete, and attempts outside the plan.
import { contextRef } from '@agent-contracts/harness/explore';
import type { ContextReadPlanV2 } from '@agent-contracts/schemas';
import { opened, post, pre, readAll } from './events.ts';
import type { Scenario } from './model.ts';
import { planParams, SESSION, TESTING_BODY } from './names.ts';

/** A PostToolUse that differs from the correlating one in one field. */
const UNCORRELATED: ReadonlyArray<[string, string, (plan: ContextReadPlanV2) => object]> = [
  ['plan-id', 'the plan id of another invocation', () => ({ planId: 'plan-0000000000000000deadbeef' })],
  ['content-id', 'another plan content id', () => ({ planContentId: `pcid-${'0'.repeat(24)}` })],
  ['epoch', 'another context epoch', () => ({ contextEpoch: 'ctx-epoch-older' })],
  ['root', 'another active root', () => ({ activeRoot: '/srv/other' })],
  [
    'source-identity',
    'a content identity of another source',
    (plan) => ({
      body: null,
      contentIdentity: {
        schemaVersion: 'ContentIdentityV1',
        algorithm: 'sha256',
        sourceKey: `profile://${plan.identity.project}/release.md`,
        contractVersion: '1',
        digest: 'a'.repeat(64),
        bytes: 42,
      },
    }),
  ],
  ['target', 'a result about another target', () => ({ targetMatch: false })],
];

export const RECEIPT_SCENARIOS: readonly Scenario[] = [
  {
    family: 'receipt',
    name: 'receipt/pre-tool-use-alone',
    title:
      'PreToolUse events alone never satisfy a source: the receipt stays attempted with both sources missing',
    anchor: 'state-machine',
    requirements: ['CAG-001', 'CAG-018'],
    run: (m) => {
      const { plan } = opened(m);
      m.advance();
      m.observe(plan.planId, pre(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.advance();
      m.observe(plan.planId, pre(plan, 'profile:testing.md', 'toolu-read-1'), 'attempted');
      m.advance();
      m.observe(plan.planId, pre(plan, 'profile:testing.md', 'toolu-read-1'), 'attempted');
    },
  },
  {
    family: 'receipt',
    name: 'receipt/correlated-reads-complete',
    title:
      'a correlated PostToolUse with the body of each mandatory source completes the receipt; consuming it makes it completed',
    anchor: 'state-machine',
    requirements: ['CAG-001', 'CAG-016', 'CAG-017', 'CAG-018', 'CAG-500'],
    run: (m) => {
      const { plan } = opened(m);
      readAll(m, plan);
      m.advance();
      m.observe(plan.planId, { event: 'consume' }, 'completed');
    },
  },
  {
    family: 'receipt',
    name: 'receipt/fractional-live-mtime-fresh',
    title:
      "re-observed metadata whose modification time has a fraction of the plan's whole millisecond is truncated before hashing: the source is fresh and the receipt completes",
    anchor: 'receipts-through-the-protocol',
    requirements: ['CAG-018', 'PROTO-011'],
    run: (m) => {
      const { plan } = opened(m);
      m.advance();
      m.observe(plan.planId, pre(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.observe(plan.planId, post(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.advance();
      m.observe(plan.planId, pre(plan, 'profile:testing.md', 'toolu-read-1'), 'attempted');
      m.observe(
        plan.planId,
        post(plan, 'profile:testing.md', 'toolu-read-1', {
          liveRefs: [{ ...contextRef('testing.md'), mtimeMs: 1795770410000.5 }],
        }),
        'relevant-complete',
      );
    },
  },
  {
    family: 'receipt',
    name: 'receipt/failure-marker-deep-in-the-result',
    title:
      'a tool result with `isError: true` 80 levels down carries a failure marker (any level, D-RCP-57): no transport success, the testing document stays missing',
    anchor: 'observation-records',
    requirements: ['CAG-018', 'PROTO-011'],
    run: (m) => {
      const { plan } = opened(m);
      let toolResult: unknown = { isError: true, content: 'denied' };
      for (let i = 0; i < 80; i++) toolResult = i % 2 ? [toolResult] : { content: toolResult };
      m.advance();
      m.observe(plan.planId, pre(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.observe(plan.planId, post(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.advance();
      m.observe(plan.planId, pre(plan, 'profile:testing.md', 'toolu-read-1'), 'attempted');
      m.observe(plan.planId, post(plan, 'profile:testing.md', 'toolu-read-1', { toolResult }), 'attempted');
    },
  },
  {
    family: 'receipt',
    name: 'receipt/error-null-is-a-failure-marker',
    title:
      'a tool result with an `error` member is a failure whatever its value, `null` included (D-RCP-59): no transport success, the testing document stays missing',
    anchor: 'receipts-through-the-protocol',
    requirements: ['CAG-018', 'PROTO-011'],
    run: (m) => {
      const { plan } = opened(m);
      m.advance();
      m.observe(plan.planId, pre(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.observe(plan.planId, post(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.advance();
      m.observe(plan.planId, pre(plan, 'profile:testing.md', 'toolu-read-1'), 'attempted');
      m.observe(
        plan.planId,
        post(plan, 'profile:testing.md', 'toolu-read-1', {
          toolResult: { content: TESTING_BODY, error: null },
        }),
        'attempted',
      );
    },
  },
  {
    family: 'receipt',
    name: 'receipt/cache-hit-never-completes',
    title:
      'a computation-cache hit (cache: true) with the right body satisfies nothing: the receipt never completes',
    anchor: 'observation-records',
    requirements: ['CAG-018'],
    run: (m) => {
      const { plan } = opened(m);
      m.advance();
      m.observe(plan.planId, pre(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.advance();
      m.observe(plan.planId, post(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.advance();
      m.observe(plan.planId, pre(plan, 'profile:testing.md', 'toolu-read-1'), 'attempted');
      m.advance();
      m.observe(plan.planId, post(plan, 'profile:testing.md', 'toolu-read-1', { cache: true }), 'attempted');
    },
  },
  {
    family: 'receipt',
    name: 'receipt/old-full-read-result-never-completes',
    title:
      'an old full-read tool result (a call of an earlier plan, never attempted under this one) satisfies nothing',
    anchor: 'observation-records',
    requirements: ['CAG-017', 'CAG-018'],
    run: (m) => {
      const { plan } = opened(m);
      m.advance();
      m.observe(plan.planId, pre(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.advance();
      m.observe(plan.planId, post(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.advance();
      m.observe(plan.planId, post(plan, 'profile:testing.md', 'toolu-full-read-earlier'), 'attempted');
    },
  },
  {
    family: 'receipt',
    name: 'receipt/fallback-text-never-completes',
    title:
      'an instruction-only receipt (fallback text saying the context was loaded) stays unverified whatever is observed',
    anchor: 'state-machine',
    requirements: ['CAG-022'],
    run: (m) => {
      const plan = m.plan(planParams());
      m.advance();
      m.open(plan.planId, { verificationMode: 'instruction-only', hostSessionId: SESSION }, 'unverified');
      m.advance();
      m.observe(plan.planId, pre(plan, 'profile:testing.md', 'toolu-read-1'), 'unverified');
      m.advance();
      m.observe(plan.planId, post(plan, 'profile:testing.md', 'toolu-read-1'), 'unverified');
    },
  },
  ...UNCORRELATED.map(
    ([name, what, over]): Scenario => ({
      family: 'receipt',
      name: `receipt/uncorrelated/${name}`,
      title: `a PostToolUse that carries ${what} satisfies nothing: the testing document stays missing`,
      anchor: 'observation-records',
      requirements: ['CAG-017', 'CAG-018', ...(name === 'plan-id' ? ['CAG-015'] : [])],
      run: (m) => {
        const { plan } = opened(m);
        m.advance();
        m.observe(plan.planId, pre(plan, 'memory:status', 'toolu-read-0'), 'attempted');
        m.advance();
        m.observe(plan.planId, post(plan, 'memory:status', 'toolu-read-0'), 'attempted');
        m.advance();
        m.observe(plan.planId, pre(plan, 'profile:testing.md', 'toolu-read-1'), 'attempted');
        m.advance();
        m.observe(plan.planId, post(plan, 'profile:testing.md', 'toolu-read-1', over(plan)), 'attempted');
      },
    }),
  ),
  {
    family: 'receipt',
    name: 'receipt/attempt-outside-envelope',
    title:
      'an attempt outside the action envelope (a release on a fix plan) makes the receipt stale with one replan; a second one keeps it at one',
    anchor: 'state-machine',
    requirements: ['CAG-502'],
    run: (m) => {
      const { plan } = opened(m);
      m.advance();
      m.observe(
        plan.planId,
        pre(plan, 'profile:testing.md', 'toolu-act-0', { actionClass: 'release' }),
        'stale',
      );
      m.advance();
      m.observe(
        plan.planId,
        pre(plan, 'profile:testing.md', 'toolu-act-1', { actionClass: 'release' }),
        'stale',
      );
    },
  },
  {
    family: 'receipt',
    name: 'receipt/attempt-above-risk-ceiling',
    title:
      'an attempt whose risk is above the plan ceiling is incompatible: the receipt is stale (scope-drift)',
    anchor: 'state-machine',
    requirements: ['CAG-501', 'CAG-502'],
    run: (m) => {
      const { plan } = opened(m);
      m.advance();
      m.observe(plan.planId, pre(plan, 'profile:testing.md', 'toolu-act-0', { risk: 'critical' }), 'stale');
    },
  },
  {
    family: 'receipt',
    name: 'receipt/unknown-plan',
    title: 'a receipt of a plan the session never made is refused',
    anchor: 'contextreadbindingv1',
    requirements: ['CAG-015'],
    run: (m) => m.unknownPlan('plan-000000000000000000000000'),
  },
];
