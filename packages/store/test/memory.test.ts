import { createMemoryBackend } from '../src/backends/memory.js';
import { defineStoreContractSuite } from './contract/suite.js';

defineStoreContractSuite(
  'memory',
  async () => createMemoryBackend(),
  async () => {},
);
