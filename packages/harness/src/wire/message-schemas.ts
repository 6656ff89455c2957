// The check of one protocol message against its published schema (schemas/protocol/, embedded in
// @agent-contracts/protocol as PROTOCOL_SCHEMAS), with the contract schemas its `$ref`s name.
// The checks are compiled ahead of time (src/generated/message-validators.generated.ts, written by
// `pnpm harness:schemas` with ajv standalone and checked in CI), so a run compiles nothing.
// docs/spec/decisions.md D-GEN-30.
import type { MessageTypeName } from '@agent-contracts/protocol';
import { MESSAGE_VALIDATORS } from '../generated/message-validators.generated.js';

/** One error of a generated check (ajv's error object, the members this module reads). */
export interface MessageError {
  readonly keyword: string;
  readonly instancePath: string;
  readonly params: Record<string, unknown>;
  readonly message?: string;
}

/** A generated check: true when the value is valid, else false with its `errors`. */
export interface MessageValidator {
  (value: unknown): boolean;
  errors?: readonly MessageError[] | null;
}

/** Where a message breaks its schema: the first violation, at its most specific place. */
export interface SchemaViolation {
  /**
   * The message type whose schema is broken (`StoreCommitResult`:
   * schemas/protocol/StoreCommitResult.schema.json), or `JsonRpcError` for an error object that is
   * not `{ code: integer, message: string, data? }`.
   */
  readonly schema: MessageTypeName | 'JsonRpcError';
  /**
   * JSON Pointer into the message of the value that breaks it; for a missing or an extra member,
   * the pointer of that member.
   */
  readonly pointer: string;
  /** The JSON Schema keyword it breaks (`type`, `additionalProperties`, `required`, `const`, ...). */
  readonly keyword: string;
  /** What the keyword asks for, for people (`must be integer`). */
  readonly message: string;
}

function validatorOf(name: MessageTypeName): MessageValidator {
  const validate = MESSAGE_VALIDATORS[name];
  if (!validate) throw new Error(`no protocol schema ${name}`);
  return validate;
}

/** A member name as a JSON Pointer token (RFC 6901). */
export const pointerToken = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** The pointer an error names: its instance, or the member it says is missing or extra. */
function pointerOf(e: MessageError): string {
  const member =
    e.keyword === 'required'
      ? (e.params as { missingProperty?: string }).missingProperty
      : e.keyword === 'additionalProperties'
        ? (e.params as { additionalProperty?: string }).additionalProperty
        : undefined;
  return member === undefined ? e.instancePath : `${e.instancePath}/${pointerToken(member)}`;
}

const depth = (pointer: string) => (pointer === '' ? 0 : pointer.split('/').length - 1);

/**
 * The error to report: the deepest one that is not only the summary of a union (`anyOf`,
 * `oneOf`), the first of those at equal depth. Of the branches of a union, the one that got
 * deepest into the value is the one the message meant (a receipt with a wrong field breaks the
 * receipt branch deep inside, and the `null` branch only at the receipt itself).
 */
function mostSpecific(errors: readonly MessageError[]): MessageError {
  const concrete = errors.filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf');
  const pool = concrete.length ? concrete : errors;
  let best = pool[0]!;
  for (const e of pool) if (depth(pointerOf(e)) > depth(pointerOf(best))) best = e;
  return best;
}

/**
 * Check a message against the schema of its type: null when it is valid, else where and how it
 * breaks it, with the pointer prefixed by `at` (`/result`, `/error/data`, `/params`).
 *
 * @example
 * checkMessage('StoreCommitResult', { ok: true }, '/result')?.pointer === '/result/fence';
 */
export function checkMessage(name: MessageTypeName, value: unknown, at = ''): SchemaViolation | null {
  const validate = validatorOf(name);
  if (validate(value)) return null;
  const e = mostSpecific(validate.errors ?? []);
  return {
    schema: name,
    pointer: `${at}${pointerOf(e)}`,
    keyword: e.keyword,
    message: e.message ?? e.keyword,
  };
}

/** One line naming a violation: `StoreCommitResult at /result/fence: required (must have ...)`. */
export function describeViolation(v: SchemaViolation): string {
  return `${v.schema} at ${v.pointer || '(the message)'}: ${v.keyword} (${v.message})`;
}
