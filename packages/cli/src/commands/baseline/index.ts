import { existsSync, writeFileSync } from 'node:fs';
import { printable, updatedBaseline } from '@agent-contracts/harness';
import { commandArgs } from '../../args.js';
import type { Command } from '../../command.js';
import { CliError } from '../../errors.js';
import { readBaseline, readReport, requireComplete } from '../report-io.js';

const HELP = `Usage: agent-contracts baseline update --report <run.jsonl> --out <baseline.json>

Write an expected-failures baseline listing exactly the cases that failed (outcome fail) in a
report; errors, timeouts and crashes are never expected. Reasons of entries already in --out
are kept. The report must hold a whole run: an interrupted or incomplete one is refused
(REPORT_INTERRUPTED, REPORT_INCOMPLETE) and --out is left unchanged.

Options:
  --report <file>   the JSONL report of a conform run                    [required]
  --out <file>      the baseline to write (read first, if it exists)     [required]
  -h, --help        show this help

Exit codes: 0 written; 2 usage error, an unreadable report/baseline, or a report that does not
hold a whole run.
`;

/** `agent-contracts baseline update`. */
export const baselineCommand: Command = {
  name: 'baseline',
  summary: 'write an expected-failures baseline from a conform report (baseline update)',
  help: HELP,
  async run(args, io) {
    const parsed = await commandArgs(io, 'baseline', HELP, args, {
      report: { type: 'string' },
      out: { type: 'string' },
    });
    if (!parsed) return 0;
    const { values, positionals } = parsed;
    if (positionals[0] !== 'update' || positionals.length !== 1) {
      throw new CliError(
        'USAGE_MISSING_ARGUMENT',
        'the only subcommand is `baseline update`. Run `agent-contracts baseline --help`.',
      );
    }
    if (!values.report || !values.out) {
      throw new CliError(
        'USAGE_MISSING_ARGUMENT',
        'baseline update needs --report <run.jsonl> and --out <baseline.json>.',
      );
    }
    const report = await readReport(values.report, io);
    // A baseline from part of a run would drop the expected failures of every case that did not
    // run: never written from one, and --out is left as it was.
    requireComplete(
      values.report,
      report,
      `a baseline written from it would leave out every case that did not run; ${values.out} is unchanged. Write baselines from reports of whole runs.`,
    );
    const previous = existsSync(values.out) ? readBaseline(values.out) : null;
    const next = updatedBaseline(report.cases, previous);
    writeFileSync(values.out, `${JSON.stringify(next, null, 2)}\n`);
    const unlisted = report.cases.filter((c) =>
      ['error', 'timeout', 'crash', 'harness-error'].includes(c.outcome),
    );
    await io.out(
      `wrote ${printable(values.out)}: ${next.expectedFailures.length} expected failure(s)${unlisted.length ? `; ${unlisted.length} case(s) that ended as error, timeout, crash or harness-error are not listed: a baseline expects only fail` : ''}\n`,
    );
    return 0;
  },
};
