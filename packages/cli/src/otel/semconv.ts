// The OpenTelemetry GenAI attribute names and values the mapping reads
// (docs/spec/opentelemetry-mapping.md#what-is-read), taken from the incubating entry point of
// @opentelemetry/semantic-conventions, so a renamed attribute shows up as a compile error when
// the package is upgraded rather than as traces that silently stop mapping.
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_SERVICE_NAME,
  ATTR_SERVICE_VERSION,
  ATTR_TELEMETRY_SDK_LANGUAGE,
  GEN_AI_OPERATION_NAME_VALUE_CHAT,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
  GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
} from '@opentelemetry/semantic-conventions/incubating';

/** Span attributes the mapping reads; no other attribute changes a verdict. */
export const SPAN_ATTRIBUTES = {
  operationName: ATTR_GEN_AI_OPERATION_NAME,
  toolName: ATTR_GEN_AI_TOOL_NAME,
  toolCallId: ATTR_GEN_AI_TOOL_CALL_ID,
  errorType: ATTR_ERROR_TYPE,
} as const;

/**
 * The kit's one attribute of its own (docs/spec/opentelemetry-mapping.md#open-spans): `true` on a
 * span written before it ended, as `otel export` writes an open turn. It is honoured only as a
 * boolValue `true` on a span without an end; no other vendor attribute is read.
 */
export const OPEN_ATTRIBUTE = 'agent_contracts.span.open';

/** Resource attributes the report names the traced service by (never part of a verdict). */
export const RESOURCE_ATTRIBUTES = {
  serviceName: ATTR_SERVICE_NAME,
  serviceVersion: ATTR_SERVICE_VERSION,
  sdkLanguage: ATTR_TELEMETRY_SDK_LANGUAGE,
} as const;

/** `gen_ai.operation.name` values the mapping gives a meaning. */
export const OPERATIONS = {
  invokeAgent: GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
  executeTool: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
  chat: GEN_AI_OPERATION_NAME_VALUE_CHAT,
} as const;

/**
 * The releases of the conventions whose names and meanings of the attributes above the mapping
 * reads: from the first release with `execute_tool` and `gen_ai.tool.call.id` on tool spans to the
 * release of the package the kit is built with (D-OTL-03).
 */
export const SEMCONV_RANGE = { from: '1.31.0', to: '1.45.0' } as const;
