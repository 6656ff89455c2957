import { existsSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { updatedBaseline } from '@agent-contracts/harness';
import { usageError } from '../../args.js';
import type { Command } from '../../command.js';
import { CliError } from '../../errors.js';
import { readBaseline, readReport } from '../report-io.js';

const HELP = `Usage: agent-contracts baseline update --report <run.jsonl> --out <baseline.json>

Write an expected-failures baseline listing exactly the cases that did not pass in a report
(fail, error, timeout, crash). Reasons of entries already in --out are kept.

Options:
  --report <file>   the JSONL report of a conform run                    [required]
  --out <file>      the baseline to write (read first, if it exists)     [required]
  -h, --help        show this help

Exit codes: 0 written; 2 usage error or an unreadable report/baseline.
`;

/** `agent-contracts baseline update`. */
export const baselineCommand: Command = {
  name: 'baseline',
  summary: 'write an expected-failures baseline from a conform report (baseline update)',
  help: HELP,
  async run(args, io) {
    let parsed: ReturnType<
      typeof parseArgs<{
        options: {
          report: { type: 'string' };
          out: { type: 'string' };
          help: { type: 'boolean'; short: 'h' };
        };
        allowPositionals: true;
        strict: true;
      }>
    >;
    try {
      parsed = parseArgs({
        args: [...args],
        allowPositionals: true,
        strict: true,
        options: {
          report: { type: 'string' },
          out: { type: 'string' },
          help: { type: 'boolean', short: 'h' },
        },
      });
    } catch (e) {
      throw usageError('baseline', e, {
        report: { type: 'string' },
        out: { type: 'string' },
        help: { type: 'boolean' },
      });
    }
    const { values, positionals } = parsed;
    if (values.help) {
      await io.out(HELP);
      return 0;
    }
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
    const report = await readReport(values.report);
    const previous = existsSync(values.out) ? readBaseline(values.out) : null;
    const next = updatedBaseline(report.cases, previous);
    writeFileSync(values.out, `${JSON.stringify(next, null, 2)}\n`);
    await io.out(`wrote ${values.out}: ${next.expectedFailures.length} expected failure(s)\n`);
    return 0;
  },
};
