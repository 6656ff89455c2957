// The vitest configuration StrykerJS runs (tooling/mutate/stryker.config.mjs): the golden cases in
// process against the reference implementation, and the unit tests of the engines and the store.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { TAGS } from '../vitest/suites.ts';
import { SHARDS } from './shards.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const at = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
// The shard's own test files (tooling/mutate/shards.mjs `tests`), by MUTATE_SHARD.
const shardTests = SHARDS[process.env.MUTATE_SHARD ?? '']?.tests ?? [];

export default defineConfig({
  root,
  resolve: {
    conditions: ['@agent-contracts/source'],
    // Stryker mutates a copy of the repository (its sandbox), whose node_modules are links into
    // the original: without these aliases a workspace import of the engines or the store would
    // resolve to the unmutated sources.
    alias: [
      { find: /^@agent-contracts\/engines$/, replacement: at('packages/engines/src/index.ts') },
      { find: /^@agent-contracts\/store$/, replacement: at('packages/store/src/index.ts') },
    ],
  },
  ssr: { resolve: { conditions: ['@agent-contracts/source'] } },
  test: {
    include: ['tooling/mutate/golden-cases.test.ts', 'packages/engines/test/**/*.test.ts', ...shardTests],
    // The store's model properties (fast-check) draw their commands from a fixed seed, so that a
    // mutant is killed or survives the same way on every run.
    setupFiles: ['tooling/mutate/fixed-seed.ts'],
    testTimeout: 60_000,
    // The unit tests carry `@module-tag` comments (tooling/vitest/suites.ts): without the tags
    // defined, vitest fails each such file before its first test, and the run would kill mutants
    // with the golden cases alone.
    tags: TAGS.map((t) => ({ ...t })),
    // Stryker activates a mutant through a global, so the modules stay loaded from one mutant run
    // to the next: a run then costs only its tests, not the import of the kit.
    isolate: false,
    globalSetup: ['tooling/vitest/temp-root.ts', 'tooling/mutate/sandbox-links.ts'],
  },
});
