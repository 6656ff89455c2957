// Semantic rules of RunStateV1 (docs/spec/run-control-gate.md). Identity and digest (invariants 1
// and 2) are DigestRules with their own codes in @agent-contracts/schemas.
import { RUN_BUDGET_LIMITS, type RunStateV1, runRetryVerdict } from '@agent-contracts/schemas';
import type { Issue } from '../issues.js';
import { contractRules } from './kit.js';
import type { BundleRule, SemanticRule } from './types.js';

const CONTRACT = 'RunStateV1';
const INVARIANTS = 'docs/spec/run-control-gate.md#invariants';
const { issue, rule } = contractRules<RunStateV1>(CONTRACT, INVARIANTS);

/** The pause reasons each pause status allows (invariant 3). */
const PAUSE_REASONS: Readonly<Record<string, readonly string[]>> = {
  'awaiting-approval': ['approval-pending'],
  'awaiting-dependency': ['dependency-pending'],
  blocked: ['loop-detected', 'human-takeover'],
};
/** The terminal reasons each terminal status allows (invariant 4). */
const TERMINAL_REASONS: Readonly<Record<string, readonly string[]>> = {
  succeeded: ['completion-verified'],
  failed: ['completion-failed', 'budget-exhausted'],
  cancelled: ['cancelled'],
};
/** Each loop counter and its threshold (invariant 8). */
const LOOP_SIGNALS = [
  ['repeatedActionCount', 'repeatedAction'],
  ['repeatedErrorCount', 'repeatedError'],
  ['stepsWithoutStateChange', 'noProgressSteps'],
] as const;

/** Semantic rules of this area's contracts (one per code), in spec order. */
export const RUN_STATE_RULES: readonly SemanticRule[] = [
  rule(
    'RUN_STATUS_PAUSE_REASON_INCONSISTENT',
    'pauseReason is non-null exactly when the status is a pause, and is one the status allows (invariant 3).',
    (r) => {
      const allowed = PAUSE_REASONS[r.status];
      if (allowed === undefined && r.pauseReason === null) return [];
      if (allowed !== undefined && r.pauseReason !== null && allowed.includes(r.pauseReason)) return [];
      return [
        issue(
          'RUN_STATUS_PAUSE_REASON_INCONSISTENT',
          '/pauseReason',
          allowed === undefined
            ? `status "${r.status}" is not a pause but pauseReason is "${r.pauseReason}"; set pauseReason to null.`
            : `status "${r.status}" needs pauseReason ${allowed.map((a) => `"${a}"`).join(' or ')}, not ${JSON.stringify(r.pauseReason)}.`,
        ),
      ];
    },
  ),
  rule(
    'RUN_STATUS_TERMINAL_REASON_INCONSISTENT',
    'terminalReason and endedAt are non-null exactly when the status is terminal, and the reason is one the status allows (invariant 4).',
    (r) => {
      const allowed = TERMINAL_REASONS[r.status];
      const out: Issue[] = [];
      const reasonOk =
        allowed === undefined
          ? r.terminalReason === null
          : r.terminalReason !== null && allowed.includes(r.terminalReason);
      if (!reasonOk)
        out.push(
          issue(
            'RUN_STATUS_TERMINAL_REASON_INCONSISTENT',
            '/terminalReason',
            allowed === undefined
              ? `status "${r.status}" is not terminal but terminalReason is "${r.terminalReason}"; set it to null (a run that ended has a terminal status).`
              : `status "${r.status}" needs terminalReason ${allowed.map((a) => `"${a}"`).join(' or ')}, not ${JSON.stringify(r.terminalReason)}.`,
          ),
        );
      if ((allowed === undefined) !== (r.endedAt === null))
        out.push(
          issue(
            'RUN_STATUS_TERMINAL_REASON_INCONSISTENT',
            '/endedAt',
            allowed === undefined
              ? `status "${r.status}" is not terminal but endedAt is set; set endedAt to null.`
              : `status "${r.status}" is terminal but endedAt is null; record when the run ended.`,
          ),
        );
      return out;
    },
  ),
  rule(
    'RUN_SUCCESS_WITH_CALLS_IN_FLIGHT',
    'A succeeded run has no tool call in flight (invariant 5).',
    (r) =>
      r.status !== 'succeeded'
        ? []
        : r.toolCalls.flatMap((c, i) =>
            c.status === 'in-flight'
              ? [
                  issue(
                    'RUN_SUCCESS_WITH_CALLS_IN_FLIGHT',
                    `/toolCalls/${i}/status`,
                    `the run succeeded while call "${c.callId}" is still in flight; record its outcome (or query it) before completing the run.`,
                  ),
                ]
              : [],
          ),
  ),
  rule(
    'RUN_BUDGET_EXCEEDED_WHILE_RUNNING',
    'A run whose usage is beyond any limit of its budget is not running: it stopped in a terminal or paused state (invariant 6).',
    (r) =>
      r.status !== 'running'
        ? []
        : RUN_BUDGET_LIMITS.flatMap(([used, limit]) =>
            r.usage[used] > r.budget[limit]
              ? [
                  issue(
                    'RUN_BUDGET_EXCEEDED_WHILE_RUNNING',
                    `/usage/${used}`,
                    `usage.${used} ${r.usage[used]} is beyond budget.${limit} ${r.budget[limit]} while the run is still running; stop the run (failed, budget-exhausted).`,
                  ),
                ]
              : [],
          ),
  ),
  rule(
    'RUN_BUDGET_USAGE_MISCOUNTED',
    'usage.toolCalls is the number of tool call records and usage.retries the number of them that retry another call (invariant 7).',
    (r) => {
      const out: Issue[] = [];
      const retries = r.toolCalls.filter((c) => c.retryOf !== null).length;
      if (r.usage.toolCalls !== r.toolCalls.length)
        out.push(
          issue(
            'RUN_BUDGET_USAGE_MISCOUNTED',
            '/usage/toolCalls',
            `usage.toolCalls is ${r.usage.toolCalls} but the run records ${r.toolCalls.length} tool calls; count every call.`,
          ),
        );
      if (r.usage.retries !== retries)
        out.push(
          issue(
            'RUN_BUDGET_USAGE_MISCOUNTED',
            '/usage/retries',
            `usage.retries is ${r.usage.retries} but ${retries} recorded calls retry another; count every retry.`,
          ),
        );
      return out;
    },
  ),
  rule(
    'RUN_LOOP_UNHANDLED',
    'A running run has every loop counter below its threshold: at the threshold it replans (counters reset) or is handed over (blocked) (invariant 8).',
    (r) =>
      r.status !== 'running'
        ? []
        : LOOP_SIGNALS.flatMap(([count, threshold]) =>
            r.loop[count] >= r.loop.thresholds[threshold]
              ? [
                  issue(
                    'RUN_LOOP_UNHANDLED',
                    `/loop/${count}`,
                    `loop.${count} ${r.loop[count]} reached thresholds.${threshold} ${r.loop.thresholds[threshold]} while the run keeps running; replan (resetting the counters) or hand the run over (blocked, loop-detected).`,
                  ),
                ]
              : [],
          ),
  ),
  rule(
    'RUN_UNTIL_DONE_UNCONTROLLED',
    'A run in mode until-done is cancellable and has a takeover channel (invariant 9).',
    (r) => {
      if (r.mode !== 'until-done') return [];
      const out: Issue[] = [];
      if (!r.controls.cancellable)
        out.push(
          issue(
            'RUN_UNTIL_DONE_UNCONTROLLED',
            '/controls/cancellable',
            '"run until done" needs cancellation; make the run cancellable or run it in mode bounded.',
          ),
        );
      if (r.controls.takeoverChannel === null)
        out.push(
          issue(
            'RUN_UNTIL_DONE_UNCONTROLLED',
            '/controls/takeoverChannel',
            '"run until done" needs a takeover channel; name where an operator takes over, or run it in mode bounded.',
          ),
        );
      return out;
    },
  ),
  rule(
    'RUN_TOOL_CALL_DUPLICATE',
    'No two tool call records share a callId (invariant 10); each later duplicate is reported.',
    (r) => {
      const seen = new Set<string>();
      const out: Issue[] = [];
      r.toolCalls.forEach((c, i) => {
        if (seen.has(c.callId))
          out.push(
            issue(
              'RUN_TOOL_CALL_DUPLICATE',
              `/toolCalls/${i}/callId`,
              `callId "${c.callId}" is recorded twice; give every call its own id (a retry is a new call with retryOf).`,
            ),
          );
        seen.add(c.callId);
      });
      return out;
    },
  ),
  rule(
    'RUN_TOOL_CALL_OUTCOME_INCONSISTENT',
    'errorClass and errorCode are non-null exactly on failed calls, and query only on unknown-outcome failures (invariant 11).',
    (r) =>
      r.toolCalls.flatMap((c, i) => {
        const out: Issue[] = [];
        const failed = c.status === 'failed';
        if (failed !== (c.errorClass !== null) || failed !== (c.errorCode !== null))
          out.push(
            issue(
              'RUN_TOOL_CALL_OUTCOME_INCONSISTENT',
              `/toolCalls/${i}/errorClass`,
              failed
                ? `call "${c.callId}" failed without an error class and code; record how it failed.`
                : `call "${c.callId}" is ${c.status} but carries an error; clear errorClass and errorCode.`,
            ),
          );
        if (c.query !== null && c.errorClass !== 'unknown-outcome')
          out.push(
            issue(
              'RUN_TOOL_CALL_OUTCOME_INCONSISTENT',
              `/toolCalls/${i}/query`,
              `call "${c.callId}" records a query but its outcome is not unknown; only an unknown-outcome call is queried.`,
            ),
          );
        return out;
      }),
  ),
  rule(
    'RUN_TOOL_CALL_RETRY_UNKNOWN',
    'retryOf names an earlier call of the same run and the same tool (invariant 12).',
    (r) =>
      r.toolCalls.flatMap((c, i) => {
        if (c.retryOf === null) return [];
        const target = r.toolCalls.slice(0, i).find((t) => t.callId === c.retryOf);
        if (target !== undefined && target.toolName === c.toolName) return [];
        return [
          issue(
            'RUN_TOOL_CALL_RETRY_UNKNOWN',
            `/toolCalls/${i}/retryOf`,
            target === undefined
              ? `call "${c.callId}" retries "${c.retryOf}", which is not an earlier call of this run; name the call it retries.`
              : `call "${c.callId}" (${c.toolName}) retries "${c.retryOf}" of another tool (${target.toolName}); a retry repeats the same tool.`,
          ),
        ];
      }),
  ),
  rule(
    'RUN_TOOL_CALL_BLIND_RETRY',
    'A call that retries an unknown-outcome call comes after a query of its effect that found no effect (invariant 13).',
    (r) =>
      r.toolCalls.flatMap((c, i) => {
        const target =
          c.retryOf === null ? undefined : r.toolCalls.slice(0, i).find((t) => t.callId === c.retryOf);
        if (target === undefined || target.toolName !== c.toolName) return [];
        if (runRetryVerdict(target) !== 'query-first') return [];
        return [
          issue(
            'RUN_TOOL_CALL_BLIND_RETRY',
            `/toolCalls/${i}/retryOf`,
            `call "${c.callId}" retries "${target.callId}", whose outcome is unknown and ${target.query === null ? 'was never queried' : `was queried as still-unknown`}; query the effect first and retry only when it found no effect.`,
          ),
        ];
      }),
  ),
  rule(
    'RUN_TOOL_CALL_RETRY_NOT_RETRYABLE',
    'Only a transient failure or an unknown-outcome failure queried as no-effect is retried (invariant 14).',
    (r) =>
      r.toolCalls.flatMap((c, i) => {
        const target =
          c.retryOf === null ? undefined : r.toolCalls.slice(0, i).find((t) => t.callId === c.retryOf);
        if (target === undefined || target.toolName !== c.toolName) return [];
        if (runRetryVerdict(target) !== 'not-retryable') return [];
        return [
          issue(
            'RUN_TOOL_CALL_RETRY_NOT_RETRYABLE',
            `/toolCalls/${i}/retryOf`,
            `call "${c.callId}" retries "${target.callId}", which ${target.status === 'failed' ? `failed with ${target.errorClass}${target.query ? ` (queried: ${target.query.resolution})` : ''}` : `is ${target.status}`}; only a transient failure (or an unknown outcome queried as no-effect) is retried. Replan instead.`,
          ),
        ];
      }),
  ),
];

/** RunStateV1 has no cross-document rule: the run controller's transitions are judged through `run.step`. */
export const RUN_STATE_BUNDLE_RULES: readonly BundleRule[] = [];
