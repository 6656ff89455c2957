import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@agent-contracts/source'] },
  ssr: { resolve: { conditions: ['@agent-contracts/source'] } },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'examples/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    globalSetup: ['tooling/vitest/temp-root.ts', 'tooling/vitest/bundles.ts'],
  },
});
