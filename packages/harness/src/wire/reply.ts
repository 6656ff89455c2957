// The one reader of a reply (docs/protocol.md#every-message-is-checked): the golden-case runner and
// the fault client both get a reply through it, before anything looks at what it says. A result
// is checked against the method's result schema; an error is a JSON-RPC error object, and a
// refusal (-32000) has `data` of one of the method's refusal schemas. A reply that breaks its
// schema is a value too (`invalid`): it fails the step, charged to the implementation, however
// well the members a case compares happen to match. docs/spec/decisions.md D-GEN-30.
import { type JsonRpcError, methodEntry, rpcFailureMessage, SPEC_ERROR } from '@agent-contracts/protocol';
import { pointerGet } from '../cases.js';
import { HarnessError } from '../errors.js';
import { truncated } from '../text.js';
import {
  checkMessage,
  checkMessageAll,
  describeViolation,
  pointerToken,
  type SchemaViolation,
} from './message-schemas.js';

/** A reply as the transport read it off the wire: exactly one of `result` and `error`. */
export type RawReply = { readonly result: unknown } | { readonly error: unknown };

/** A reply after its check: a result, an error object, or how it breaks its schema. */
export type Reply =
  | { readonly result: unknown }
  /** A well-formed JSON-RPC error; `refusal` is the spec's code of a -32000 refusal, else null. */
  | { readonly error: JsonRpcError; readonly refusal: string | null }
  /**
   * A reply that breaks the method's schema; `raw` is what was sent. `invalid` is the first
   * violation the check meets, at its most specific place; `violations` is every one (the first
   * among them), as `checkMessageAll` finds them (absent: only the first is known).
   */
  | {
      readonly invalid: ReplyViolation;
      readonly violations?: readonly ReplyViolation[];
      readonly raw: RawReply;
    };

/** How a reply breaks its schema, with the value found at the pointer. */
export interface ReplyViolation extends SchemaViolation {
  readonly method: string;
  /** The value at `pointer` in the JSON-RPC response (undefined for a missing member). */
  readonly actual: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** What is wrong with a JSON-RPC error object (`{ code: integer, message: string, data? }`), or null. */
function errorObjectProblem(error: unknown): Omit<SchemaViolation, 'schema'> | null {
  if (!isObject(error)) return { pointer: '/error', keyword: 'type', message: 'must be object' };
  if (!Object.hasOwn(error, 'code'))
    return { pointer: '/error/code', keyword: 'required', message: "must have required property 'code'" };
  if (!Number.isInteger(error.code))
    return { pointer: '/error/code', keyword: 'type', message: 'must be integer' };
  if (!Object.hasOwn(error, 'message'))
    return {
      pointer: '/error/message',
      keyword: 'required',
      message: "must have required property 'message'",
    };
  if (typeof error.message !== 'string')
    return { pointer: '/error/message', keyword: 'type', message: 'must be string' };
  const extra = Object.keys(error).find((k) => k !== 'code' && k !== 'message' && k !== 'data');
  if (extra !== undefined)
    return {
      pointer: `/error/${pointerToken(extra)}`,
      keyword: 'additionalProperties',
      message: 'must NOT have additional properties',
    };
  return null;
}

const depth = (pointer: string) => pointer.split('/').length;

/**
 * Longest pointer a violation names: its member names come from the implementation, and the case
 * line that carries it must stay far under the report's 1 MiB a line; a longer one is cut, with `…`.
 */
export const POINTER_CHARS = 1000;

/**
 * Check a reply to `method` against its schemas. A method protocol v1 does not have is never
 * sent (the request check refuses it first), so its replies cannot be read.
 *
 * @example
 * readReply('store.commitState', { result: { ok: false, code: 'X' } }); // { invalid: { pointer: '/result/ok', keyword: 'const', ... } }
 */
export function readReply(method: string, raw: RawReply): Reply {
  const entry = methodEntry(method);
  if (!entry) throw new Error(`no schema for the replies of ${method}: protocol v1 has no such method`);
  let violation: SchemaViolation | null;
  /** Every violation, for the layer that names them all (shape, D-GEN-30). */
  let all: () => SchemaViolation[];
  if ('result' in raw) {
    violation = checkMessage(entry.result, raw.result, '/result');
    all = () => checkMessageAll(entry.result, raw.result, '/result');
  } else {
    const problem = errorObjectProblem(raw.error);
    if (problem) {
      violation = { schema: 'JsonRpcError', ...problem };
      all = () => [violation!];
    } else {
      const error = raw.error as unknown as JsonRpcError;
      if (error.code !== SPEC_ERROR) return { error, refusal: null };
      // A refusal's data is one of the method's refusal shapes; of several that it breaks, the
      // one it got furthest into is named.
      const shapes = entry.errors.length ? entry.errors : (['ProtocolErrorData'] as const);
      violation = null;
      for (const shape of shapes) {
        const v = checkMessage(shape, error.data, '/error/data');
        if (!v) return { error, refusal: (error.data as { code: string }).code };
        if (!violation || depth(v.pointer) > depth(violation.pointer)) violation = v;
      }
      const named = violation!.schema as (typeof shapes)[number];
      all = () => checkMessageAll(named, error.data, '/error/data');
    }
  }
  if (!violation) return raw as { result: unknown };
  const located = (v: SchemaViolation): ReplyViolation => ({
    method,
    ...v,
    pointer: truncated(v.pointer, POINTER_CHARS),
    actual: pointerGet(raw, v.pointer),
  });
  const first = located(violation);
  const others = all()
    .filter((v) => v.pointer !== violation!.pointer || v.keyword !== violation!.keyword)
    .map(located);
  return { invalid: first, violations: [first, ...others], raw };
}

/** The headline of a reply that breaks its schema. */
export function describeReplyViolation(v: ReplyViolation): string {
  return `the reply breaks its schema: ${describeViolation(v)}`;
}

/**
 * The result of a reply, for callers that treat anything else as a failure (the fault routines):
 * an error is thrown as `IMPL_RPC_ERROR` with the error object in `detail.error` and the one
 * message a failed request gets (`<method> failed: <message>`), a broken reply as
 * `IMPL_REPLY_INVALID` with the violation in `detail.violation`.
 */
export function resultOf(method: string, reply: Reply): unknown {
  if ('result' in reply) return reply.result;
  if ('error' in reply)
    throw new HarnessError('IMPL_RPC_ERROR', rpcFailureMessage(method, reply.error), {
      detail: { method, error: reply.error },
    });
  throw new HarnessError('IMPL_REPLY_INVALID', `${method}: ${describeReplyViolation(reply.invalid)}`, {
    detail: { method, violation: reply.invalid },
  });
}
