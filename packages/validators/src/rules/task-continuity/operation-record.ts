// Semantic rules of TaskOperationRecordV1 (docs/spec/task-continuity-write-gate.md#taskoperationrecordv1
// and #phase-shape), judged on a standalone record and on the records a TaskOperationSetV1 and a
// TaskRecoveryStateV5 embed, at their path.
import type {
  TaskOperationPhase,
  TaskOperationRecordV1,
  TaskOperationSetV1,
  TaskRecoveryStateV5,
} from '@agent-contracts/schemas';
import { type Report, reportingRule } from '../kit.js';
import type { SemanticRule } from '../types.js';
import { compareTime, compareUtf16, SECTION, show } from './shared.js';

type Phase = TaskOperationPhase;
type Presence = 'null' | 'set' | 'any' | 'iff-observed';
interface ShapeRow {
  effects: readonly TaskOperationRecordV1['effect'][];
  dispatchedAt: Presence;
  observedAt: Presence;
  settledAt: Presence;
  resultDigest: Presence;
  evidenceDigest: Presence;
}

/** The phase shape table of docs/spec (one row per phase). */
export const PHASE_SHAPE: Readonly<Record<Phase, ShapeRow>> = {
  prepared: {
    effects: ['none'],
    dispatchedAt: 'null',
    observedAt: 'null',
    settledAt: 'null',
    resultDigest: 'null',
    evidenceDigest: 'null',
  },
  dispatched: {
    effects: ['unknown'],
    dispatchedAt: 'set',
    observedAt: 'null',
    settledAt: 'null',
    resultDigest: 'null',
    evidenceDigest: 'null',
  },
  observed: {
    effects: ['unknown'],
    dispatchedAt: 'set',
    observedAt: 'set',
    settledAt: 'null',
    resultDigest: 'set',
    evidenceDigest: 'null',
  },
  'reconcile-required': {
    effects: ['unknown'],
    dispatchedAt: 'set',
    observedAt: 'any',
    settledAt: 'null',
    resultDigest: 'iff-observed',
    evidenceDigest: 'null',
  },
  settled: {
    effects: ['known-applied', 'known-not-applied'],
    dispatchedAt: 'set',
    observedAt: 'any',
    settledAt: 'set',
    resultDigest: 'iff-observed',
    evidenceDigest: 'set',
  },
  'aborted-zero-effect': {
    effects: ['none'],
    dispatchedAt: 'null',
    observedAt: 'null',
    settledAt: 'set',
    resultDigest: 'null',
    evidenceDigest: 'null',
  },
};

const SHAPE_FIELDS = ['dispatchedAt', 'observedAt', 'settledAt', 'resultDigest', 'evidenceDigest'] as const;

function recordShape(r: TaskOperationRecordV1, base: string, report: Report): void {
  const row = PHASE_SHAPE[r.phase];
  if (!row) return;
  if (!row.effects.includes(r.effect)) {
    report(
      `${base}/effect`,
      `effect is ${show(r.effect)} but phase ${r.phase} requires ${row.effects.join(' or ')}; ` +
        'rebuild the record from its phase (see the phase shape table).',
    );
  }
  for (const field of SHAPE_FIELDS) {
    const value = r[field];
    const want: Presence =
      row[field] === 'iff-observed' ? (r.observedAt === null ? 'null' : 'set') : row[field];
    if (want === 'any' || (want === 'null') === (value === null)) continue;
    if (r.phase === 'aborted-zero-effect' && field === 'dispatchedAt') {
      report(
        `${base}/dispatchedAt`,
        `an aborted-zero-effect operation has dispatchedAt ${show(value)}: an operation that was dispatched ` +
          'can never be aborted with zero effect; move it to reconcile-required and reconcile it with evidence.',
      );
      continue;
    }
    report(
      `${base}/${field}`,
      `${field} is ${show(value)} but in phase ${r.phase} it must be ${want === 'null' ? 'null' : 'set'}` +
        `${row[field] === 'iff-observed' ? ' (set exactly when observedAt is)' : ''}; ` +
        'rebuild the record from its phase (see the phase shape table).',
    );
  }
}

function recordTimestamps(r: TaskOperationRecordV1, base: string, report: Report): void {
  const chain: Array<[string, string | null]> = [
    ['preparedAt', r.preparedAt],
    ['dispatchedAt', r.dispatchedAt],
    ['observedAt', r.observedAt],
    ['settledAt', r.settledAt],
  ];
  let prev: [string, string] | null = null;
  for (const [name, value] of chain) {
    if (value === null) continue;
    if (prev && compareTime(value, prev[1]) < 0) {
      report(
        `${base}/${name}`,
        `${name} ${value} is earlier than ${prev[0]} ${prev[1]}; the phase timestamps that are set must be ` +
          'ordered preparedAt <= dispatchedAt <= observedAt <= settledAt (each is the commit time of its edge).',
      );
    }
    prev = [name, value];
  }
}

function recordTargets(r: TaskOperationRecordV1, base: string, report: Report): void {
  r.exactTargets.forEach((t, i) => {
    const p = `${base}/exactTargets/${i}`;
    if (t.normalize('NFKC') !== t) {
      report(
        p,
        `target ${show(t)} is not NFKC-normalised; normalise it (NFKC), re-sort and recompute targetSetDigest.`,
      );
    } else if (t.trim() !== t) {
      report(
        p,
        `target ${show(t)} has surrounding whitespace; trim it, re-sort and recompute targetSetDigest.`,
      );
    } else if (t.includes('\\')) {
      report(p, `target ${show(t)} contains "\\"; use "/" as the only separator.`);
    }
    const prev = r.exactTargets[i - 1];
    if (i > 0 && prev !== undefined && compareUtf16(prev, t) >= 0) {
      report(
        p,
        `target ${show(t)} ${prev === t ? 'repeats' : 'sorts before'} the previous target ${show(prev)}; ` +
          'exactTargets are unique and sorted ascending by UTF-16 code units.',
      );
    }
  });
}

/** A check of one document kind that reports its violations under `base`, the document's path. */
type Check<T> = (doc: T, base: string, report: Report) => void;

/** The record check applied to a standalone record, a set's unresolved record and an envelope's. */
function recordRules(
  code: string,
  section: string,
  description: string,
  check: Check<TaskOperationRecordV1>,
) {
  return [
    reportingRule<TaskOperationRecordV1>(code, 'TaskOperationRecordV1', section, description, (r, report) =>
      check(r, '', report),
    ),
    reportingRule<TaskOperationSetV1>(
      code,
      'TaskOperationSetV1',
      section,
      `${description} (the unresolved record)`,
      (s, report) => {
        if (s.unresolved) check(s.unresolved, '/unresolved', report);
      },
    ),
    reportingRule<TaskRecoveryStateV5>(
      code,
      'TaskRecoveryStateV5',
      section,
      `${description} (the embedded unresolved record)`,
      (e, report) => {
        if (e.operations.unresolved) check(e.operations.unresolved, '/operations/unresolved', report);
      },
    ),
  ];
}

/** Semantic rules of TaskOperationRecordV1 and of the records embedded in sets and envelopes. */
export const RECORD_RULES: readonly SemanticRule[] = [
  ...recordRules(
    'TASK_OPERATION_PHASE_SHAPE_INVALID',
    SECTION.phaseShape,
    'The record matches its phase’s row of the phase shape table (effect, which timestamps and digests are set); in particular an aborted-zero-effect record was never dispatched',
    recordShape,
  ),
  ...recordRules(
    'TASK_OPERATION_TIMESTAMP_ORDER_INVALID',
    SECTION.phaseShape,
    'The phase timestamps that are set are ordered preparedAt <= dispatchedAt <= observedAt <= settledAt',
    recordTimestamps,
  ),
  ...recordRules(
    'TASK_OPERATION_TARGETS_INVALID',
    SECTION.record,
    'exactTargets are NFKC-normalised, trimmed, without "\\", unique and sorted by UTF-16 code units',
    recordTargets,
  ),
];
