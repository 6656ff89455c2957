// The check of one protocol message against its published schema (schemas/protocol/, embedded in
// @agent-contracts/protocol as PROTOCOL_SCHEMAS), with the contract schemas its `$ref`s name.
// The check of the first violation, which every message gets, is compiled ahead of time
// (src/generated/message-validators.generated.ts, written by `pnpm harness:schemas` with ajv
// standalone and checked in CI), so a run compiles nothing for it. The check of all violations,
// needed only once a reply breaks its schema, is compiled then, once per process.
// docs/spec/decisions.md D-GEN-30.
import { type MessageTypeName, PROTOCOL_SCHEMAS, protocolSchemaId } from '@agent-contracts/protocol';
import { allSchemas } from '@agent-contracts/schemas';
import { FORMATS } from '@agent-contracts/validators/schema-runtime';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { MESSAGE_VALIDATORS } from '../generated/message-validators.generated.js';

/** A check of a message: true when the value is valid, else false with ajv's `errors`. */
export interface MessageValidator {
  (value: unknown): boolean;
  errors?: ErrorObject[] | null;
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

/** The checker of all violations, built on first use. */
const all: { ajv: Ajv | null; compiled: Map<MessageTypeName, ValidateFunction> } = {
  ajv: null,
  compiled: new Map(),
};

function validatorOf(name: MessageTypeName, which: 'first' | 'all' = 'first'): MessageValidator {
  if (which === 'first') {
    const validate = MESSAGE_VALIDATORS[name];
    if (!validate) throw new Error(`no protocol schema ${name}`);
    return validate;
  }
  let validate = all.compiled.get(name);
  if (validate) return validate;
  if (!all.ajv) {
    // A contract schema several messages refer to is compiled once and called (inlineRefs: false),
    // and the code is not optimised: compiling every schema costs about a third of the default
    // (measured for D-GEN-30), and the checks answer the same.
    const ajv = new Ajv({
      strict: true,
      allowUnionTypes: true,
      allErrors: true,
      inlineRefs: false,
      code: { optimize: false },
      formats: { ...FORMATS },
    });
    for (const schema of allSchemas().values()) ajv.addSchema(schema as object);
    for (const schema of Object.values(PROTOCOL_SCHEMAS)) ajv.addSchema(schema as object);
    all.ajv = ajv;
  }
  validate = all.ajv.getSchema(protocolSchemaId(name));
  if (!validate) throw new Error(`no protocol schema ${name}`);
  all.compiled.set(name, validate);
  return validate;
}

/** A member name as a JSON Pointer token (RFC 6901). */
export const pointerToken = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** The pointer an error names: its instance, or the member it says is missing or extra. */
function pointerOf(e: ErrorObject): string {
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
function mostSpecific(errors: readonly ErrorObject[]): ErrorObject {
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

const isUnion = (e: ErrorObject) => e.keyword === 'anyOf' || e.keyword === 'oneOf';

const under = (pointer: string, at: string) => pointer === at || pointer.startsWith(`${at}/`);

/**
 * The errors of an all-errors check without the branches of a union the value was not meant for.
 * Of a failed `anyOf`/`oneOf` at a pointer, the errors of its branches precede it (ajv evaluates
 * each branch and keeps their errors when none passed); the branch that got deepest into the value
 * is the one the message meant, as for the first violation, and only its errors are kept. An
 * error is of branch `k` when its schema path runs through the union's `k`th branch; an error of a
 * schema a branch refers to (`$ref`, compiled apart) belongs to the branch of the error before it.
 */
function withoutOtherBranches(errors: readonly ErrorObject[]): ErrorObject[] {
  const kept: ErrorObject[] = [];
  for (const e of errors) {
    if (!isUnion(e)) {
      kept.push(e);
      continue;
    }
    const at = e.instancePath;
    const first = kept.findIndex((k) => under(pointerOf(k), at));
    if (first === -1) {
      kept.push(e); // a union no branch of which left an error (oneOf: more than one passed)
      continue;
    }
    const candidates = kept.slice(first).filter((k) => under(pointerOf(k), at));
    const branchOf = new Map<ErrorObject, number>();
    let current = 0;
    for (const k of candidates) {
      const m = k.schemaPath.startsWith(`${e.schemaPath}/`)
        ? /^(\d+)/.exec(k.schemaPath.slice(e.schemaPath.length + 1))
        : null;
      if (m) current = Number(m[1]);
      branchOf.set(k, current);
    }
    const reach = new Map<number, number>();
    for (const [k, b] of branchOf) reach.set(b, Math.max(reach.get(b) ?? -1, depth(pointerOf(k))));
    let best = -1;
    let bestDepth = -1;
    for (const [b, d] of [...reach].sort((x, y) => x[0] - y[0]))
      if (d > bestDepth) {
        best = b;
        bestDepth = d;
      }
    const drop = new Set(candidates.filter((k) => branchOf.get(k) !== best));
    const rest = kept.filter((k) => !drop.has(k));
    kept.length = 0;
    kept.push(...rest);
  }
  return kept;
}

/**
 * Every violation of a message against the schema of its type (empty when it is valid), each at
 * its most specific place (a missing or extra member at its own pointer), of a union only the
 * branch the value got deepest into, each pointer and keyword once, in the order the check meets
 * them; pointers prefixed by `at`.
 *
 * @example
 * checkMessageAll('StoreCommitResult', {}, '/result').map((v) => v.pointer); // ['/result/ok', '/result/status', ...]
 */
export function checkMessageAll(name: MessageTypeName, value: unknown, at = ''): SchemaViolation[] {
  const validate = validatorOf(name, 'all');
  if (validate(value)) return [];
  const seen = new Set<string>();
  const out: SchemaViolation[] = [];
  for (const e of withoutOtherBranches(validate.errors ?? [])) {
    const pointer = `${at}${pointerOf(e)}`;
    const key = `${pointer}\u0000${e.keyword}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ schema: name, pointer, keyword: e.keyword, message: e.message ?? e.keyword });
  }
  return out;
}

/** One line naming a violation: `StoreCommitResult at /result/fence: required (must have ...)`. */
export function describeViolation(v: SchemaViolation): string {
  return `${v.schema} at ${v.pointer || '(the message)'}: ${v.keyword} (${v.message})`;
}
