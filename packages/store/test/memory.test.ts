// @module-tag unit
import { describe, expect, it } from 'vitest';
import { createMemoryBackend } from '../src/backends/memory.js';
import { defineStoreModelProperties } from './contract/model.js';
import { defineStoreContractSuite } from './contract/suite.js';
import { backendPrimitiveCases } from './helpers/backend-primitive-cases.js';
import { acquire, stateCommit, taskKey } from './helpers/envelopes.js';

defineStoreContractSuite(
  'memory',
  async () => createMemoryBackend(),
  async () => {},
);

defineStoreModelProperties(
  'memory',
  async () => createMemoryBackend(),
  async () => {},
  { numRuns: 50 },
);

describe('memory backend: the storage primitive', () => {
  backendPrimitiveCases(
    async () => createMemoryBackend(),
    async () => {},
  );

  it('appended envelopes are frozen: a caller cannot change history after the fact', async () => {
    const backend = createMemoryBackend();
    const key = taskKey('frozen');
    const first = acquire(key);
    expect((await backend.compareAndAppend(key, { stateSequence: 0, writerGeneration: 0 }, first)).ok).toBe(
      true,
    );
    const stored = await backend.load(key);
    expect(Object.isFrozen(stored)).toBe(true);
    expect(() => {
      (stored as { sequence: number }).sequence = 99;
    }).toThrow(TypeError);
    expect((await backend.history(key))[0]!.sequence).toBe(1);
    const next = stateCommit(first, { step: 'plan-written' });
    expect((await backend.compareAndAppend(key, { stateSequence: 1, writerGeneration: 1 }, next)).ok).toBe(
      true,
    );
    expect((await backend.history(key)).map((e) => e.sequence)).toEqual([1, 2]);
  });
});
