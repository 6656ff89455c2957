// @module-tag unit
// Every request the harness sends is checked against its method's params schema
// (docs/protocol.md#every-message-is-checked): a request of the kit's own that breaks it is a
// defect of the kit, reported as `harness-error` with the case id, never sent and never charged to
// the implementation; a request sent against the schema on purpose says where it breaks it.
import {
  type InProcessAdapter,
  InternalError,
  InvalidParams,
  MethodNotFound,
  Refusal,
  toJsonRpcError,
} from '@agent-contracts/protocol';
import { describe, expect, it } from 'vitest';
import {
  type Case,
  checkRequest,
  HarnessDefect,
  judgeReport,
  judgeRun,
  POINTER_CHARS,
  parseReport,
  readReply,
  runCase,
  startInProcess,
} from '../src/index.ts';
import { CONFORMANCE } from './faults-helpers.ts';
import { caseLine, jsonl, runLine, summaryLine } from './report-lines.ts';

/** An implementation of `digest` alone that records what reached it. */
function digestOnly() {
  const seen: unknown[] = [];
  const adapter: InProcessAdapter = {
    async handle(method, params) {
      if (method === 'hello')
        return {
          name: 'digest-only',
          version: '1',
          language: 'typescript',
          protocolVersion: 1,
          capabilities: {
            contracts: [],
            bundles: [],
            digest: true,
            store: false,
            liveness: false,
            checkpoint: false,
            trace: false,
            clock: false,
            crashPoints: [],
          },
        };
      seen.push(params);
      const json = (params as { json?: unknown }).json;
      if (typeof json !== 'string') throw new Refusal('DIGEST_INPUT_INVALID', '"json" must be a string');
      return { canonical: json, sha256: 'a'.repeat(64) };
    },
  };
  return { adapter, seen };
}

const digestCase = (steps: Case['steps']): Case => ({
  id: 'kit/digest/malformed-request',
  title: 'a case of the kit',
  gate: 'Digests',
  subject: 'jcs',
  spec: 'docs/spec/index.md#gates',
  requirements: ['GEN-005'],
  level: 'MUST',
  requires: ['digest'],
  steps,
});

async function run(c: Case) {
  const { adapter, seen } = digestOnly();
  const impl = await startInProcess(adapter, null);
  const r = await runCase(impl, c, { conformanceDir: CONFORMANCE, timeoutMs: 1_000 });
  return { r, seen };
}

describe('a request of the harness that breaks its own schema', () => {
  it('is a harness-error with the case id, the pointer and the keyword, and is never sent', async () => {
    const { r, seen } = await run(
      digestCase([{ method: 'digest', params: { json: 5 }, expect: { result: {} } }]),
    );
    expect(r.outcome).toBe('harness-error');
    expect(r.id).toBe('kit/digest/malformed-request');
    expect(r.detail).toBe(
      "step 1 (digest): HARNESS_REQUEST_INVALID: the harness's own digest request breaks its schema: DigestParams at /json: type (must be string). This is a defect of the conformance kit (agent-contracts), not of the implementation under test; please report it",
    );
    expect(seen).toEqual([]);
  });

  it('outweighs a failure the implementation already had in the case', async () => {
    const { r } = await run(
      digestCase([
        { method: 'digest', params: { json: '1' }, expect: { result: { canonical: '2' } } },
        { method: 'digest', params: { json: '1', extra: true }, expect: { result: {} } },
      ]),
    );
    expect(r.outcome).toBe('harness-error');
    expect(r.detail).toMatch(
      /^step 2 \(digest\): HARNESS_REQUEST_INVALID: .* DigestParams at \/extra: additionalProperties/,
    );
  });

  it('a method protocol v1 does not have is a harness-error too', async () => {
    const { r, seen } = await run(
      digestCase([{ method: 'digest.teleport', params: {}, expect: { result: {} } }]),
    );
    expect(r.outcome).toBe('harness-error');
    expect(r.detail).toContain('the harness sent digest.teleport, which protocol v1 does not have');
    expect(seen).toEqual([]);
  });
});

describe('a request sent against its schema on purpose', () => {
  it('is sent when it breaks the schema exactly where the case says, and judged as usual', async () => {
    const { r, seen } = await run(
      digestCase([
        {
          method: 'digest',
          params: { json: 5 },
          malformed: { pointer: '/json', keyword: 'type' },
          expect: { error: 'DIGEST_INPUT_INVALID' },
        },
      ]),
    );
    expect(r.outcome, r.detail).toBe('pass');
    expect(seen).toEqual([{ json: 5 }]);
  });

  it('is a harness-error when it is valid after all, or breaks the schema elsewhere', async () => {
    const valid = await run(
      digestCase([
        {
          method: 'digest',
          params: { json: '5' },
          malformed: { pointer: '/json', keyword: 'type' },
          expect: { error: 'DIGEST_INPUT_INVALID' },
        },
      ]),
    );
    expect(valid.r.outcome).toBe('harness-error');
    expect(valid.r.detail).toContain('is declared malformed (DigestParams at /json: type) but is valid');
    const elsewhere = await run(
      digestCase([
        {
          method: 'digest',
          params: {},
          malformed: { pointer: '/json', keyword: 'type' },
          expect: { error: 'DIGEST_INPUT_INVALID' },
        },
      ]),
    );
    expect(elsewhere.r.outcome).toBe('harness-error');
    expect(elsewhere.r.detail).toContain('breaks its schema elsewhere: DigestParams at /json: required');
    expect(elsewhere.seen).toEqual([]);
  });

  it('checkRequest throws HarnessDefect, and omitted params are checked as {}', () => {
    expect(() => checkRequest('digest', { json: 1 })).toThrow(HarnessDefect);
    expect(() => checkRequest('liveness.state', undefined)).not.toThrow();
    expect(() => checkRequest('digest', undefined)).toThrow(/DigestParams at \/json: required/);
  });
});

describe('a harness-error never passes and never conforms', () => {
  it('makes the run not conform, and no baseline can expect it away', () => {
    const results = [caseLine('a', 'pass'), caseLine('b', 'harness-error')];
    const baseline = { expectedFailures: [{ id: 'b', reason: 'known' }] };
    const v = judgeRun(results, baseline);
    expect(v.conforms).toBe(false);
    expect(v.harnessErrors).toEqual(['b']);
    expect(v.unexpectedFailures).toEqual([]);
  });

  it('a report whose summary claims conformance over a harness-error does not conform', () => {
    const cases = [caseLine('a', 'pass'), caseLine('b', 'harness-error')];
    const j = judgeReport(parseReport(jsonl([runLine(), ...cases, summaryLine(cases, { conforms: true })])));
    expect(j.verdict).toBe('does-not-conform');
    expect(j.disagreements).toContain(
      'the summary claims the run conforms, but case lines end as harness-error',
    );
  });
});

describe('a violation an implementation names', () => {
  it('is bounded: an extra member with a huge name gives a pointer of at most POINTER_CHARS', () => {
    const name = 'k'.repeat(2_000_000);
    const reply = readReply('digest', { result: { canonical: '1', sha256: 'a'.repeat(64), [name]: 1 } });
    if (!('invalid' in reply)) throw new Error('expected an invalid reply');
    expect(reply.invalid.keyword).toBe('additionalProperties');
    expect(reply.invalid.pointer.length).toBe(POINTER_CHARS);
    expect(reply.invalid.pointer.startsWith('/result/kkk')).toBe(true);
    expect(reply.invalid.actual).toBe(1);
  });
});

describe('what an in-process adapter throws', () => {
  const hello = (params: unknown) => digestOnly().adapter.handle('hello', params);
  const throwing = (error: unknown): InProcessAdapter => ({
    handle: async (method, params) => {
      if (method === 'hello') return hello(params);
      throw error;
    },
  });

  it('is the JSON-RPC error a stdio server writes for it (toJsonRpcError), never a crash', async () => {
    for (const error of [
      new Refusal('DIGEST_INPUT_INVALID', 'not JSON', { path: '/k' }),
      new InvalidParams('params.json must be JSON text'),
      new MethodNotFound('digest is not implemented'),
      new InternalError('the engine answered a document that breaks its contract'),
      new TypeError('x is undefined'),
    ]) {
      const impl = await startInProcess(throwing(error), null);
      expect(await impl.call('digest', { json: '1' })).toEqual({
        error: toJsonRpcError(error),
        refusal: error instanceof Refusal ? error.code : null,
      });
    }
  });
});
