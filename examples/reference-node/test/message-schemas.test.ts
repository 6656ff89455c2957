// The reference implementation's replies are the messages schemas/protocol/ describes: every
// result and every refusal's `data` it gives over the golden cases is valid against the schemas
// METHODS names for its method (so the published schemas are not an aspiration).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadCases, runSuite, startInProcess } from '@agent-contracts/harness';
import {
  type InProcessAdapter,
  MESSAGE_TYPES,
  METHODS,
  ProtocolRefusal,
  protocolSchemaId,
} from '@agent-contracts/protocol';
import { allSchemas } from '@agent-contracts/schemas';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { createHandler } from '../src/handler.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const conformanceDir = fileURLToPath(new URL('../../../conformance/', import.meta.url));
const schemaDir = new URL('../../../schemas/protocol/', import.meta.url);

function validators(): (type: string) => ValidateFunction {
  const ajv = new Ajv({ strict: true, allErrors: false, allowUnionTypes: true });
  addFormats(ajv);
  for (const s of allSchemas().values()) ajv.addSchema(s as object);
  for (const t of MESSAGE_TYPES)
    ajv.addSchema(JSON.parse(readFileSync(new URL(`${t}.schema.json`, schemaDir), 'utf8')));
  return (type) => ajv.getSchema(protocolSchemaId(type as (typeof MESSAGE_TYPES)[number]))!;
}

/** The handler, with every reply checked against its method's schemas. */
function checked(inner: InProcessAdapter, problems: string[], seen: Set<string>): InProcessAdapter {
  const schema = validators();
  const entry = (method: string) => METHODS.find((m) => m.method === method);
  return {
    ...inner,
    async handle(method, params) {
      const m = entry(method);
      try {
        const result = await inner.handle(method, params);
        seen.add(method);
        const v = m && schema(m.result);
        if (!m) problems.push(`${method}: a result for a method METHODS does not name`);
        else if (!v!(result)) problems.push(`${method} result: ${JSON.stringify(v!.errors?.[0])}`);
        return result;
      } catch (e) {
        if (e instanceof ProtocolRefusal && m) {
          seen.add(`${method} refusal`);
          const data = { ...e.data, code: e.code };
          if (!m.errors.some((t) => schema(t)(data)))
            problems.push(
              `${method} refusal ${e.code}: data ${JSON.stringify(Object.keys(data))} matches none of ${m.errors.join(', ') || 'no schema'}`,
            );
        }
        throw e;
      }
    },
  };
}

describe('reference-node replies against schemas/protocol', () => {
  it('every result and refusal of the golden cases is valid against its method schemas', async () => {
    const problems: string[] = [];
    const seen = new Set<string>();
    const impl = await startInProcess(checked(createHandler(), problems, seen), null);
    const cases = loadCases(conformanceDir);
    await runSuite(impl, cases, { conformanceDir, timeoutMs: 10_000, restartBudget: 0 });
    await impl.close();
    expect([...new Set(problems)]).toEqual([]);
    // The cases reach every method the in-process handler has (it has no crash points) and refusals.
    const expected = METHODS.map((m) => m.method).filter((m) => m !== 'crash.arm' && m !== 'shutdown');
    expect(expected.filter((m) => !seen.has(m))).toEqual([]);
    expect([...seen].filter((s) => s.endsWith(' refusal')).length).toBeGreaterThan(10);
  });

  it('the check sees a reply that breaks its schema', async () => {
    const problems: string[] = [];
    const fake: InProcessAdapter = {
      async handle(method) {
        if (method === 'digest') return { canonical: '1', sha256: 'ab', extra: true };
        if (method === 'store.read')
          throw new ProtocolRefusal('LIFECYCLE_STATE_UNAVAILABLE', 'x', { ok: 'no' });
        return null;
      },
    };
    const h = checked(fake, problems, new Set());
    await h.handle('digest', { json: '1' });
    await expect(h.handle('store.read', {})).rejects.toThrow('x');
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^digest result: .*additionalProperties/);
    expect(problems[1]).toMatch(/^store.read refusal LIFECYCLE_STATE_UNAVAILABLE/);
  });
});
