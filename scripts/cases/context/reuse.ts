// context.reuse scenarios.
import { opened, post, pre, readAll, reuseOfPrior } from './events.ts';
import type { Scenario } from './model.ts';
import { planParams, SESSION, V1_RECEIPT_FIXTURE } from './names.ts';

export const REUSE_SCENARIOS: readonly Scenario[] = [
  ...(
    [
      [
        'reuse/same-session-epoch-granted',
        'the same content planned again in the same session and epoch reuses the delivered bodies: the receipt opens by reuse, relevant-complete',
        'ctx-epoch-one',
        'receipt',
        'same-session-epoch-content-observed',
        [],
      ],
      [
        'reuse/across-epoch-refused',
        'the same content planned in a new epoch never reuses the prior receipt: delivery is refused (context-epoch-mismatch), the bodies are read again',
        'ctx-epoch-two',
        'receipt',
        'context-epoch-mismatch',
        [],
      ],
      [
        'reuse/v1-receipt-refused',
        'a ContextReadReceiptV1 is never reused, in this epoch or another: delivery is refused (legacy-or-missing-receipt)',
        'ctx-epoch-two',
        'v1',
        'legacy-or-missing-receipt',
        ['CAG-019'],
      ],
      [
        'reuse/full-only-refused',
        'execution optimization full-only refuses computation and delivery reuse',
        'ctx-epoch-one',
        'full-only',
        'execution-optimization-full-only',
        [],
      ],
    ] as const
  ).map(
    ([name, title, epoch, prior, means, extra]): Scenario => ({
      family: 'reuse',
      name,
      title,
      anchor: 'ordered-checks',
      requirements: ['CAG-025', ...extra],
      run: (m) => {
        const first = opened(m);
        const complete = readAll(m, first.plan);
        m.advance();
        const plan = m.plan(planParams({ invocationNonce: 'nonce-0000-0000-0002' }, { contextEpoch: epoch }));
        m.advance();
        m.reuse(
          plan.planId,
          {
            executionOptimizationMode: prior === 'full-only' ? 'full-only' : 'safe-auto',
            hostSessionId: SESSION,
            currentSourceIdentities: complete.sourceIdentities,
            priorPlan: first.plan,
            priorReceipt: prior === 'v1' ? { $fixture: V1_RECEIPT_FIXTURE } : complete,
          },
          means,
          { toolCallId: 'toolu-plan-0002', attemptedAt: plan.plannedAt },
        );
      },
    }),
  ),
  {
    family: 'reuse',
    name: 'reuse/copies-the-latest-record',
    title:
      'a source read twice, its body changed in between, is reused from its latest record: the receipt opened by reuse proves the body the decision compared, not the older one',
    anchor: 'ordered-checks',
    requirements: ['CAG-025'],
    run: (m) => {
      const first = opened(m);
      const busy = {
        body: { value: { status: 'busy' }, contractVersion: '1' },
        toolResult: { status: 'busy' },
      };
      m.advance();
      m.observe(first.plan.planId, pre(first.plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.observe(first.plan.planId, post(first.plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.advance();
      m.observe(first.plan.planId, pre(first.plan, 'memory:status', 'toolu-read-2'), 'attempted');
      m.observe(first.plan.planId, post(first.plan, 'memory:status', 'toolu-read-2', busy), 'attempted');
      m.advance();
      m.observe(first.plan.planId, pre(first.plan, 'profile:testing.md', 'toolu-read-1'), 'attempted');
      const complete = m.observe(
        first.plan.planId,
        post(first.plan, 'profile:testing.md', 'toolu-read-1'),
        'relevant-complete',
      );
      m.advance();
      const plan = m.plan(planParams({ invocationNonce: 'nonce-0000-0000-0002' }));
      m.reuse(plan.planId, reuseOfPrior(first.plan, complete), 'same-session-epoch-content-observed', {
        toolCallId: 'toolu-plan-0002',
        attemptedAt: plan.plannedAt,
      });
    },
  },
  {
    family: 'reuse',
    name: 'reuse/plan-call-after-plan-refused',
    title:
      'a granted delivery reuse whose plan call was attempted after the plan was made opens no receipt: refused (the plan is made inside its own tool call)',
    anchor: 'ordered-checks',
    requirements: ['CAG-025'],
    run: (m) => {
      const first = opened(m);
      const complete = readAll(m, first.plan);
      m.advance();
      const plan = m.plan(planParams({ invocationNonce: 'nonce-0000-0000-0002' }));
      m.advance();
      m.reuse(
        plan.planId,
        reuseOfPrior(first.plan, complete),
        'same-session-epoch-content-observed',
        {
          toolCallId: 'toolu-plan-0002',
          attemptedAt: new Date(Date.parse(plan.plannedAt) + 1000).toISOString(),
        },
        'CONTEXT_RECEIPT_TIMESTAMP_BACKFILLED',
      );
    },
  },
];
