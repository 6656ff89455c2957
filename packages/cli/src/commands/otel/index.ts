import { rename, rm, writeFile } from 'node:fs/promises';
import { printable, truncated } from '@agent-contracts/harness/text';
import { commandArgs } from '../../args.js';
import type { Command } from '../../command.js';
import { docRefs } from '../../doc-path.js';
import { CliError } from '../../errors.js';
import type { Io } from '../../io.js';
import { kitVersion } from '../../kit-version.js';
import { parseOtlpText } from '../../otel/input.js';
import { checkRequests, UNVERIFIED } from '../../otel/judge.js';
import { DEFAULT_MAX_DEPTH, parseSize } from '../validate/index.js';
import { readInput } from '../validate/input.js';
import { EXPORT_HELP, exportCommand } from './export.js';
import { reportLines } from './report.js';

/** Default `--max-bytes` of `otel check`: 64 MiB (Collector files are larger than documents). */
export const OTEL_MAX_BYTES = 64 * 1024 * 1024;

const CHECK_HELP = `Usage: agent-contracts otel check [options] <file|->

Judge the agent runs of an OpenTelemetry trace: OTLP JSON (an OTLP/HTTP JSON request body, or
the Collector file exporter's output, one request a line). Each invoke_agent span is one run;
its execute_tool spans are mapped to a LocalTaskTraceV1 and judged with the reference validators
and the mapping rules of docs/spec/opentelemetry-mapping.md. Every issue names the span and
attribute it comes from, by JSON Pointer into the list of requests.

Options:
  --report <file>     also write the kit's JSONL report (for report, diff, JUnit, HTML)
  --max-bytes <size>  refuse larger inputs without reading them (default 64MiB)
  --max-depth <n>     refuse inputs nested deeper than n arrays/objects (default ${DEFAULT_MAX_DEPTH})
  -h, --help          show this help

Exit codes: 0 every run passes; 1 a run fails, no agent run was found, or the input is not OTLP
trace JSON (OTEL_INPUT_INVALID, OTEL_ATTRIBUTE_INVALID, INPUT_*); 2 usage error, or a file that
could not be read or written. Every code is documented in docs/cli.md.
`;

const OPTIONS = {
  report: { type: 'string' },
  'max-bytes': { type: 'string' },
  'max-depth': { type: 'string' },
} as const;

const shown = (s: string) => printable(truncated(s, 300));

async function check(args: readonly string[], io: Io): Promise<number> {
  const parsed = await commandArgs(io, 'otel check', CHECK_HELP, args, OPTIONS);
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  if (positionals.length !== 1)
    throw new CliError(
      'USAGE_MISSING_ARGUMENT',
      'name exactly one OTLP JSON file (or - for stdin). Run `agent-contracts otel check --help`.',
    );
  const depth = values['max-depth'];
  if (depth !== undefined && !/^\d{1,6}$/.test(depth))
    throw new CliError(
      'USAGE_BAD_VALUE',
      `--max-depth ${JSON.stringify(depth)} must be an integer from 1 to 100000.`,
    );
  const limits = {
    maxBytes: values['max-bytes'] === undefined ? OTEL_MAX_BYTES : parseSize(values['max-bytes']),
    maxDepth: depth === undefined ? DEFAULT_MAX_DEPTH : Math.max(1, Number(depth)),
  };
  const file = positionals[0]!;
  const startedAt = new Date();
  const read = await readInput(file, io.stdin, limits);
  if (!('bytes' in read)) {
    if (read.ok) throw new Error('unreachable');
    await io.err(`${shown(file)}: ${read.issue.code}: ${read.issue.message}\n`);
    return read.io ? 2 : 1;
  }
  const text = parseOtlpText(read.bytes, limits);
  if (!text.ok) {
    const where = text.line === null ? '' : ` (line ${text.line})`;
    await io.err(`${shown(file)}${where}: ${text.issue.code}: ${text.issue.message}\n`);
    return 1;
  }
  const verdict = checkRequests(text.requests);
  if (verdict.input.length) {
    for (const p of verdict.input.slice(0, 20))
      await io.err(`${shown(file)}: ${p.code} at ${shown(p.pointer)}: ${p.message}\n`);
    if (verdict.input.length > 20) await io.err(`... and ${verdict.input.length - 20} more\n`);
    await io.err(
      docRefs(
        'No run was judged: fix the exporter that wrote this file (docs/spec/opentelemetry-mapping.md#input).\n',
      ),
    );
    return 1;
  }
  if (verdict.runs.length === 0) {
    await io.err(
      `${shown(file)}: OTEL_NO_AGENT_RUN: no span has gen_ai.operation.name "invoke_agent", so there is no agent run to judge; ` +
        docRefs(
          'enable the GenAI instrumentation of your agent framework (docs/spec/opentelemetry-mapping.md#what-is-read).\n',
        ),
    );
    return 1;
  }
  for (const run of verdict.runs) {
    if (run.ok) {
      const open = (run.trace as { status?: string } | null)?.status === 'open';
      await io.out(
        `PASS ${run.id}  ${run.toolSpans} tool call(s), ${run.chatSpans} model call(s)${run.dropped ? `, ${run.dropped} event(s) dropped by the bounds` : ''}${open ? '; open: the run has not ended (its agent span is marked agent_contracts.span.open), so no terminal is shown' : ''}\n`,
      );
      continue;
    }
    await io.out(`FAIL ${run.id}\n`);
    for (const i of run.issues)
      await io.out(
        `  ${i.code} at ${shown(i.pointer)}${i.tracePath === undefined ? '' : ` (trace ${i.tracePath})`}: ${shown(i.message)}\n`,
      );
  }
  const failed = verdict.runs.filter((r) => !r.ok).length;
  await io.out(
    `\n${verdict.runs.length - failed} passed, ${failed} failed (conventions read: ${verdict.schemaUrls.map(shown).join(', ') || 'no schemaUrl given'})\n` +
      `Not shown by spans, so unverified:\n${UNVERIFIED.map((u) => `  - ${u}\n`).join('')}`,
  );
  if (values.report !== undefined) {
    const target = values.report;
    const tmp = `${target}.${process.pid}.tmp`;
    const lines = reportLines(
      file,
      verdict,
      { name: '@agent-contracts/cli', version: kitVersion() },
      startedAt,
    );
    try {
      await writeFile(tmp, `${lines.join('\n')}\n`);
      await rename(tmp, target);
    } catch (err) {
      await rm(tmp, { force: true });
      throw new CliError(
        'INPUT_READ_FAILED',
        `cannot write the report ${shown(target)} (${(err as NodeJS.ErrnoException).code ?? 'error'}); check the directory.`,
      );
    }
  }
  return failed ? 1 : 0;
}

const HELP = `Usage: agent-contracts otel <check|export> [options] ...

  otel check <file|->          judge the agent runs of an OTLP JSON trace
  otel export <file|dir|->...  write LocalTaskTraceV1 documents as OTLP JSON GenAI spans

Run \`agent-contracts otel check --help\` or \`otel export --help\` for the options.

${CHECK_HELP}
${EXPORT_HELP}`;

/** `agent-contracts otel`. */
export const otelCommand: Command = {
  name: 'otel',
  summary:
    'OpenTelemetry GenAI traces: judge the agent runs of OTLP JSON (otel check), write traces as spans (otel export)',
  help: HELP,
  async run(args, io) {
    const [sub, ...rest] = args;
    if (sub === '-h' || sub === '--help') {
      await io.out(docRefs(HELP));
      return 0;
    }
    if (sub === undefined)
      throw new CliError(
        'USAGE_MISSING_ARGUMENT',
        'name a subcommand: `agent-contracts otel check <file>` or `otel export <file|dir>`.',
      );
    if (sub === 'export') return exportCommand(rest, io);
    if (sub !== 'check')
      throw new CliError(
        'USAGE_UNKNOWN_COMMAND',
        `otel has no subcommand ${JSON.stringify(sub)}; use \`otel check <file>\` or \`otel export <file|dir>\`.`,
      );
    return check(rest, io);
  },
};
