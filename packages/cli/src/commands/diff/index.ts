import { diffReports, printable } from '@agent-contracts/harness';
import { commandArgs } from '../../args.js';
import type { Command } from '../../command.js';
import { CliError } from '../../errors.js';
import { readReport, requireComplete } from '../report-io.js';

const HELP = `Usage: agent-contracts diff [--json] <before.jsonl> <after.jsonl>

Compare two conformance reports by case id: fixed (not passing before, passing after), broken
(passing before, not after), changed (not passing in both, different outcome), added, removed.
A case that was not passing before and is absent after has vanished: when both runs selected the
same cases (same kit version, --filter, --shard and --no-faults) that is a regression, like a
broken case; when the selection changed it is only listed as removed.

Options:
  --json         write the diff as one JSON object
  -h, --help     show this help

Case ids are printed with control characters shown as \\uXXXX escapes.

Exit codes: 0 nothing broke; 1 some case broke or vanished while failing; 2 usage error, a report that is unreadable or
breaks its schema (REPORT_INVALID), or one that does not hold a whole run (REPORT_INTERRUPTED:
the report of a run stopped by SIGINT or SIGTERM; REPORT_INCOMPLETE: no summary line, or fewer
case lines than its summary counts).
`;

/** `agent-contracts diff`. */
export const diffCommand: Command = {
  name: 'diff',
  summary: 'compare two JSONL reports: fixed, broken and new cases by id',
  help: HELP,
  async run(args, io) {
    const parsed = await commandArgs(io, 'diff', HELP, args, { json: { type: 'boolean' } });
    if (!parsed) return 0;
    const { values, positionals } = parsed;
    if (positionals.length !== 2)
      throw new CliError(
        'USAGE_MISSING_ARGUMENT',
        'diff needs exactly two reports: <before.jsonl> <after.jsonl>.',
      );
    const [before, after] = [await readReport(positionals[0]!, io), await readReport(positionals[1]!, io)];
    for (const [i, r] of [before, after].entries())
      requireComplete(
        positionals[i]!,
        r,
        'a diff against it would call every missing case removed. Diff reports of whole runs.',
      );
    const d = diffReports(before, after);
    if (values.json) await io.out(`${JSON.stringify(d, null, 2)}\n`);
    else {
      const section = (title: string, ids: readonly string[]) =>
        ids.length ? `${title} (${ids.length}):\n${ids.map((i) => `  ${printable(i)}`).join('\n')}\n` : '';
      const text =
        section('Broken', d.broken) +
        section('Fixed', d.fixed) +
        section('Changed', d.changed) +
        section('Added', d.added) +
        section('Removed', d.removed) +
        (d.vanished.length && !d.selectionChanged
          ? section('Vanished while failing (a regression: the same selection ran)', d.vanished)
          : '');
      await io.out(text || 'No differences.\n');
    }
    return d.broken.length || (d.vanished.length && !d.selectionChanged) ? 1 : 0;
  },
};
