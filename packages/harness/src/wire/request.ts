// The check of every request the harness sends (docs/protocol.md#every-message-is-checked): its
// params against the method's params schema, before it is sent. A request that breaks it is the
// kit's defect, not the implementation's: it is not sent, and the case or scenario ends as
// `harness-error`. A case that sends a malformed request on purpose (D-GEN-10) says where it
// breaks the schema, and the request must break it exactly there. docs/spec/decisions.md D-GEN-30.
import { methodEntry } from '@agent-contracts/protocol';
import type { MalformedRequest } from '../cases.js';
import { HarnessDefect } from '../errors.js';
import { checkMessage, describeViolation, type SchemaViolation } from './message-schemas.js';

/**
 * Where the params of a request break the method's params schema (omitted params are checked as
 * `{}`), or null; undefined for a method protocol v1 does not have.
 */
export function paramsViolation(method: string, params: unknown): SchemaViolation | null | undefined {
  const entry = methodEntry(method);
  return entry ? checkMessage(entry.params, params === undefined ? {} : params) : undefined;
}

/**
 * Throws {@link HarnessDefect} unless the request is one protocol v1 allows: a known method whose
 * params (omitted params are checked as `{}`) are valid, or, with `malformed`, break the params
 * schema first at exactly that pointer (into the params) with that keyword.
 */
export function checkRequest(method: string, params: unknown, malformed?: MalformedRequest): void {
  const violation = paramsViolation(method, params);
  if (violation === undefined)
    throw new HarnessDefect(`the harness sent ${method}, which protocol v1 does not have`, method);
  const entry = methodEntry(method)!;
  if (!malformed) {
    if (violation)
      throw new HarnessDefect(
        `the harness's own ${method} request breaks its schema: ${describeViolation(violation)}`,
        method,
      );
    return;
  }
  const declared = `${entry.params} at ${malformed.pointer || '(the message)'}: ${malformed.keyword}`;
  if (!violation)
    throw new HarnessDefect(
      `the ${method} request is declared malformed (${declared}) but is valid against its schema`,
      method,
    );
  if (violation.pointer !== malformed.pointer || violation.keyword !== malformed.keyword)
    throw new HarnessDefect(
      `the ${method} request is declared malformed (${declared}) but breaks its schema elsewhere: ${describeViolation(violation)}`,
      method,
    );
}
