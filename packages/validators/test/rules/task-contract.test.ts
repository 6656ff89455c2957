// @module-tag unit
// The TaskContractGate rules beyond one fixture per code: the embedded-schema bound at its edges,
// the next-step table, the set reading of allowed side effects (D-TTC-02), the local-write
// exemption of the retry rule (D-TTC-05) and the idempotency key's place in the input schema.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalize } from '@agent-contracts/digest';
import {
  computeContractDigest,
  computeTaskId,
  computeToolContractId,
  type TaskContractV1,
  type ToolContractV1,
} from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import {
  EMBEDDED_SCHEMA_MAX_BYTES,
  EMBEDDED_SCHEMA_MAX_DEPTH,
  embeddedSchemaExcess,
  TOOL_NEXT_STEPS,
  validate,
} from '../../src/index.ts';
import { repoRoot } from '../helpers.ts';

const load = <T>(contract: string, name: string): T =>
  JSON.parse(
    readFileSync(join(repoRoot, 'conformance/fixtures', contract, 'valid', `${name}.json`), 'utf8'),
  ) as T;

function tool(name: string, edit: (t: ToolContractV1) => void): ToolContractV1 {
  const t = load<ToolContractV1>('ToolContractV1', name);
  edit(t);
  t.toolContractId = computeToolContractId(t);
  t.contractDigest = computeContractDigest(t);
  return t;
}

function task(name: string, edit: (t: TaskContractV1) => void): TaskContractV1 {
  const t = load<TaskContractV1>('TaskContractV1', name);
  edit(t);
  t.taskId = computeTaskId(t);
  t.contractDigest = computeContractDigest(t);
  return t;
}

const codes = (doc: unknown): string[] => {
  const r = validate(doc);
  return r.ok ? [] : r.issues.map((i) => `${i.code} ${i.path}`);
};

/** A schema whose RFC 8785 form is exactly `bytes` long: `{"description":"xxx…"}`. */
const schemaOfBytes = (bytes: number) => ({ description: 'x'.repeat(bytes - '{"description":""}'.length) });

/** A schema nested `depth` levels deep (the schema object is level 1). */
function schemaOfDepth(depth: number): Record<string, unknown> {
  let s: Record<string, unknown> = { type: 'string' };
  for (let level = 1; level < depth; level++) s = { not: s };
  return s;
}

describe('embedded schema bound', () => {
  it('accepts a schema of exactly the byte limit and refuses one byte more', () => {
    expect(new TextEncoder().encode(canonicalize(schemaOfBytes(EMBEDDED_SCHEMA_MAX_BYTES))).length).toBe(
      EMBEDDED_SCHEMA_MAX_BYTES,
    );
    expect(embeddedSchemaExcess(schemaOfBytes(EMBEDDED_SCHEMA_MAX_BYTES))).toBeNull();
    expect(embeddedSchemaExcess(schemaOfBytes(EMBEDDED_SCHEMA_MAX_BYTES + 1))).toMatch(/16385 bytes/);
  });

  it('counts UTF-8 bytes, not characters', () => {
    const chars = EMBEDDED_SCHEMA_MAX_BYTES - '{"description":""}'.length;
    expect(embeddedSchemaExcess({ description: 'é'.repeat(chars / 2) })).toBeNull();
    expect(embeddedSchemaExcess({ description: 'é'.repeat(chars / 2 + 1) })).not.toBeNull();
  });

  it('accepts the depth limit and refuses one level more, arrays included', () => {
    expect(embeddedSchemaExcess(schemaOfDepth(EMBEDDED_SCHEMA_MAX_DEPTH))).toBeNull();
    expect(embeddedSchemaExcess(schemaOfDepth(EMBEDDED_SCHEMA_MAX_DEPTH + 1))).toMatch(/16 levels/);
    expect(embeddedSchemaExcess({ anyOf: [schemaOfDepth(EMBEDDED_SCHEMA_MAX_DEPTH - 2)] })).toBeNull();
    expect(embeddedSchemaExcess({ anyOf: [schemaOfDepth(EMBEDDED_SCHEMA_MAX_DEPTH - 1)] })).not.toBeNull();
  });

  it('reports an output schema over the limit at /outputSchema', () => {
    const t = tool('read-file', (d) => {
      d.outputSchema = schemaOfDepth(40);
    });
    expect(codes(t)).toEqual(['TOOL_CONTRACT_SCHEMA_TOO_LARGE /outputSchema']);
  });
});

describe('next steps of each error class', () => {
  it('never lets an unknown outcome be retried blindly or ended without reconciling', () => {
    expect(TOOL_NEXT_STEPS['unknown-outcome']).not.toContain('retry-with-backoff');
    expect(TOOL_NEXT_STEPS['unknown-outcome']).not.toContain('fail');
    expect(TOOL_NEXT_STEPS.permanent).not.toContain('retry-with-backoff');
    expect(TOOL_NEXT_STEPS['business-rejection']).not.toContain('retry-with-backoff');
  });

  it('refuses query-then-retry for a transient error (nothing happened, nothing to query)', () => {
    const t = tool('create-pull-request', (d) => {
      d.errors[1]!.nextStep = 'query-then-retry';
    });
    expect(codes(t)).toEqual(['TOOL_CONTRACT_NEXT_STEP_NOT_ALLOWED /errors/1/nextStep']);
  });

  it('needs the compensation route for a compensate step', () => {
    const t = tool('send-payment', (d) => {
      d.effectRoutes.compensationTool = null;
    });
    expect(codes(t)).toEqual(['TOOL_CONTRACT_NEXT_STEP_ROUTE_MISSING /errors/3/nextStep']);
  });
});

describe('side effects, retries and keys', () => {
  it('reads allowed side effects as a set: external-write allowed does not allow local-write', () => {
    const t = task('open-fix-pull-request', (d) => {
      d.constraints.tools.push({
        toolName: 'write_file',
        sideEffectLevel: 'local-write',
        toolContractDigest: 'a'.repeat(64),
      });
    });
    expect(codes(t)).toEqual([
      'TASK_CONTRACT_TOOL_SIDE_EFFECT_NOT_ALLOWED /constraints/tools/2/sideEffectLevel',
    ]);
  });

  it('lets a local-write tool be retried without a key, but not an external-write one', () => {
    const local = tool('write-file', (d) => {
      d.retry = { retryable: true, maxAttempts: 2, initialBackoffMs: 100 };
    });
    expect(codes(local)).toEqual([]);
  });

  it('needs the key field both declared and required by the input schema', () => {
    const t = tool('create-pull-request', (d) => {
      d.inputSchema.required = (d.inputSchema.required as string[]).filter((k) => k !== 'requestId');
    });
    expect(codes(t)).toEqual(['TOOL_CONTRACT_IDEMPOTENCY_KEY_INVALID /idempotency/keyField']);
    const none = tool('read-file', (d) => {
      d.idempotency.keyField = 'path';
    });
    expect(codes(none)).toEqual(['TOOL_CONTRACT_IDEMPOTENCY_KEY_INVALID /idempotency/keyField']);
  });

  it('accepts a task without tools and without a tool-call budget', () => {
    const t = task('draft-release-notes', (d) => {
      d.constraints.tools = [];
      d.constraints.budget.maxToolCalls = 0;
    });
    expect(codes(t)).toEqual([]);
  });
});

describe('criteria', () => {
  it('needs the digest of a digest-equals predicate and the pattern of a matches one', () => {
    const t = task('open-fix-pull-request', (d) => {
      d.completionCriteria[1]!.digest = null;
    });
    expect(codes(t)).toEqual(['TASK_CONTRACT_CRITERION_NOT_CHECKABLE /completionCriteria/1/digest']);
  });

  it('reports a pattern on an exists predicate as stray', () => {
    const t = task('fix-login-redirect', (d) => {
      d.completionCriteria[0]!.pattern = 'describe\\(';
    });
    expect(codes(t)).toEqual(['TASK_CONTRACT_CRITERION_MEMBER_STRAY /completionCriteria/0/pattern']);
  });
});
