// @module-tag unit
// The ahead-of-time message checks (src/generated/message-validators.generated.ts) answer as the
// schemas compiled at run time did (ajv, the options of docs/spec/decisions.md D-GEN-30): the same
// verdict and the same violation (pointer, keyword, message) for the params of every golden case
// step, the results and refusal data the cases expect, and thousands of broken variants of them.
import { MESSAGE_TYPES, methodEntry, PROTOCOL_SCHEMAS, protocolSchemaId } from '@agent-contracts/protocol';
import { allSchemas } from '@agent-contracts/schemas';
import { FORMATS } from '@agent-contracts/validators';
import { Ajv, type ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import { checkMessage, loadCases, resolveRefs } from '../src/index.ts';
import { CONFORMANCE } from './faults-helpers.ts';

const ajv = new Ajv({
  strict: true,
  allowUnionTypes: true,
  allErrors: false,
  inlineRefs: false,
  code: { optimize: false },
  formats: { ...FORMATS },
});
for (const schema of allSchemas().values()) ajv.addSchema(schema as object);
for (const schema of Object.values(PROTOCOL_SCHEMAS)) ajv.addSchema(schema as object);

/** The answer of the run-time compiled schema, in the shape checkMessage gives. */
function compiled(name: (typeof MESSAGE_TYPES)[number], value: unknown) {
  const validate = ajv.getSchema(protocolSchemaId(name))!;
  if (validate(value)) return null;
  const errors = validate.errors as ErrorObject[];
  const pointerOf = (e: ErrorObject) => {
    const member =
      e.keyword === 'required'
        ? (e.params as { missingProperty: string }).missingProperty
        : e.keyword === 'additionalProperties'
          ? (e.params as { additionalProperty: string }).additionalProperty
          : undefined;
    return member === undefined
      ? e.instancePath
      : `${e.instancePath}/${member.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  };
  const depth = (p: string) => (p === '' ? 0 : p.split('/').length - 1);
  const concrete = errors.filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf');
  const pool = concrete.length ? concrete : errors;
  let best = pool[0]!;
  for (const e of pool) if (depth(pointerOf(e)) > depth(pointerOf(best))) best = e;
  return {
    schema: name,
    pointer: pointerOf(best),
    keyword: best.keyword,
    message: best.message ?? best.keyword,
  };
}

/** Broken variants of a value: each member removed, replaced by a wrong type, and one added. */
function* variants(value: unknown, depth = 0): Generator<unknown> {
  yield value;
  if (depth > 2 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    if (value.length) {
      yield [];
      for (const v of variants(value[0], depth + 1)) yield [v, ...value.slice(1)];
    }
    return;
  }
  const record = value as Record<string, unknown>;
  yield { ...record, unexpectedMember: 1 };
  for (const key of Object.keys(record)) {
    const { [key]: _gone, ...rest } = record;
    yield rest;
    for (const wrong of [null, 7, 'x', [], {}, true]) yield { ...record, [key]: wrong };
    for (const v of variants(record[key], depth + 1)) yield { ...record, [key]: v };
  }
}

describe('the ahead-of-time message checks', () => {
  it('cover every message type of the protocol', () => {
    for (const name of MESSAGE_TYPES) expect(() => checkMessage(name, {})).not.toThrow();
  });

  it('answer as the schemas compiled at run time, for every case step and its broken variants', () => {
    const seen: Array<[(typeof MESSAGE_TYPES)[number], unknown]> = [];
    const perMethod = new Map<string, number>();
    for (const c of loadCases(CONFORMANCE)) {
      for (const step of c.steps) {
        const entry = methodEntry(step.method);
        if (!entry) continue;
        seen.push([entry.params, resolveRefs(step.params ?? {}, CONFORMANCE)]);
        const e = step.expect as { result?: unknown; match?: unknown; data?: unknown };
        if (e.result !== undefined) seen.push([entry.result, e.result]);
        if (e.match !== undefined) seen.push([entry.result, e.match]);
        for (const refusal of entry.errors) if (e.data !== undefined) seen.push([refusal, e.data]);
      }
    }
    let checked = 0;
    let invalid = 0;
    for (const [name, value] of seen) {
      // Broken variants of a few values per message type keep the run short and still reach
      // every branch of each schema's first levels.
      const n = (perMethod.get(name) ?? 0) + 1;
      perMethod.set(name, n);
      for (const v of n <= 3 ? variants(value) : [value]) {
        const ours = checkMessage(name, v);
        expect(ours).toEqual(compiled(name, v));
        checked++;
        if (ours) invalid++;
      }
    }
    expect(checked).toBeGreaterThan(5000);
    expect(invalid).toBeGreaterThan(1000);
  });
});
