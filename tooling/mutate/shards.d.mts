/** One shard of the mutation run (tooling/mutate/shards.mjs). */
export interface Shard {
  /** Stryker's mutate globs (`dir/**\/*.ts`, `dir/*.ts` or a file; a leading `!` excludes). */
  readonly mutate: readonly string[];
  /** Prefixes of the golden case ids the shard's mutants are run against. */
  readonly cases: readonly string[];
  /** Test files run besides the engines' unit tests and the golden cases. */
  readonly tests?: readonly string[];
  /** Stryker's timeoutMS for the shard; 3000 when absent. */
  readonly timeoutMS?: number;
}
export declare const SHARDS: Readonly<Record<string, Shard>>;
