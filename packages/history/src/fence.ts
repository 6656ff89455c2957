/** The two numbers of a TaskRecoveryCommitFenceV1 that every commit compares. */
export interface Fence {
  readonly stateSequence: number;
  readonly writerGeneration: number;
}
