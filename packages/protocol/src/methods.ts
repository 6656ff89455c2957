// Every method of protocol v1 with the schema of its params, its result and the `data` of its
// refusals (schemas/protocol/<Type>.schema.json). The generator, docs/protocol.md's field tables
// and the tests read this table; the types it names are in ./messages.
import type * as Messages from './messages/index.js';

/** The name of a message type of ./messages (and of its schema in schemas/protocol/). */
export type MessageTypeName = keyof MessageTypes;

/** One method: its capability and the message types of its params, result and refusal `data`. */
export interface MethodEntry {
  /** The JSON-RPC method name. */
  readonly method: string;
  /** The capability token the method needs, or null (every implementation answers it). */
  readonly capability: string | null;
  /** The type of `params`. */
  readonly params: MessageTypeName;
  /** The type of `result`. */
  readonly result: MessageTypeName;
  /** The types a -32000 error's `data` may have (every one has `code`). */
  readonly errors: readonly MessageTypeName[];
}

/** Every message type with a schema, by name (the generator reads the types of ./messages by these names). */
export interface MessageTypes {
  HelloParams: Messages.HelloParams;
  HelloResult: Messages.HelloResult;
  ValidateParams: Messages.ValidateParams;
  ValidateBundleParams: Messages.ValidateBundleParams;
  ValidateResult: Messages.ValidateResult;
  DigestParams: Messages.DigestParams;
  DigestResult: Messages.DigestResult;
  ClockSetParams: Messages.ClockSetParams;
  ClockAdvanceParams: Messages.ClockAdvanceParams;
  ClockResult: Messages.ClockResult;
  NoParams: Messages.NoParams;
  NullResult: Messages.NullResult;
  CrashArmParams: Messages.CrashArmParams;
  CrashArmResult: Messages.CrashArmResult;
  LivenessResetParams: Messages.LivenessResetParams;
  LivenessEventParams: Messages.LivenessEventParams;
  LivenessStepResult: Messages.LivenessStepResult;
  LivenessClassifyResult: Messages.LivenessClassifyResult;
  LivenessStateResult: Messages.LivenessStateResult;
  LivenessEvidenceResult: Messages.LivenessEvidenceResult;
  LivenessLeaseParams: Messages.LivenessLeaseParams;
  LivenessLeaseResult: Messages.LivenessLeaseResult;
  LivenessRehydrateParams: Messages.LivenessRehydrateParams;
  LivenessEventRefusalData: Messages.LivenessEventRefusalData;
  TurnStateInvalidData: Messages.TurnStateInvalidData;
  CheckpointValidateParams: Messages.CheckpointValidateParams;
  CheckpointValidateResult: Messages.CheckpointValidateResult;
  CheckpointRefusalData: Messages.CheckpointRefusalData;
  TraceOpenParams: Messages.TraceOpenParams;
  TraceOpenResult: Messages.TraceOpenResult;
  TraceAppendParams: Messages.TraceAppendParams;
  TraceAppendResult: Messages.TraceAppendResult;
  TraceCloseParams: Messages.TraceCloseParams;
  TraceReplayResult: Messages.TraceReplayResult;
  TraceCurrentResult: Messages.TraceCurrentResult;
  TraceLoadParams: Messages.TraceLoadParams;
  TraceRefusalData: Messages.TraceRefusalData;
  RunStepParams: Messages.RunStepParams;
  RunStepResult: Messages.RunStepResult;
  RunRefusalData: Messages.RunRefusalData;
  PolicyDecideParams: Messages.PolicyDecideParams;
  PolicyDecideResult: Messages.PolicyDecideResult;
  PolicyObserveParams: Messages.PolicyObserveParams;
  PolicyObserveResult: Messages.PolicyObserveResult;
  DelegateParams: Messages.DelegateParams;
  DelegateResult: Messages.DelegateResult;
  ContextPlanParams: Messages.ContextPlanParams;
  ContextPlanResult: Messages.ContextPlanResult;
  ContextReceiptParams: Messages.ContextReceiptParams;
  ContextReceiptResult: Messages.ContextReceiptResult;
  ContextObserveParams: Messages.ContextObserveParams;
  ContextObserveResult: Messages.ContextObserveResult;
  ContextReuseParams: Messages.ContextReuseParams;
  ContextReuseResult: Messages.ContextReuseResult;
  ContextLedgerParams: Messages.ContextLedgerParams;
  ContextLedgerResult: Messages.ContextLedgerResult;
  StoreTaskParams: Messages.StoreTaskParams;
  StoreCommitStateParams: Messages.StoreCommitStateParams;
  StoreCommitOperationParams: Messages.StoreCommitOperationParams;
  StoreTransitionOwnerParams: Messages.StoreTransitionOwnerParams;
  StoreReadResult: Messages.StoreReadResult;
  StoreReadWriteContextResult: Messages.StoreReadWriteContextResult;
  StoreCommitResult: Messages.StoreCommitResult;
  StoreReplayResult: Messages.StoreReplayResult;
  StoreHistoryResult: Messages.StoreHistoryResult;
  StoreRefusalData: Messages.StoreRefusalData;
  StorageFailureData: Messages.StorageFailureData;
  ProtocolErrorData: Messages.ProtocolErrorData;
  CodeOnlyErrorData: Messages.CodeOnlyErrorData;
}

const LISTED: Record<MessageTypeName, true> = {
  HelloParams: true,
  HelloResult: true,
  ValidateParams: true,
  ValidateBundleParams: true,
  ValidateResult: true,
  DigestParams: true,
  DigestResult: true,
  ClockSetParams: true,
  ClockAdvanceParams: true,
  ClockResult: true,
  NoParams: true,
  NullResult: true,
  CrashArmParams: true,
  CrashArmResult: true,
  LivenessResetParams: true,
  LivenessEventParams: true,
  LivenessStepResult: true,
  LivenessClassifyResult: true,
  LivenessStateResult: true,
  LivenessEvidenceResult: true,
  LivenessLeaseParams: true,
  LivenessLeaseResult: true,
  LivenessRehydrateParams: true,
  LivenessEventRefusalData: true,
  TurnStateInvalidData: true,
  CheckpointValidateParams: true,
  CheckpointValidateResult: true,
  CheckpointRefusalData: true,
  TraceOpenParams: true,
  TraceOpenResult: true,
  TraceAppendParams: true,
  TraceAppendResult: true,
  TraceCloseParams: true,
  TraceReplayResult: true,
  TraceCurrentResult: true,
  TraceLoadParams: true,
  TraceRefusalData: true,
  RunStepParams: true,
  RunStepResult: true,
  RunRefusalData: true,
  PolicyDecideParams: true,
  PolicyDecideResult: true,
  PolicyObserveParams: true,
  PolicyObserveResult: true,
  DelegateParams: true,
  DelegateResult: true,
  ContextPlanParams: true,
  ContextPlanResult: true,
  ContextReceiptParams: true,
  ContextReceiptResult: true,
  ContextObserveParams: true,
  ContextObserveResult: true,
  ContextReuseParams: true,
  ContextReuseResult: true,
  ContextLedgerParams: true,
  ContextLedgerResult: true,
  StoreTaskParams: true,
  StoreCommitStateParams: true,
  StoreCommitOperationParams: true,
  StoreTransitionOwnerParams: true,
  StoreReadResult: true,
  StoreReadWriteContextResult: true,
  StoreCommitResult: true,
  StoreReplayResult: true,
  StoreHistoryResult: true,
  StoreRefusalData: true,
  StorageFailureData: true,
  ProtocolErrorData: true,
  CodeOnlyErrorData: true,
};

/** Every message type with a schema, in a stable order. */
export const MESSAGE_TYPES = Object.keys(LISTED) as readonly MessageTypeName[];

const m = (
  method: string,
  capability: string | null,
  params: MessageTypeName,
  result: MessageTypeName,
  errors: readonly MessageTypeName[] = [],
): MethodEntry => ({ method, capability, params, result, errors });

const STORE_ERRORS = ['StoreRefusalData', 'StorageFailureData'] as const;
const TURN_ERRORS = ['TurnStateInvalidData'] as const;

/** Every method of protocol v1, in the order of docs/protocol.md. */
export const METHODS: readonly MethodEntry[] = [
  m('hello', null, 'HelloParams', 'HelloResult', ['CodeOnlyErrorData', 'StorageFailureData']),
  m('validate', null, 'ValidateParams', 'ValidateResult', ['CodeOnlyErrorData']),
  m('validateBundle', null, 'ValidateBundleParams', 'ValidateResult'),
  m('digest', 'digest', 'DigestParams', 'DigestResult', ['CodeOnlyErrorData']),
  m('clock.set', 'clock', 'ClockSetParams', 'ClockResult'),
  m('clock.advance', 'clock', 'ClockAdvanceParams', 'ClockResult'),
  m('shutdown', null, 'NoParams', 'NullResult'),
  m('liveness.reset', 'liveness', 'LivenessResetParams', 'LivenessStateResult'),
  m('liveness.event', 'liveness', 'LivenessEventParams', 'LivenessStepResult', [
    'LivenessEventRefusalData',
    ...TURN_ERRORS,
  ]),
  m('liveness.classify', 'liveness', 'NoParams', 'LivenessClassifyResult', TURN_ERRORS),
  m('liveness.state', 'liveness', 'NoParams', 'LivenessStateResult', TURN_ERRORS),
  m('liveness.evidence', 'liveness', 'NoParams', 'LivenessEvidenceResult', TURN_ERRORS),
  m('liveness.watchdog', 'liveness', 'NoParams', 'LivenessStepResult', TURN_ERRORS),
  m('liveness.lease', 'liveness', 'LivenessLeaseParams', 'LivenessLeaseResult', [
    'CodeOnlyErrorData',
    ...TURN_ERRORS,
  ]),
  m('liveness.rehydrate', 'liveness', 'LivenessRehydrateParams', 'LivenessStateResult', TURN_ERRORS),
  m('checkpoint.validate', 'checkpoint', 'CheckpointValidateParams', 'CheckpointValidateResult', [
    'CheckpointRefusalData',
  ]),
  m('trace.open', 'trace', 'TraceOpenParams', 'TraceOpenResult', ['TraceRefusalData']),
  m('trace.append', 'trace', 'TraceAppendParams', 'TraceAppendResult', ['TraceRefusalData']),
  m('trace.close', 'trace', 'TraceCloseParams', 'TraceAppendResult', ['TraceRefusalData']),
  m('trace.replay', 'trace', 'NoParams', 'TraceReplayResult'),
  m('trace.current', 'trace', 'NoParams', 'TraceCurrentResult'),
  m('trace.load', 'trace', 'TraceLoadParams', 'NullResult'),
  m('policy.observe', 'policy', 'PolicyObserveParams', 'PolicyObserveResult'),
  m('policy.decide', 'policy', 'PolicyDecideParams', 'PolicyDecideResult', ['CodeOnlyErrorData']),
  m('delegate', 'delegation', 'DelegateParams', 'DelegateResult', ['CodeOnlyErrorData']),
  m('context.plan', 'context', 'ContextPlanParams', 'ContextPlanResult', ['CodeOnlyErrorData']),
  m('context.receipt', 'context', 'ContextReceiptParams', 'ContextReceiptResult', ['CodeOnlyErrorData']),
  m('context.observe', 'context', 'ContextObserveParams', 'ContextObserveResult', ['CodeOnlyErrorData']),
  m('context.reuse', 'context', 'ContextReuseParams', 'ContextReuseResult', ['CodeOnlyErrorData']),
  m('context.ledger', 'context', 'ContextLedgerParams', 'ContextLedgerResult', ['CodeOnlyErrorData']),
  m('store.read', 'store', 'StoreTaskParams', 'StoreReadResult', STORE_ERRORS),
  m('store.readWriteContext', 'store', 'StoreTaskParams', 'StoreReadWriteContextResult', STORE_ERRORS),
  m('store.commitState', 'store', 'StoreCommitStateParams', 'StoreCommitResult', STORE_ERRORS),
  m('store.commitOperation', 'store', 'StoreCommitOperationParams', 'StoreCommitResult', STORE_ERRORS),
  m('store.transitionOwner', 'store', 'StoreTransitionOwnerParams', 'StoreCommitResult', STORE_ERRORS),
  m('store.replay', 'store', 'StoreTaskParams', 'StoreReplayResult', STORE_ERRORS),
  m('store.history', 'store', 'StoreTaskParams', 'StoreHistoryResult', STORE_ERRORS),
  m('crash.arm', 'crash', 'CrashArmParams', 'CrashArmResult'),
  m('run.step', 'run', 'RunStepParams', 'RunStepResult', ['RunRefusalData']),
];

/** The entry of a method of protocol v1, or undefined for a name it does not have. */
export function methodEntry(method: string): MethodEntry | undefined {
  return METHODS.find((m) => m.method === method);
}

/** The base of every schema's `$id`. */
export const PROTOCOL_SCHEMA_BASE = 'https://agent-contracts.dev/schemas/protocol/';

/** The `$id` of a message type's schema. */
export const protocolSchemaId = (name: MessageTypeName): string =>
  `${PROTOCOL_SCHEMA_BASE}${name}.schema.json`;
