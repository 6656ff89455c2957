import { parseArgs } from 'node:util';
import { renderHtml, renderJunit, renderMarkdown } from '@agent-contracts/harness';
import type { Command } from '../../command.js';
import { CliError } from '../../errors.js';
import { readReport, usage } from '../report-io.js';

const HELP = `Usage: agent-contracts report --format junit|markdown|html <run.jsonl>...

Render JSONL conformance reports. junit and markdown take one report; html takes one or more and
shows them side by side (gates x cases, one column per implementation). Output goes to stdout.

Options:
  --format <f>   junit, markdown or html                                [required]
  -h, --help     show this help

Exit codes: 0 rendered; 2 usage error or an unreadable report.
`;

/** `agent-contracts report`. */
export const reportCommand: Command = {
  name: 'report',
  summary: 'render JSONL reports as JUnit XML, Markdown or HTML',
  help: HELP,
  async run(args, io) {
    let values: { format?: string; help?: boolean };
    let positionals: string[];
    try {
      ({ values, positionals } = parseArgs({
        args: [...args],
        allowPositionals: true,
        strict: true,
        options: { format: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      }));
    } catch (e) {
      throw usage('report', e);
    }
    if (values.help) {
      await io.out(HELP);
      return 0;
    }
    if (!values.format || !['junit', 'markdown', 'html'].includes(values.format)) {
      throw new CliError('USAGE_BAD_VALUE', '--format must be junit, markdown or html.');
    }
    if (positionals.length === 0)
      throw new CliError('USAGE_MISSING_ARGUMENT', 'name at least one JSONL report.');
    if (values.format !== 'html' && positionals.length > 1) {
      throw new CliError(
        'USAGE_BAD_VALUE',
        `--format ${values.format} renders one report; html compares several.`,
      );
    }
    const reports = positionals.map(readReport);
    const text =
      values.format === 'html'
        ? renderHtml(reports)
        : values.format === 'junit'
          ? renderJunit(reports[0]!)
          : renderMarkdown(reports[0]!);
    await io.out(text);
    return 0;
  },
};
