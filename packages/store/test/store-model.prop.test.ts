// @module-tag unit
import { createMemoryBackend } from '../src/backends/memory.js';
import { defineStoreModelProperties } from './contract/model.js';

defineStoreModelProperties(
  'memory',
  async () => createMemoryBackend(),
  async () => {},
);
