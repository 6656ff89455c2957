import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './tooling/vitest/sequencer.ts';
import { PROJECTS, projectFiles, TAGS } from './tooling/vitest/suites.ts';

// Three projects made from each test file's tags (tooling/vitest/suites.ts): `slow`, `integration`
// and `unit`. `vitest run` runs all three, slow files first (tooling/vitest/sequencer.ts);
// `vitest run --project unit` the in-process ones alone.
const files = projectFiles(fileURLToPath(new URL('./', import.meta.url)));

export default defineConfig({
  resolve: { conditions: ['@agent-contracts/source'] },
  ssr: { resolve: { conditions: ['@agent-contracts/source'] } },
  test: {
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    // A hook removes what its file wrote (a copy of conformance/ in hostile.test.ts): under CI's
    // load that synchronous rm alone took more than vitest's default 10 s (5febcb0's CI, load 27).
    hookTimeout: 60_000,
    globalSetup: ['tooling/vitest/temp-root.ts', 'tooling/vitest/bundles.ts'],
    tags: TAGS.map((t) => ({ ...t })),
    sequence: { sequencer: SlowFirstSequencer },
    projects: PROJECTS.map((name) => ({ extends: true, test: { name, include: files[name] } })),
  },
});
