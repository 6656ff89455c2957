// LocalTaskTraceGate engine: the bounded trace recorder and the read-only replay projection.
export {
  appendToTrace,
  closeTrace,
  openTrace,
  type TraceAppendInput,
  type TraceAppendResult,
  type TraceAppendSuccess,
  type TraceOpenInput,
  type TraceOpenResult,
  type TraceOpenSuccess,
  type TraceRecorderStep,
  type TraceRefusal,
} from './recorder.js';
export { replayTrace, TRACE_REPLAY_CAPABILITY_BOUNDARY } from './replay.js';
export { LocalTaskTraceRecorder } from './trace-recorder.js';
export {
  isTraceTimestamp,
  sortViolations,
  TRACE_MAX_PAYLOAD_KEYS,
  TRACE_MAX_VIOLATIONS,
  type TraceVerdict,
  traceInstantKey,
  traceVerdict,
} from './verdict.js';
