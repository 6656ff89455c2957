// Turns the errors of the generated ajv code into Issues with stable codes and messages that say
// what to do. Runs only on invalid documents, so it may be slower than the validators themselves.
import type { Issue, IssueCode } from './issues.js';
import { describeValue, resolvePointer } from './pointer.js';

/** The part of ajv's `ErrorObject` the generated code produces (`messages: false`). */
export interface StructuralError {
  readonly instancePath: string;
  readonly schemaPath: string;
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** A generated structural validator: true when the document conforms to the contract's schema. */
export interface StructuralValidator {
  (data: unknown): boolean;
  errors?: readonly StructuralError[] | null;
}

/** The issue code of each JSON Schema (draft-07) keyword. */
export const KEYWORD_CODES: Readonly<Record<string, IssueCode>> = {
  type: 'SCHEMA_TYPE',
  required: 'SCHEMA_REQUIRED',
  additionalProperties: 'SCHEMA_ADDITIONAL_PROPERTY',
  const: 'SCHEMA_CONST',
  enum: 'SCHEMA_ENUM',
  pattern: 'SCHEMA_PATTERN',
  format: 'SCHEMA_FORMAT',
  minLength: 'SCHEMA_MIN_LENGTH',
  maxLength: 'SCHEMA_MAX_LENGTH',
  minimum: 'SCHEMA_MINIMUM',
  maximum: 'SCHEMA_MAXIMUM',
  exclusiveMinimum: 'SCHEMA_EXCLUSIVE_MINIMUM',
  exclusiveMaximum: 'SCHEMA_EXCLUSIVE_MAXIMUM',
  multipleOf: 'SCHEMA_MULTIPLE_OF',
  minItems: 'SCHEMA_MIN_ITEMS',
  maxItems: 'SCHEMA_MAX_ITEMS',
  uniqueItems: 'SCHEMA_UNIQUE_ITEMS',
  additionalItems: 'SCHEMA_ADDITIONAL_ITEMS',
  contains: 'SCHEMA_CONTAINS',
  minProperties: 'SCHEMA_MIN_PROPERTIES',
  maxProperties: 'SCHEMA_MAX_PROPERTIES',
  propertyNames: 'SCHEMA_PROPERTY_NAMES',
  dependencies: 'SCHEMA_DEPENDENCIES',
  anyOf: 'SCHEMA_ANY_OF',
  oneOf: 'SCHEMA_ONE_OF',
  not: 'SCHEMA_NOT',
  if: 'SCHEMA_IF',
  'false schema': 'SCHEMA_FALSE',
};

const HINTS: Readonly<Record<string, string>> = {
  '^[a-f0-9]{64}$': '64 lowercase hex characters (a SHA-256 digest)',
  '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?Z$':
    'an RFC 3339 UTC timestamp such as 2026-11-30T05:53:08.000Z (upper-case T and Z, no offset)',
};

const FORMAT_HINTS: Readonly<Record<string, string>> = {
  'date-time':
    'a real RFC 3339 UTC date-time such as 2026-11-30T05:53:08.000Z (a day that exists, hours 00-23)',
  date: 'a real calendar date YYYY-MM-DD',
  uuid: 'a UUID in its 36-character hyphenated form',
};

function str(v: unknown): string {
  return typeof v === 'string' ? v : describeValue(v);
}

function where(path: string): string {
  return path === '' ? 'the document' : path;
}

function message(e: StructuralError, contract: string, doc: unknown): string {
  const p = e.params;
  const at = where(e.instancePath);
  const value = () => describeValue(resolvePointer(doc, e.instancePath).value);
  switch (e.keyword) {
    case 'required':
      return `${at} is missing required property "${str(p.missingProperty)}"; add it (${contract} requires it).`;
    case 'additionalProperties':
      return `${at} has property "${str(p.additionalProperty)}", which ${contract} does not define; remove it (contract objects are closed).`;
    case 'type':
      return `${at} is ${value()} but must be of type ${str(p.type)}; change its type.`;
    case 'const':
      return `${at} is ${value()} but must be exactly ${describeValue(p.allowedValue)}.`;
    case 'enum': {
      const allowed = Array.isArray(p.allowedValues) ? p.allowedValues.map(describeValue).join(', ') : '?';
      return `${at} is ${value()} but must be one of ${allowed}.`;
    }
    case 'pattern': {
      const pattern = str(p.pattern);
      const hint = HINTS[pattern];
      return `${at} is ${value()}, which does not match ${pattern}; use ${hint ?? 'a string matching that pattern'}.`;
    }
    case 'format': {
      const format = str(p.format);
      return `${at} is ${value()}, which is not a valid ${format}; use ${FORMAT_HINTS[format] ?? `a valid ${format}`}.`;
    }
    case 'minLength':
    case 'maxLength':
      return `${at} must have ${e.keyword === 'minLength' ? 'at least' : 'at most'} ${str(p.limit)} characters (code points); it is ${value()}.`;
    case 'minItems':
    case 'maxItems':
      return `${at} must have ${e.keyword === 'minItems' ? 'at least' : 'at most'} ${str(p.limit)} items.`;
    case 'minProperties':
    case 'maxProperties':
      return `${at} must have ${e.keyword === 'minProperties' ? 'at least' : 'at most'} ${str(p.limit)} properties.`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${at} is ${value()} but must be ${str(p.comparison)} ${str(p.limit)}.`;
    case 'multipleOf':
      return `${at} is ${value()} but must be a multiple of ${str(p.multipleOf)}.`;
    case 'uniqueItems':
      return `${at} has equal items at indexes ${str(p.j)} and ${str(p.i)}; remove the duplicate.`;
    default:
      return `${at} fails the "${e.keyword}" rule of ${contract} (${e.schemaPath}).`;
  }
}

/** Convert the generated validator's errors to issues, in the order ajv found them. */
export function structuralIssues(
  errors: readonly StructuralError[],
  contract: string,
  schemaId: string,
  doc: unknown,
): Issue[] {
  return errors.map((e) => ({
    code: KEYWORD_CODES[e.keyword] ?? 'SCHEMA_OTHER',
    path: e.instancePath,
    message: message(e, contract, doc),
    rule: e.schemaPath.startsWith('#') ? schemaId + e.schemaPath : e.schemaPath,
    severity: 'error',
  }));
}
