// Semantic rules of TurnLivenessContractV1 (docs/spec/turn-liveness-recovery-gate.md#invariants).
import type { TurnFaultScenario, TurnHostEventType, TurnLivenessContractV1 } from '@agent-contracts/schemas';
import type { Issue } from '../../issues.js';
import { contractRules } from '../kit.js';
import type { SemanticRule } from '../types.js';
import { S_CONTRACT, thresholdRule } from './shared.js';

const CONTRACT = 'TurnLivenessContractV1';
const { issue, rule } = contractRules<TurnLivenessContractV1>(CONTRACT, S_CONTRACT);

const REQUIRED_EVENTS: readonly TurnHostEventType[] = [
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'Stop',
];
const REQUIRED_SCENARIOS: readonly TurnFaultScenario[] = [
  'no-continuation',
  'active-lease',
  'restart-rehydrate',
  'duplicate-recovery',
];

/** Semantic rules of TurnLivenessContractV1, in spec order. */
export const CONTRACT_RULES: readonly SemanticRule[] = [
  thresholdRule(CONTRACT, S_CONTRACT),
  rule(
    'TURN_CONTRACT_ROW_INVALID',
    'postExecutionDeadlineMs = operationLeaseMs + stalledAfterMs; mappedEvents include UserPromptSubmit, PreToolUse, PostToolUse and Stop; the host-native watchdog detects without events only when host-native-verified.',
    (d) => {
      const out: Issue[] = [];
      const code = 'TURN_CONTRACT_ROW_INVALID';
      const want = d.thresholds.operationLeaseMs + d.thresholds.stalledAfterMs;
      if (d.checkpointValidation.postExecutionDeadlineMs !== want)
        out.push(
          issue(
            code,
            '/checkpointValidation/postExecutionDeadlineMs',
            `postExecutionDeadlineMs is ${d.checkpointValidation.postExecutionDeadlineMs} but operationLeaseMs + stalledAfterMs is ${want}; set it to ${want} and refreeze.`,
          ),
        );
      const missing = REQUIRED_EVENTS.filter((e) => !d.eventEvidence.mappedEvents.includes(e));
      if (missing.length)
        out.push(
          issue(
            code,
            '/eventEvidence/mappedEvents',
            `mappedEvents lacks ${missing.join(', ')}; map the host's events onto them and refreeze.`,
          ),
        );
      const w = d.capabilityBoundary.hostNativeWatchdog;
      if (w.detectsWithoutEvent === true && w.status !== 'host-native-verified')
        out.push(
          issue(
            code,
            '/capabilityBoundary/hostNativeWatchdog/detectsWithoutEvent',
            `a ${w.status} watchdog cannot claim detection without events; verify it (host-native-verified) or set detectsWithoutEvent false.`,
          ),
        );
      return out;
    },
  ),
  rule(
    'TURN_FAULT_MATRIX_INCOMPLETE',
    'validation.faultScenarios contains no-continuation, active-lease, restart-rehydrate and duplicate-recovery.',
    (d) => {
      const have = d.validation.faultScenarios;
      const missing = REQUIRED_SCENARIOS.filter((s) => !have.includes(s));
      return missing.length
        ? [
            issue(
              'TURN_FAULT_MATRIX_INCOMPLETE',
              '/validation/faultScenarios',
              `faultScenarios lacks ${missing.join(', ')}; add and run the missing scenarios.`,
            ),
          ]
        : [];
    },
  ),
];
