import {
  loadRequirements,
  type Report,
  renderHtml,
  renderJunit,
  renderMarkdown,
} from '@agent-contracts/harness';
import { conformanceDirectory } from '@agent-contracts/kit';
import { commandArgs } from '../../args.js';
import type { Command } from '../../command.js';
import { CliError } from '../../errors.js';
import { readReport, requireComplete, warnDisagreements } from '../report-io.js';

const HELP = `Usage: agent-contracts report --format junit|markdown|html <run.jsonl>...

Render JSONL conformance reports. junit and markdown take one report; html takes one or more and
shows them side by side (gates x cases, one column per implementation). Output goes to stdout.
Every report is checked against schemas/harness/ReportLine.schema.json first; verdicts are derived
from the case lines, and a summary line that contradicts them is flagged (warning on stderr).
The HTML page also shows requirement coverage against the kit's catalogue
(conformance/requirements.json): requirements named by a passing case, of all.

Options:
  --format <f>          junit, markdown or html                                [required]
  --junit-include-na    with --format junit, also write the not-applicable cases (each a
                        skipped testcase); without it they are left out, and counted in a comment
  --allow-incomplete    render a report that does not hold a whole run (an interrupted run's
                        report ends with an interrupted line, an unfinished one has no summary
                        line); it is labelled interrupted or incomplete, never conforming
  -h, --help            show this help

Exit codes: 0 rendered; 2 usage error, a report that is unreadable or breaks its schema
(REPORT_INVALID, with the line and JSON Pointer), or one that does not hold a whole run
(REPORT_INTERRUPTED, REPORT_INCOMPLETE) without --allow-incomplete.
`;

/** `agent-contracts report`. */
export const reportCommand: Command = {
  name: 'report',
  summary: 'render JSONL reports as JUnit XML, Markdown or HTML',
  help: HELP,
  async run(args, io) {
    const parsed = await commandArgs(io, 'report', HELP, args, {
      format: { type: 'string' },
      'allow-incomplete': { type: 'boolean' },
      'junit-include-na': { type: 'boolean' },
    });
    if (!parsed) return 0;
    const { values, positionals } = parsed;
    const format = typeof values.format === 'string' ? values.format : '';
    if (!['junit', 'markdown', 'html'].includes(format)) {
      throw new CliError('USAGE_BAD_VALUE', '--format must be junit, markdown or html.');
    }
    if (values['junit-include-na'] && format !== 'junit')
      throw new CliError('USAGE_BAD_VALUE', '--junit-include-na goes with --format junit.');
    if (positionals.length === 0)
      throw new CliError('USAGE_MISSING_ARGUMENT', 'name at least one JSONL report.');
    if (format !== 'html' && positionals.length > 1) {
      throw new CliError('USAGE_BAD_VALUE', `--format ${format} renders one report; html compares several.`);
    }
    const reports: Report[] = [];
    for (const path of positionals) {
      const report = await readReport(path, io);
      if (!values['allow-incomplete'])
        requireComplete(path, report, 'render it with --allow-incomplete, where it is labelled incomplete.');
      reports.push(report);
    }
    await warnDisagreements(io, positionals, reports);
    const text =
      format === 'html'
        ? renderHtml(reports, { catalogue: loadRequirements(conformanceDirectory) })
        : format === 'junit'
          ? renderJunit(reports[0]!, { includeNotApplicable: values['junit-include-na'] === true })
          : renderMarkdown(reports[0]!);
    await io.out(text);
    return 0;
  },
};
