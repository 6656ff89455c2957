/** One shard of the mutation run (tooling/mutate/shards.mjs). */
export interface Shard {
  /** Stryker's mutate globs. */
  readonly mutate: readonly string[];
  /** Prefixes of the golden case ids the shard's mutants are run against. */
  readonly cases: readonly string[];
}
export declare const SHARDS: Readonly<Record<string, Shard>>;
