// Checkpoint validation (checkpoint.validate): the decision table, row by row.
import type { CheckpointEvidence } from '@agent-contracts/engines';
import { add } from './defs.ts';
import { ev, post, pre } from './events.ts';
import { CHECK, iso, LIVENESS_PAGE, spec, T0 } from './names.ts';
import type { CheckpointParams, Session } from './session.ts';
import { started } from './turn.ts';

const DEADLINE = T0 + 2_100_000;
const item = (
  kind: CheckpointEvidence['kind'],
  eventType: string,
  seq: number,
  ms: number,
  terminalStatus?: string,
): CheckpointEvidence =>
  ({
    kind,
    eventType,
    eventSequence: seq,
    observedAt: iso(ms),
    ...(terminalStatus ? { terminalStatus } : {}),
  }) as CheckpointEvidence;
const toolOutput = item('tool-output', 'PostToolUse', 3, T0 + 2000);
const preCompact = item('pre-compact', 'PreCompact', 4, T0 + 3000);
const hostEvent = item('host-event', 'UnknownHostEvent', 5, T0 + 4000);
const sidecar = item('sidecar-observation', 'UnknownHostEvent', 5, T0 + 5000);
const stop = item('host-terminal-event', 'Stop', 6, T0 + 6000, 'completed');
const turnError = item('host-terminal-event', 'TurnError', 6, T0 + 6000, 'error');
export const interrupted = item('host-terminal-event', 'TurnInterrupted', 6, T0 + 6000, 'interrupted');
const nativeStatus = item('host-native-terminal-status', 'UnknownHostEvent', 6, T0 + 6000, 'completed');

const row = (
  name: string,
  title: string,
  now: number,
  params: CheckpointParams,
  extra?: (s: Session) => void,
) =>
  add(
    {
      id: `checkpoint/CheckpointValidationResultV1/${name}`,
      title,
      gate: 'TurnLivenessRecoveryGate',
      subject: 'CheckpointValidationResultV1',
      spec: spec(LIVENESS_PAGE, 'decision-table'),
      requires: CHECK,
    },
    (s) => {
      s.set(now).checkpoint(params);
      extra?.(s);
    },
  );
const postExec = (
  evidence: CheckpointEvidence[],
  extra: Partial<CheckpointParams> = {},
): CheckpointParams => ({
  turnKey: 'req_01',
  mode: 'post-execution',
  evidence,
  deadlineAt: iso(DEADLINE),
  ...extra,
});
const responseTime = (
  evidence: CheckpointEvidence[],
  extra: Partial<CheckpointParams> = {},
): CheckpointParams => ({
  turnKey: 'req_01',
  mode: 'response-time',
  evidence,
  deadlineAt: null,
  ...extra,
});
for (const mode of ['bogus', 'post_execution', '', 'PostExecution'])
  row(
    `row0-mode-${mode || 'empty'}`,
    `row 0: mode ${JSON.stringify(mode)} is refused with CHECKPOINT_MODE_INVALID`,
    T0 + 10_000,
    {
      ...postExec([stop]),
      mode,
    },
  );
row(
  'row1-blocked-post-execution',
  'row 1: blocking issues block post-execution, even with terminal evidence',
  T0 + 10_000,
  postExec([toolOutput, stop], { blockingIssues: ['task-operation-unsettled'] }),
);
row(
  'row1-blocked-supplied-actions',
  'row 1: supplied actions are recorded with the blocked outcome',
  T0 + 10_000,
  postExec([toolOutput], {
    blockingIssues: ['task-operation-unsettled'],
    requiredActions: ['reconcile-operation-before-completion'],
  }),
);
row(
  'row1-blocked-no-evidence',
  'row 1: blocked without evidence has evidenceState unverified',
  T0 + 10_000,
  responseTime([], { blockingIssues: ['host-unreachable'] }),
);
for (const [name, e] of [
  ['stop', stop],
  ['turn-error', turnError],
  ['turn-interrupted', interrupted],
  ['host-native-terminal-status', nativeStatus],
] as const)
  row(
    `row2-post-execution-pass-${name}`,
    `row 2: post-execution passes on ${e.kind} evidence (${e.eventType})`,
    T0 + 10_000,
    postExec([toolOutput, preCompact, e]),
  );
row(
  'row2-response-time-pass',
  'row 2: response-time passes on any evidence item',
  T0 + 10_000,
  responseTime([toolOutput]),
);
row(
  'row2-response-time-pass-after-deadline-irrelevant',
  'row 2: response-time has no deadline and passes on a host event',
  T0 + 100_000_000,
  responseTime([hostEvent]),
);
// Caller-supplied actions belong to row 1 only (TLR-520, D-TLR-56).
for (const [name, title, at, input] of [
  [
    'row2-supplied-actions-ignored',
    'row 2: a pass ignores supplied actions (requiredActions stays empty)',
    T0 + 10_000,
    postExec([toolOutput, stop], { requiredActions: ['page-the-on-call-engineer'] }),
  ],
  [
    'row3-supplied-actions-ignored',
    'row 3: incomplete-timeout keeps its own action, not the supplied ones',
    DEADLINE,
    postExec([toolOutput], { requiredActions: ['page-the-on-call-engineer'] }),
  ],
  [
    'row4-supplied-actions-ignored',
    'row 4: unverified keeps its own action, not the supplied ones',
    DEADLINE - 1,
    postExec([toolOutput], { requiredActions: ['page-the-on-call-engineer'] }),
  ],
] as const)
  row(name, title, at, input);
row(
  'row3-incomplete-timeout-at-deadline',
  'row 3: post-execution without terminal evidence at the deadline is incomplete-timeout',
  DEADLINE,
  postExec([toolOutput, preCompact]),
);
row(
  'row3-incomplete-timeout-no-evidence',
  'row 3: incomplete-timeout without any evidence has evidenceState unverified',
  DEADLINE + 60_000,
  postExec([]),
);
row(
  'row4-unverified-before-deadline',
  'row 4: one millisecond before the deadline post-execution is unverified and blocking',
  DEADLINE - 1,
  postExec([toolOutput, preCompact]),
);
for (const [name, e] of [
  ['tool-output', toolOutput],
  ['pre-compact', preCompact],
  ['host-event', hostEvent],
  ['sidecar-observation', sidecar],
] as const)
  row(
    `row4-post-execution-never-passes-${name}`,
    `row 4: ${name} evidence alone never passes post-execution`,
    T0 + 60_000,
    postExec([e]),
  );
row(
  'row4-response-time-unverified',
  'row 4: response-time without evidence is unverified and not blocking',
  T0 + 60_000,
  responseTime([]),
);
row(
  'observed-at-raised-to-evidence',
  'a clock behind the evidence: observedAt is raised to the latest evidence time',
  T0,
  postExec([toolOutput, stop]),
);
row(
  'evidence-capped-at-16',
  'more than 16 items: the oldest non-terminal items are dropped, terminal items are kept',
  T0 + 60_000,
  postExec([
    stop,
    ...Array.from({ length: 18 }, (_, i) => item('tool-output', 'PostToolUse', i + 7, T0 + 7000 + i)),
  ]),
);
for (const [name, params] of [
  ['post-execution-without-deadline', { ...postExec([stop]), deadlineAt: null }],
  ['response-time-with-deadline', responseTime([hostEvent], { deadlineAt: iso(DEADLINE) })],
  [
    'terminal-item-post-tool-use',
    postExec([item('host-terminal-event', 'PostToolUse', 3, T0 + 2000, 'completed')]),
  ],
  ['terminal-item-wrong-status', postExec([item('host-terminal-event', 'Stop', 6, T0 + 6000, 'error')])],
  ['tool-output-item-pre-compact', postExec([item('tool-output', 'PreCompact', 3, T0 + 2000)])],
  ['pre-compact-item-stop', postExec([item('pre-compact', 'Stop', 3, T0 + 2000)])],
  // A sidecar read and a host-native status read carry UnknownHostEvent (TLR-521, D-TLR-57).
  ['sidecar-observation-stop', responseTime([item('sidecar-observation', 'Stop', 5, T0 + 5000)])],
  [
    'host-native-terminal-status-stop',
    postExec([item('host-native-terminal-status', 'Stop', 6, T0 + 6000, 'completed')]),
  ],
] as const)
  row(
    `inconsistent-${name}`,
    `refused with TURN_CHECKPOINT_VALIDATION_INCONSISTENT: ${name}`,
    T0 + 60_000,
    params,
  );

add(
  {
    id: 'checkpoint/CheckpointValidationResultV1/post-execution-timeout',
    title:
      'post-execution-timeout: unverified one ms before the deadline, incomplete-timeout at it, pass after Stop',
    gate: 'TurnLivenessRecoveryGate',
    subject: 'CheckpointValidationResultV1',
    spec: spec(LIVENESS_PAGE, 'post-execution-timeout'),
    requires: ['liveness', 'checkpoint', 'clock'],
  },
  (s) => {
    started(s);
    s.advance(1000).events(pre('op1'));
    s.advance(1000).events(post('op1'));
    s.advance(1000).events(ev('PreCompact'));
    const evidence = [...s.turn.checkpointValidation!.postExecution.evidence];
    s.set(DEADLINE - 1).checkpoint(postExec(evidence));
    s.set(DEADLINE).checkpoint(postExec(evidence));
    s.set(DEADLINE - 1).events(ev('UnknownHostEvent'));
    s.set(DEADLINE).events(ev('UnknownHostEvent'));
    s.advance(1000).events(ev('Stop'));
  },
);
