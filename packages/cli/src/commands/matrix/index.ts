import {
  compatibilityMatrix,
  loadRequirements,
  MATRIX_LIMITS,
  type Report,
  renderMatrixHtml,
  renderMatrixMarkdown,
} from '@agent-contracts/harness';
import { conformanceDirectory } from '@agent-contracts/kit';
import { commandArgs } from '../../args.js';
import type { Command } from '../../command.js';
import { CliError } from '../../errors.js';
import { readReport, requireComplete, warnDisagreements } from '../report-io.js';

const HELP = `Usage: agent-contracts matrix [--format html|markdown] <report.jsonl>...

The compatibility matrix of several JSONL conformance reports (one per implementation, as
\`conform --report\` writes them): implementations as columns, gates as rows. Each cell counts the
gate's golden cases that passed, of those that applied, those not passing (linked to their list:
id, outcome and detail) and those not applicable, and the gate's requirement coverage against the
kit's catalogue (conformance/requirements.json): requirements named by a passing case or
scenario, of all. The last row is the fault matrix; a table of every fault scenario's outcome per
implementation follows. Output goes to stdout.

Every report is read as \`report\` reads it (checked against schemas/harness/ReportLine.schema.json,
bounded in size); verdicts come from the case lines. Everything taken from a report is escaped
for HTML or Markdown and cut to a bounded length.

Options:
  --format <f>          html (default: a self-contained page, no script) or markdown
  --no-details          markdown: list failing cases without their detail text (the same
                        outcomes then always render the same bytes; docs/compatibility.md)
  --allow-incomplete    include a report that does not hold a whole run; it is labelled
                        interrupted or incomplete, never conforming
  -h, --help            show this help

Exit codes: 0 rendered; 2 usage error (no report, more than ${MATRIX_LIMITS.maxReports}), a report that is
unreadable or breaks its schema (REPORT_INVALID), or one that does not hold a whole run
(REPORT_INTERRUPTED, REPORT_INCOMPLETE) without --allow-incomplete.
`;

/** `agent-contracts matrix`. */
export const matrixCommand: Command = {
  name: 'matrix',
  summary: 'render the compatibility matrix of several reports (implementations x gates), HTML or Markdown',
  help: HELP,
  async run(args, io) {
    const parsed = await commandArgs(io, 'matrix', HELP, args, {
      format: { type: 'string' },
      'no-details': { type: 'boolean' },
      'allow-incomplete': { type: 'boolean' },
    });
    if (!parsed) return 0;
    const { values, positionals } = parsed;
    const format = typeof values.format === 'string' ? values.format : 'html';
    if (format !== 'html' && format !== 'markdown')
      throw new CliError('USAGE_BAD_VALUE', '--format must be html or markdown.');
    if (values['no-details'] && format !== 'markdown')
      throw new CliError('USAGE_BAD_VALUE', '--no-details applies to --format markdown only.');
    if (positionals.length === 0)
      throw new CliError('USAGE_MISSING_ARGUMENT', 'name at least one JSONL report.');
    if (positionals.length > MATRIX_LIMITS.maxReports)
      throw new CliError(
        'USAGE_BAD_VALUE',
        `a matrix compares at most ${MATRIX_LIMITS.maxReports} reports; ${positionals.length} were given.`,
      );
    const reports: Report[] = [];
    for (const path of positionals) {
      const report = await readReport(path);
      if (!values['allow-incomplete'])
        requireComplete(path, report, 'include it with --allow-incomplete, where it is labelled incomplete.');
      reports.push(report);
    }
    await warnDisagreements(io, positionals, reports);
    const matrix = compatibilityMatrix(reports, loadRequirements(conformanceDirectory));
    await io.out(
      format === 'html'
        ? renderMatrixHtml(matrix)
        : renderMatrixMarkdown(matrix, { details: !values['no-details'] }),
    );
    return 0;
  },
};
