// Vitest setup file of the mutation run (tooling/mutate/vitest.config.ts): fast-check's properties
// (the store's model tests) draw from one fixed seed, so that whether a mutant is killed does not
// depend on the run.
import fc from 'fast-check';

fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: 20_221 });
