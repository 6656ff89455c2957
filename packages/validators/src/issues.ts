/** How bad an issue is: an `error` makes the document invalid, a `warning` does not. */
export type Severity = 'error' | 'warning';

/**
 * One problem found in a document.
 *
 * @example
 * const issue: Issue = {
 *   code: 'SCHEMA_REQUIRED',
 *   path: '',
 *   message: 'missing required property "writerGeneration"; add it.',
 *   rule: 'https://agent-contracts.dev/schemas/contracts/TaskRecoveryCommitFenceV1.schema.json#/required',
 *   severity: 'error',
 * };
 */
export interface Issue {
  /** Stable code (see {@link ISSUE_CODES}); match on this, never on the message. */
  readonly code: string;
  /**
   * JSON Pointer (RFC 6901) of the value the rule judges. For schema issues this is ajv's
   * `instancePath`: for `required` and `additionalProperties` it is the object that lacks or
   * carries the property (the message names the property), exactly as the golden fixtures record it.
   */
  readonly path: string;
  /** What is wrong and what to do about it, for humans. May change between versions. */
  readonly message: string;
  /**
   * Where the rule is stated: a schema location (`<$id>#<pointer>`), a digest rule
   * (`digest:<Contract><pointer>`), a spec section (`docs/spec/<page>.md#<anchor>`) or `document`.
   */
  readonly rule: string;
  /** `error` makes the document invalid; `warning` is reported but does not. */
  readonly severity: Severity;
}

/**
 * Every issue code `validate` can produce, with what it means. Schema codes are one per JSON
 * Schema keyword (draft-07); semantic-rule codes are added by `src/rules/`.
 */
export const ISSUE_CODES = {
  DOCUMENT_NOT_OBJECT: 'The document is not a JSON object (an array, string, number, boolean or null).',
  DOCUMENT_TOO_DEEP: 'The document is nested so deeply that checking it exhausted the stack.',
  SCHEMA_VERSION_MISSING: 'The document has no `schemaVersion` property, so its contract is unknown.',
  SCHEMA_VERSION_UNKNOWN:
    '`schemaVersion` is not a string naming a contract of this version of the validators.',
  CONTRACT_NOT_SUPPORTED:
    'The contract is in the catalogue but has no generated validator (run `pnpm validators:generate`).',
  SCHEMA_TYPE: 'A value has the wrong JSON type (`type`).',
  SCHEMA_REQUIRED: 'A required property is missing (`required`).',
  SCHEMA_ADDITIONAL_PROPERTY:
    'An object carries a property its contract does not define (`additionalProperties`).',
  SCHEMA_CONST: 'A value differs from the one value allowed (`const`).',
  SCHEMA_ENUM: 'A value is not one of the allowed values (`enum`).',
  SCHEMA_PATTERN: 'A string does not match its pattern (`pattern`).',
  SCHEMA_FORMAT:
    'A string is not a valid instance of its format, e.g. a real RFC 3339 UTC date-time (`format`).',
  SCHEMA_MIN_LENGTH: 'A string is too short (`minLength`, in code points).',
  SCHEMA_MAX_LENGTH: 'A string is too long (`maxLength`, in code points).',
  SCHEMA_MINIMUM: 'A number is below its minimum (`minimum`).',
  SCHEMA_MAXIMUM: 'A number is above its maximum (`maximum`).',
  SCHEMA_EXCLUSIVE_MINIMUM: 'A number is not above its exclusive minimum (`exclusiveMinimum`).',
  SCHEMA_EXCLUSIVE_MAXIMUM: 'A number is not below its exclusive maximum (`exclusiveMaximum`).',
  SCHEMA_MULTIPLE_OF: 'A number is not a multiple of its divisor (`multipleOf`).',
  SCHEMA_MIN_ITEMS: 'An array has too few items (`minItems`).',
  SCHEMA_MAX_ITEMS: 'An array has too many items (`maxItems`).',
  SCHEMA_UNIQUE_ITEMS: 'An array has duplicate items (`uniqueItems`).',
  SCHEMA_ADDITIONAL_ITEMS: 'A tuple has more items than it defines (`additionalItems`).',
  SCHEMA_CONTAINS: 'No item of an array matches the required item schema (`contains`).',
  SCHEMA_MIN_PROPERTIES: 'An object has too few properties (`minProperties`).',
  SCHEMA_MAX_PROPERTIES: 'An object has too many properties (`maxProperties`).',
  SCHEMA_PROPERTY_NAMES: 'A property name is not allowed (`propertyNames`).',
  SCHEMA_DEPENDENCIES: 'A property is present without the properties it depends on (`dependencies`).',
  SCHEMA_ANY_OF: 'A value matches none of the alternatives (`anyOf`).',
  SCHEMA_ONE_OF: 'A value matches none or more than one of the alternatives (`oneOf`).',
  SCHEMA_NOT: 'A value matches a schema it must not match (`not`).',
  SCHEMA_IF: 'A value fails the `then` or `else` branch of a conditional (`if`).',
  SCHEMA_FALSE: 'A value is present where the schema allows nothing (`false` schema).',
  SCHEMA_OTHER:
    'A schema keyword without a dedicated code failed (report it: every keyword should have one).',
  DIGEST_MISMATCH: 'A digest or derived-id field does not equal its recomputation under the DIGEST_RULES.',
  DIGEST_UNCOMPUTABLE: 'A digest rule could not recompute its value from the document.',
  RULE_FAILED: 'A semantic rule crashed on the document instead of judging it (a validator bug; report it).',
  VALIDATOR_INTERNAL_ERROR: 'The validator failed unexpectedly (a bug; report it with the document).',
  BUNDLE_INVALID: 'A bundle is not an object `{ kind, documents: [...] }` with at least one document.',
  BUNDLE_KIND_UNKNOWN: 'A bundle names a kind that has no cross-document rules.',
} as const satisfies Record<string, string>;

/** A code of {@link ISSUE_CODES}. Semantic rules may add their own codes. */
export type IssueCode = keyof typeof ISSUE_CODES;
