// Bounds: 128 events, 128 KiB, and the prefixDigest fold.
import { foldPrefixDigest, type LocalTaskTraceEvent } from '@agent-contracts/schemas';
import { hostAppend, opened, traceCase } from './trace-kit.ts';

const checkFold = (dropped: readonly LocalTaskTraceEvent[], prefixDigest: string | null) => {
  const fold = dropped.reduce<string | null>((acc, e) => foldPrefixDigest(acc, e), null);
  if (fold !== prefixDigest)
    throw new Error('prefixDigest is not the single-event fold over the dropped events');
};
traceCase(
  'bounds/129th-event-drops-oldest',
  'appending a 129th event drops the oldest, folded into prefixDigest',
  'limits',
  (s) => {
    opened(s);
    const dropped: LocalTaskTraceEvent[] = [];
    for (let i = 1; i <= 131; i++) {
      const r = s
        .advance(100)
        .traceAppend(hostAppend('UnknownHostEvent', `host-seq-${i}`, { n: i }), 'brief');
      if (r.ok) dropped.push(...r.dropped);
    }
    checkFold(dropped, s.recorder.trace!.prefixDigest);
    s.step(
      'trace.replay',
      {},
      {
        match: {
          ok: true,
          sequence: 131,
          sequenceBase: 3,
          droppedEvents: 3,
          prefixDigest: s.recorder.trace!.prefixDigest,
          traceDigest: s.recorder.replay().traceDigest,
        },
      },
    );
  },
);
traceCase(
  'bounds/bytes-drop-before-count',
  'with large payloads the 128 KiB bound drops events long before the count bound',
  'limits',
  (s) => {
    opened(s);
    const dropped: LocalTaskTraceEvent[] = [];
    for (let i = 1; i <= 20; i++) {
      const r = s
        .advance(100)
        .traceAppend(hostAppend('PostToolUse', `toolu_${i}`, { blob: 'y'.repeat(8000), n: i }), 'brief');
      if (r.ok) dropped.push(...r.dropped);
    }
    checkFold(dropped, s.recorder.trace!.prefixDigest);
    if (dropped.length === 0) throw new Error('the byte bound dropped nothing');
    s.step(
      'trace.replay',
      {},
      { match: { ok: true, droppedEvents: dropped.length, traceDigest: s.recorder.replay().traceDigest } },
    );
  },
);
traceCase(
  'bounds/batch-drop-folds-single-events',
  'one large append that drops several small events folds them one by one',
  'limits',
  (s) => {
    opened(s);
    const dropped: LocalTaskTraceEvent[] = [];
    for (let i = 1; i <= 120; i++) {
      const r = s
        .advance(10)
        .traceAppend(hostAppend('UnknownHostEvent', `host-seq-${i}`, { blob: 'z'.repeat(1000) }), 'brief');
      if (r.ok) dropped.push(...r.dropped);
    }
    const r = s
      .advance(10)
      .traceAppend(hostAppend('PostToolUse', 'toolu_big', { blob: 'w'.repeat(8100) }), 'brief');
    if (!r.ok || r.dropped.length < 2) throw new Error('the large append should drop several events at once');
    dropped.push(...r.dropped);
    checkFold(dropped, s.recorder.trace!.prefixDigest);
  },
);
