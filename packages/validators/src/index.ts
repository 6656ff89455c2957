/**
 * Reference validators of the agent-contracts spec.
 *
 * @example
 * import { validate } from '@agent-contracts/validators';
 * const result = validate(JSON.parse(text));
 * if (!result.ok) for (const i of result.issues) console.error(i.code, i.path, i.message);
 *
 * @packageDocumentation
 */

export { BUNDLE_KINDS, type BundleResult, validateBundle } from './bundle.js';
export { ValidatorsError, type ValidatorsErrorCode } from './errors.js';
export { FORMATS, type FormatDefinition, isDate, isDateTime, isUuid } from './formats.js';
export { ISSUE_CODES, type Issue, type IssueCode, type Severity } from './issues.js';
export { confirmationNeed, degradesFrom, ROUTE_LOW_CONFIDENCE } from './rules/agent-routing.js';
export { capabilityMatrixSatisfies, classifyCapabilityMatrix } from './rules/capability-domain.js';
export {
  EMBEDDED_SCHEMA_MAX_BYTES,
  EMBEDDED_SCHEMA_MAX_DEPTH,
  embeddedSchemaExcess,
} from './rules/embedded-schema-size.js';
export { evaluationVerdict, summarizeEvaluationRuns } from './rules/evaluation.js';
export {
  BUNDLE_RULES,
  type Bundle,
  type BundleRule,
  type ContractDocument,
  SEMANTIC_RULES,
  type SemanticRule,
} from './rules/index.js';
export { TOOL_NEXT_STEPS } from './rules/task-contract.js';
export { RUNTIME_HELPERS } from './runtime.js';
export { KEYWORD_CODES } from './structural.js';
export {
  SUPPORTED_CONTRACTS,
  type ValidateOptions,
  type ValidationFailure,
  type ValidationResult,
  type ValidationSuccess,
  validate,
} from './validate.js';
