export { type FixtureFile, listFixtures, repoRoot } from '../../../scripts/lib/fixture-corpus.ts';
