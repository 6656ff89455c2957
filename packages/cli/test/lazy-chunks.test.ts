// @module-tag integration
// What each command of the published CLI loads before it runs (issue 25): its bundle's chunk and
// the chunks that chunk imports statically. `conform --explore` loads exploration (fast-check, the
// harness's explorers, the reference engines) with `import()` (commands/conform/explore-run.ts),
// so a `conform` without it must not load any of that: the harness exports exploration from its
// subpath `@agent-contracts/harness/explore`, not from its main barrel, whose live re-exports
// esbuild would otherwise put in conform's static chunks.
import { describe, expect, it } from 'vitest';
import { bundleMetafile, type Metafile, staticInputs } from '../../../tooling/test-helpers/bundle-graph.ts';

const CONFORM = 'packages/cli/src/commands/conform/index.ts';
const VALIDATE = 'packages/cli/src/commands/validate/index.ts';
const EXPLORE_RUN = 'packages/cli/src/commands/conform/explore-run.ts';
const BIN = 'packages/cli/src/bin.ts';

/** The harness beyond its small subpaths (text, walk, live), and ajv's compiler, which only it uses. */
const harness = (file: string) =>
  (file.startsWith('packages/harness/src/') &&
    ![
      'packages/harness/src/text.ts',
      'packages/harness/src/walk.ts',
      'packages/harness/src/live.ts',
    ].includes(file)) ||
  file.includes('/node_modules/ajv/');

/** Exploration's own code: the harness's explorers (its names and seed aside) and fast-check. */
const exploration = (file: string) =>
  (file.startsWith('packages/harness/src/explore/') && file !== 'packages/harness/src/explore/names.ts') ||
  file.includes('/node_modules/fast-check/');

describe('the published CLI bundle (scripts/bundle-reference.mjs cli-published)', () => {
  let metafile: Metafile;
  const built = async () => {
    metafile ??= await bundleMetafile('cli-published');
    return metafile;
  };

  it('loads exploration only behind --explore: explore-run has it, conform and validate do not', async () => {
    const m = await built();
    const lazy = [...staticInputs(m, EXPLORE_RUN)].filter(exploration);
    // The check sees exploration where it is, or it would prove nothing below.
    expect(lazy).toContain('packages/harness/src/explore/run.ts');
    expect(lazy.some((f) => f.includes('/node_modules/fast-check/'))).toBe(true);
    expect([...staticInputs(m, CONFORM)].filter(exploration)).toEqual([]);
    expect([...staticInputs(m, VALIDATE)].filter(exploration)).toEqual([]);
  }, 120_000);

  it('loads the harness only for the commands that run implementations: not at the entry, not for validate', async () => {
    // Every command loads the entry's static graph first (bin.ts kills leftover implementations
    // on its way out, through @agent-contracts/harness/live alone).
    const m = await built();
    expect([...staticInputs(m, CONFORM)].filter(harness)).toContain('packages/harness/src/index.ts');
    expect([...staticInputs(m, BIN)]).toContain('packages/harness/src/live.ts');
    expect([...staticInputs(m, BIN)].filter(harness)).toEqual([]);
    expect([...staticInputs(m, VALIDATE)].filter(harness)).toEqual([]);
  }, 120_000);
});
