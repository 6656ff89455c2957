// @module-tag unit
// Whose fault a document that breaks its contract is: the caller's values beyond the contract's
// limits are -32602; an engine's own answer that breaks it is an InternalError (-32603), never
// blamed on the caller.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { InternalError, InvalidParams } from '@agent-contracts/protocol';
import { describe, expect, it } from 'vitest';
import { checkedAnswer } from '../src/answer.ts';
import { createHandler } from '../src/handler.ts';

const fixture = (name: string) =>
  JSON.parse(
    readFileSync(
      fileURLToPath(
        new URL(`../../../conformance/fixtures/PermissionDecisionV1/valid/${name}`, import.meta.url),
      ),
      'utf8',
    ),
  );
const decision = fixture('allowed-read.json');
const COMPUTED = { computed: ['/decisionId', '/decisionDigest', '/decidedAt', '/reasonCodes', '/decision'] };

/** A policy.decide request of the reference with `patch` over its context's approval and run id. */
function decide(approval: unknown, runId = 'run-1') {
  const h = createHandler();
  return h.handle('policy.decide', {
    runId,
    callId: 'call-1',
    tool: {
      toolName: 'repo.read_file',
      sideEffectLevel: 'read',
      requiresConfirmation: false,
      networkEgress: false,
    },
    resource: 'repo:/src/a.ts',
    action: 'read',
    context: {
      identity: { principal: 'agent:fixer', kind: 'agent' },
      taskScope: { taskRef: 'task-1', allowedTools: ['repo.read_file'], allowedResources: ['repo:/src/*'] },
      approval,
      grants: [],
    },
  });
}

describe('checkedAnswer', () => {
  it('passes a valid document through unchanged', () => {
    expect(checkedAnswer('policy.decide', decision, COMPUTED)).toBe(decision);
  });

  it("is an InternalError when the engine's answer breaks its contract", () => {
    const wrongDigest = { ...decision, decisionDigest: '0'.repeat(64) };
    expect(() => checkedAnswer('policy.decide', wrongDigest, COMPUTED)).toThrow(InternalError);
    const computedTooLong = { ...decision, decisionId: 'x' };
    expect(() => checkedAnswer('policy.decide', computedTooLong, COMPUTED)).toThrow(InternalError);
  });

  it('is InvalidParams when only values copied from the params break it', () => {
    const longRun = { ...decision, runId: 'r'.repeat(300) };
    expect(() => checkedAnswer('policy.decide', longRun, COMPUTED)).toThrow(InvalidParams);
  });
});

describe('policy.decide blames the caller only for what the caller sent', () => {
  it('an approval without its reference, or a run id over its limit, is -32602', async () => {
    await expect(decide({ state: 'granted', approvalRef: null })).rejects.toBeInstanceOf(InvalidParams);
    await expect(decide({ state: 'none', approvalRef: null }, 'r'.repeat(300))).rejects.toBeInstanceOf(
      InvalidParams,
    );
    await expect(decide({ state: 'none', approvalRef: null })).resolves.toMatchObject({ decision: 'deny' });
  });
});
