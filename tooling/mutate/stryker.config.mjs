// StrykerJS on the engines and the store's commit path (docs/conformance-quality.md): every
// mutant is run against the golden cases in process and the engines' unit tests
// (tooling/mutate/vitest.config.ts). One run mutates one shard (tooling/mutate/shards.mjs), named
// by MUTATE_SHARD; tooling/mutate/run.mjs runs them all (`corepack pnpm mutate`) or incrementally
// (`corepack pnpm mutate:incremental`, what CI runs).
import { SHARDS } from './shards.mjs';

const shard = process.env.MUTATE_SHARD ?? 'task-continuity-commit';
if (!(shard in SHARDS)) throw new Error(`MUTATE_SHARD must be one of ${Object.keys(SHARDS).join(', ')}`);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner', './tooling/mutate/prose-ignorer.mjs'],
  ignorers: ['prose'],
  vitest: { configFile: 'tooling/mutate/vitest.config.ts', related: false },
  mutate: SHARDS[shard].mutate,
  coverageAnalysis: 'perTest',
  // A static mutant (one executed only while a module loads: a table, a pattern) needs fresh
  // modules for each run, which vitest's in-process reuse (isolate: false) does not give; judged
  // here it would pass or fail by accident. They are reported as ignored and counted apart in
  // docs/conformance-quality.md.
  ignoreStatic: true,
  concurrency: 1,
  incremental: true,
  incrementalFile: `tooling/mutate/incremental/${shard}.json`,
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  clearTextReporter: { reportTests: false, reportMutants: false },
  htmlReporter: { fileName: `.reports/mutation/${shard}.html` },
  jsonReporter: { fileName: `.reports/mutation/${shard}.json` },
  thresholds: { high: 90, low: 85, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  // A mutant that makes a case loop is a timeout (killed): give up soon after the case's own time
  // (wider for a shard whose cases write to disk, so that load on the machine is not a timeout).
  timeoutMS: SHARDS[shard].timeoutMS ?? 3_000,
};
