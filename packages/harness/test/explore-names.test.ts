// @module-tag unit
// The capability names `conform` shows and filters before it explores are the explorers' own.
import { describe, expect, it } from 'vitest';
import { EXPLORE_CAPABILITIES, EXPLORERS } from '../src/explore/index.js';
import { EXPLORE_CAPABILITY_NAMES } from '../src/index.js';

describe('EXPLORE_CAPABILITY_NAMES', () => {
  it('are the names of EXPLORERS, in their order', () => {
    expect(EXPLORE_CAPABILITY_NAMES).toEqual(EXPLORERS.map((e) => e.name));
    expect(EXPLORE_CAPABILITY_NAMES).toEqual(EXPLORE_CAPABILITIES);
  });
});
