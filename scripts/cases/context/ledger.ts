// context.ledger scenarios: snapshots, replay, merging and the records a ledger drops.
import {
  CONTEXT_ROOT,
  contextCatalogueWith,
  contextCatalogueWithRefs,
  contextDocument,
  contextRef,
} from '@agent-contracts/harness/explore';
import { type ContextReadReceiptV2, observationIdOf } from '@agent-contracts/schemas';
import { opened, post, pre, readAll, reuseOfPrior } from './events.ts';
import type { Scenario } from './model.ts';
import { PLAN_CALL, planParams } from './names.ts';

export const LEDGER_SCENARIOS: readonly Scenario[] = [
  {
    family: 'ledger',
    name: 'ledger/older-snapshot-keeps-delivered',
    title:
      'a writer holding an older snapshot (before the testing document was read) writes it last: the ledger keeps every delivered record',
    anchor: 'merge-rule',
    requirements: ['CAG-024', 'PROTO-013'],
    run: (m) => {
      const { plan } = opened(m);
      m.advance();
      m.observe(plan.planId, pre(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.advance();
      const older = m.observe(plan.planId, post(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      const olderSnapshot = m.snapshotOf(plan.planId, older.observations);
      m.advance();
      m.observe(plan.planId, pre(plan, 'profile:testing.md', 'toolu-read-1'), 'attempted');
      m.advance();
      const complete = m.observe(
        plan.planId,
        post(plan, 'profile:testing.md', 'toolu-read-1'),
        'relevant-complete',
      );
      m.advance();
      m.write(plan.planId, m.snapshotOf(plan.planId, complete.observations), 'written');
      m.advance();
      m.write(plan.planId, olderSnapshot, 'written');
    },
  },
  {
    family: 'ledger',
    name: 'ledger/replay-re-executes-nothing',
    title:
      'a receipt gone stale because its own recording failed (writer-drift) is rebuilt from the ledger: every record of the successor is a ledger record, nothing is read again',
    anchor: 'replay',
    requirements: ['CAG-020', 'PROTO-014'],
    run: (m) => {
      const { plan } = opened(m);
      const complete = readAll(m, plan);
      m.advance();
      m.write(plan.planId, m.snapshotOf(plan.planId, complete.observations), 'written');
      m.advance();
      m.observe(
        plan.planId,
        { event: 'drift', trigger: 'source-digest', reasonCode: 'writer-drift' },
        'stale',
      );
      m.advance();
      m.replay(
        plan.planId,
        Object.fromEntries(
          [...plan.baselineSources, ...plan.selectedSources]
            .filter((s) => s.kind !== 'memory')
            .map((s) => [s.sourceId, s.sourceRefs.map(({ metadataDigest: _d, ...r }) => r)]),
        ),
        'relevant-complete',
      );
    },
  },
  {
    family: 'ledger',
    name: 'ledger/replay-refs-in-another-order',
    title:
      'a replay whose re-observed metadata lists a source’s two places in another order than the plan still finds the source fresh: its records are replayed',
    anchor: 'replay',
    requirements: ['CAG-020', 'PROTO-014'],
    run: (m) => {
      const shared = {
        ...contextRef('testing.md'),
        path: `${CONTEXT_ROOT}/.agent/shared/testing.md`,
        layer: 'profile-shared',
      };
      const catalogue = contextCatalogueWithRefs('testing.md', shared);
      const { plan } = opened(m, { catalogue });
      const both = { liveRefs: [contextRef('testing.md'), shared] };
      m.advance();
      m.observe(plan.planId, pre(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.observe(plan.planId, post(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.advance();
      m.observe(plan.planId, pre(plan, 'profile:testing.md', 'toolu-read-1'), 'attempted');
      const complete = m.observe(
        plan.planId,
        post(plan, 'profile:testing.md', 'toolu-read-1', both),
        'relevant-complete',
      );
      m.advance();
      m.write(plan.planId, m.snapshotOf(plan.planId, complete.observations), 'written');
      m.advance();
      m.observe(
        plan.planId,
        { event: 'drift', trigger: 'source-digest', reasonCode: 'writer-drift' },
        'stale',
      );
      m.advance();
      m.replay(
        plan.planId,
        {
          'profile:README.md': [contextRef('README.md')],
          'profile:config.json': [contextRef('config.json')],
          'profile:testing.md': [contextRef('testing.md'), shared],
        },
        'relevant-complete',
      );
    },
  },
  {
    family: 'ledger',
    name: 'ledger/replay-fractional-mtime-fresh',
    title:
      "a replay whose re-observed metadata carries a fraction of the plan's whole millisecond finds the source fresh (the time is truncated before hashing): its records are replayed",
    anchor: 'replay',
    requirements: ['CAG-020', 'PROTO-014'],
    run: (m) => {
      const { plan } = opened(m);
      const complete = readAll(m, plan);
      m.advance();
      m.write(plan.planId, m.snapshotOf(plan.planId, complete.observations), 'written');
      m.advance();
      m.observe(
        plan.planId,
        { event: 'drift', trigger: 'source-digest', reasonCode: 'writer-drift' },
        'stale',
      );
      m.advance();
      const fraction = (file: string) => [{ ...contextRef(file), mtimeMs: 1795770410000.25 }];
      m.replay(
        plan.planId,
        {
          'profile:README.md': fraction('README.md'),
          'profile:config.json': fraction('config.json'),
          'profile:testing.md': fraction('testing.md'),
        },
        'relevant-complete',
      );
    },
  },
  {
    family: 'ledger',
    name: 'ledger/replay-keeps-a-conflict-unverified',
    title:
      'a receipt two different PostToolUse results of one call made unverified is rebuilt from the ledger unverified again, the conflict named: a replay never hides conflicting evidence',
    anchor: 'replay',
    requirements: ['CAG-020', 'PROTO-014'],
    run: (m) => {
      const { plan } = opened(m);
      m.advance();
      m.observe(plan.planId, pre(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.advance();
      m.observe(plan.planId, post(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.advance();
      const conflicted = m.observe(
        plan.planId,
        post(plan, 'memory:status', 'toolu-read-0', {
          body: { value: { status: 'busy' }, contractVersion: '1' },
          toolResult: { status: 'busy' },
        }),
        'unverified',
      );
      m.advance();
      m.write(plan.planId, m.snapshotOf(plan.planId, conflicted.observations), 'written');
      m.advance();
      m.replay(plan.planId, {}, 'unverified');
    },
  },
  {
    family: 'ledger',
    name: 'ledger/replay-never-heals-profile-drift',
    title: 'a receipt stale for profile-drift is never healed by a replay of the ledger: refused',
    anchor: 'replay',
    requirements: ['CAG-020', 'PROTO-014'],
    run: (m) => {
      const { plan } = opened(m);
      const complete = readAll(m, plan);
      m.advance();
      m.write(plan.planId, m.snapshotOf(plan.planId, complete.observations), 'written');
      m.advance();
      m.observe(plan.planId, { event: 'drift', trigger: 'profile-drift' }, 'stale');
      m.advance();
      m.replay(plan.planId, {}, 'CONTEXT_SOURCE_LEDGER_REPLAY_FORBIDDEN');
    },
  },
  {
    family: 'ledger',
    name: 'ledger/reuse-records-dropped',
    title:
      "a writer's snapshot holding the delivery-reuse records of a receipt opened by reuse, and the prior plan's records, merges none of them: each is listed as dropped",
    anchor: 'merge-rule',
    requirements: ['CAG-024', 'PROTO-013'],
    run: (m) => {
      const first = opened(m);
      const complete = readAll(m, first.plan);
      m.advance();
      const plan = m.plan(planParams({ invocationNonce: 'nonce-0000-0000-0002' }));
      m.advance();
      m.reuse(plan.planId, reuseOfPrior(first.plan, complete), 'same-session-epoch-content-observed', {
        toolCallId: 'toolu-plan-0002',
        attemptedAt: plan.plannedAt,
      });
      const reused = m.receiptOf(plan.planId);
      if (reused.observations.some((o) => o.hookEvent !== 'PostToolUse' || o.reusedObservationId === null))
        throw new Error(
          'context/ledger/reuse-records-dropped: the receipt holds a record that is not a reuse result',
        );
      m.advance();
      m.write(
        plan.planId,
        m.snapshotHolding(plan.planId, [...complete.observations, ...reused.observations]),
        'written',
      );
    },
  },
  {
    family: 'ledger',
    name: 'ledger/merge-in-event-order',
    title:
      'two writers each hold the records of one read; the one whose read came first writes last: its records are merged where their event times put them, before the stored later ones',
    anchor: 'merge-rule',
    requirements: ['CAG-024', 'PROTO-013'],
    run: (m) => {
      const { plan } = opened(m);
      const complete = readAll(m, plan);
      const baseline = (o: ContextReadReceiptV2['observations'][number]) => o.toolCallId === PLAN_CALL;
      m.advance();
      m.write(
        plan.planId,
        m.snapshotOf(
          plan.planId,
          complete.observations.filter((o) => baseline(o) || o.sourceId === 'profile:testing.md'),
        ),
        'written',
      );
      m.advance();
      m.write(
        plan.planId,
        m.snapshotOf(
          plan.planId,
          complete.observations.filter((o) => baseline(o) || o.sourceId === 'memory:status'),
        ),
        'written',
      );
    },
  },
  {
    family: 'ledger',
    name: 'ledger/record-of-another-root-dropped',
    title:
      "a writer's snapshot holding an attempt made in another root is merged without it (listed in dropped), while a wrong-root result, evidence that a read went elsewhere, is kept",
    anchor: 'merge-rule',
    requirements: ['CAG-024', 'PROTO-013'],
    run: (m) => {
      const { plan } = opened(m);
      m.advance();
      m.observe(plan.planId, pre(plan, 'memory:status', 'toolu-read-9'), 'attempted');
      m.advance();
      m.observe(
        plan.planId,
        post(plan, 'memory:status', 'toolu-read-9', { activeRoot: '/srv/elsewhere' }),
        'attempted',
      );
      const complete = readAll(m, plan);
      if (!complete.observations.some((o) => o.hookEvent === 'PostToolUse' && o.outcome === 'wrong-root'))
        throw new Error('context/ledger/record-of-another-root-dropped: no wrong-root result was recorded');
      // The writer also recorded a PreToolUse of another root, which the receipt refused as drift.
      m.advance();
      const attempt = complete.observations.find((o) => o.hookEvent === 'PreToolUse')!;
      const { observationId: _id, ...body } = {
        ...attempt,
        toolCallId: 'toolu-read-elsewhere',
        activeRoot: '/srv/elsewhere',
        attemptedAt: new Date(m.clock.now()).toISOString(),
      };
      const elsewhere = { observationId: observationIdOf(body as never), ...body };
      m.write(
        plan.planId,
        m.snapshotHolding(plan.planId, [...complete.observations, elsewhere] as never),
        'written',
      );
    },
  },
  {
    family: 'ledger',
    name: 'ledger/full-refused',
    title:
      "a write whose merge leaves more than 128 records that are each a source's latest record or its attempt is refused, and the stored ledger is unchanged: the next write is its next revision",
    anchor: 'merge-rule',
    requirements: ['CAG-024', 'PROTO-013'],
    run: (m) => {
      // 66 mandatory sources: the two baseline ones (one record each, the plan call's result) and
      // 64 read ones (an attempt and a result each) make 130 records no eviction may remove.
      const documents = Array.from({ length: 62 }, (_, i) =>
        contextDocument(`guide-${String(i).padStart(2, '0')}.md`, ['testing']),
      );
      const { plan } = opened(m, { catalogue: contextCatalogueWith(...documents) });
      const read = plan.selectedSources.map((s) => s.sourceId);
      if (plan.mandatorySourceIds.length !== 66 || read.length !== 64)
        throw new Error('context/ledger/full-refused: the plan does not have 66 mandatory sources');
      m.advance();
      // One writer holds 15 of the reads, another the other 49 (its receipt's 100 records).
      const a = m.writerRecords(plan.planId, read.slice(0, 15));
      const b = m.writerRecords(plan.planId, read.slice(15));
      m.write(plan.planId, m.snapshotOf(plan.planId, a), 'written');
      m.advance();
      m.write(plan.planId, m.snapshotOf(plan.planId, b), 'CONTEXT_SOURCE_OBSERVATION_LEDGER_FULL');
      m.advance();
      m.write(plan.planId, m.snapshotOf(plan.planId, []), 'written');
    },
  },
  {
    family: 'ledger',
    name: 'ledger/snapshot-of-another-plan',
    title: "a snapshot of another plan's ledger is never merged into this plan's ledger: refused",
    anchor: 'merge-rule',
    requirements: ['CAG-024', 'PROTO-013'],
    run: (m) => {
      const other = m.plan(planParams({ invocationNonce: 'nonce-0000-0000-0009' }));
      const { plan } = opened(m);
      m.advance();
      m.write(plan.planId, m.snapshotOf(other.planId, []), 'CONTEXT_SOURCE_OBSERVATION_IDENTITY_MISMATCH');
    },
  },
];
