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
});
