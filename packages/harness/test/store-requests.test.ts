// @module-tag unit
// The store requests the golden cases and exploration both build (src/explore/store-requests.ts):
// each is a well-formed request of protocol v1 (its params schema holds every member it names),
// and the captures of a read name the members a write's expected owner takes back.
import { describe, expect, it } from 'vitest';
import {
  CONFORMANCE_EVIDENCE,
  CONFORMANCE_PROJECT,
  capturedOwner,
  commitFence,
  operationBinding,
  ownerTransitionRequest,
  prepareEvent,
  STORE_OWNER_OPERATIONS,
  storeReadCapture,
  writeContextCapture,
  writeRequestBase,
} from '../src/explore/index.ts';
import { paramsViolation } from '../src/index.ts';

const H = 'a'.repeat(64);
const TASK = '0b7f3c2e-9d41-8a5b-9c3d-1e2f3a4b5c6d';
const OWNER = {
  ownerGeneration: 1,
  ownerNonce: 'n'.repeat(32),
  leaseRevision: 1,
  leaseDigest: H,
};
const base = writeRequestBase(TASK, H, commitFence(2, 1), OWNER, H);
const OP = {
  operationId: 'op-1',
  idempotencyKey: 'idem-1',
  kind: 'write-file',
  exactTargets: ['src/b.ts', 'src/a.ts'],
  beforeDigest: H,
};

describe('the store requests', () => {
  it('an owner transition names every member of its table, null where the operation has none', () => {
    for (const op of STORE_OWNER_OPERATIONS) {
      const request = ownerTransitionRequest(op, base, 'epoch-1.1', H);
      expect(Object.keys(request)).toEqual([
        'operation',
        'taskId',
        'projectRootIdentity',
        'expectedFence',
        'expectedOwner',
        'sessionDigest',
        'contextEpoch',
        'routeRevision',
        'targetSessionDigest',
        'handoffRefDigest',
        'takeoverRefDigest',
        'takeoverEvidence',
        'terminal',
        'terminalReceiptDigest',
      ]);
      expect(paramsViolation('store.transitionOwner', { request })).toBeNull();
    }
    const terminal = ownerTransitionRequest('terminal', base, 'epoch-1.1', H, {
      terminal: {
        terminalStatus: 'completed',
        lifecycleRevision: 1,
        settledSetDigest: H,
        writeContextDigest: H,
        evidence: CONFORMANCE_EVIDENCE,
      },
    });
    expect(paramsViolation('store.transitionOwner', { request: terminal })).toBeNull();
  });

  it('a state and an operation commit start with the same members', () => {
    expect(paramsViolation('store.commitState', { request: { ...base, state: { step: 'a' } } })).toBeNull();
    for (const event of [
      prepareEvent(OP),
      { event: 'dispatch', ...operationBinding(OP, 1) },
      { event: 'abort', ...operationBinding(OP, 1) },
    ])
      expect(paramsViolation('store.commitOperation', { request: { ...base, event } })).toBeNull();
  });

  it('a binding names the prepared operation, and a prepare event its own copy of the targets', () => {
    expect(operationBinding(OP, 3)).toEqual({
      operationId: 'op-1',
      idempotencyKey: 'idem-1',
      writerGeneration: 3,
      targetSetDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
      beforeDigest: H,
    });
    expect(prepareEvent(OP).exactTargets).toEqual(OP.exactTargets);
    expect(prepareEvent(OP).exactTargets).not.toBe(OP.exactTargets);
  });

  it('a read captures, under its prefix, the owner ref a later write names', () => {
    const capture = storeReadCapture('w0.');
    const owner = capturedOwner('w0.');
    for (const ref of Object.values(owner)) expect(Object.keys(capture)).toContain(ref.$var);
    expect(storeReadCapture('', false)).toEqual({ fence: '/fence' });
    expect(Object.keys(writeContextCapture('x'))).toEqual(['xctx', 'xsettled']);
  });

  it('the terminal evidence names the files of the conformance project root, role by role', () => {
    expect(CONFORMANCE_EVIDENCE.map((e) => e.role)).toEqual([
      'change-record',
      'completion',
      'memory',
      'report',
    ]);
    for (const e of CONFORMANCE_EVIDENCE)
      expect(e.bytes).toBe(Buffer.byteLength(CONFORMANCE_PROJECT[e.path] as string));
  });
});
