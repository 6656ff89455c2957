// How a rendered report or matrix names one report's column: the implementation's name and
// version, and the shard it ran when it ran one, so that the reports of one implementation's
// shards (`conform --shard 1/2`, `--shard 2/2`), rendered side by side, are told apart.

/** The title of a report's column, as plain text (escape it for the format it goes into). */
export function reportTitle(r: {
  readonly name: string;
  readonly version: string;
  readonly shard: string | null;
}): string {
  return `${r.name} ${r.version}${r.shard === null ? '' : ` (shard ${r.shard})`}`;
}
