// `agent-contracts otel export`: LocalTaskTraceV1 documents (files, folders of *.json, or stdin)
// to one OTLP/HTTP JSON request body of GenAI spans (docs/spec/opentelemetry-mapping.md#export).
// Every input is read with the bounds of `validate` and judged by the reference validators first:
// one input that is not a valid LocalTaskTraceV1 stops the command and nothing is written.
import { rename, rm, writeFile } from 'node:fs/promises';
import { printable, truncated } from '@agent-contracts/harness/text';
import { validate } from '@agent-contracts/validators';
import { commandArgs } from '../../args.js';
import { CliError } from '../../errors.js';
import type { Io } from '../../io.js';
import { kitVersion } from '../../kit-version.js';
import { otlpJson, spansOf } from '../../otel/export.js';
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_DEPTH, parseSize } from '../validate/index.js';
import { parseInput, readInput } from '../validate/input.js';
import { expandArguments } from '../validate/walk.js';

export const EXPORT_HELP = `Usage: agent-contracts otel export [options] <file|dir|->...

Write LocalTaskTraceV1 documents as OpenTelemetry GenAI spans: one OTLP/HTTP JSON request body
(ExportTraceServiceRequest) with an invoke_agent span per trace and an execute_tool span per tool
call (gen_ai.tool.name, gen_ai.tool.call.id, error.type and the span status), encoded by
@opentelemetry/otlp-transformer. Ids are derived from each document, so the output is the same
on every run; \`otel check\` of the output judges the runs again. A directory is every *.json
file below it. Every input must be a valid LocalTaskTraceV1, or nothing is written.

Options:
  --out <file>           write the request body to <file> (default: standard output)
  --service-name <name>  the resource's service.name (default agent-contracts-export)
  --max-bytes <size>     refuse larger inputs without reading them (default 16MiB)
  --max-depth <n>        refuse inputs nested deeper than n arrays/objects (default ${DEFAULT_MAX_DEPTH})
  -h, --help             show this help

Exit codes: 0 written; 1 an input is not a valid LocalTaskTraceV1 (OTEL_EXPORT_INVALID, INPUT_*;
nothing is written); 2 usage error, or a file that could not be read or written.
`;

const OPTIONS = {
  out: { type: 'string' },
  'service-name': { type: 'string' },
  'max-bytes': { type: 'string' },
  'max-depth': { type: 'string' },
} as const;

/** Longest `--service-name`, in UTF-16 code units. */
const MAX_SERVICE_NAME = 256;

const shown = (s: string) => printable(truncated(s, 300));

export async function exportCommand(args: readonly string[], io: Io): Promise<number> {
  const parsed = await commandArgs(io, 'otel export', EXPORT_HELP, args, OPTIONS);
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  if (positionals.length === 0)
    throw new CliError(
      'USAGE_MISSING_ARGUMENT',
      'name at least one LocalTaskTraceV1 file, directory or - for stdin. Run `agent-contracts otel export --help`.',
    );
  if (positionals.filter((p) => p === '-').length > 1)
    throw new CliError('USAGE_STDIN_TWICE', '- (standard input) is named more than once.');
  const serviceName = values['service-name'] ?? 'agent-contracts-export';
  if (serviceName === '' || serviceName.length > MAX_SERVICE_NAME || printable(serviceName) !== serviceName)
    throw new CliError(
      'USAGE_BAD_VALUE',
      `--service-name must be 1 to ${MAX_SERVICE_NAME} printable characters.`,
    );
  const depth = values['max-depth'];
  if (depth !== undefined && !/^\d{1,6}$/.test(depth))
    throw new CliError(
      'USAGE_BAD_VALUE',
      `--max-depth ${JSON.stringify(depth)} must be an integer from 1 to 100000.`,
    );
  const limits = {
    maxBytes: values['max-bytes'] === undefined ? DEFAULT_MAX_BYTES : parseSize(values['max-bytes']),
    maxDepth: depth === undefined ? DEFAULT_MAX_DEPTH : Math.max(1, Number(depth)),
  };

  const traces: Record<string, unknown>[] = [];
  const names: string[] = [];
  let refused = 0;
  let ioFailed = false;
  const refuse = async (path: string, code: string, message: string) => {
    refused++;
    if (refused <= 20) await io.err(`${shown(path)}: ${code}: ${shown(message)}\n`);
  };
  for await (const target of expandArguments(positionals)) {
    if (target.kind === 'error') {
      ioFailed = true;
      await refuse(target.path, target.issue.code, target.issue.message);
      continue;
    }
    const read = await readInput(target.path, io.stdin, limits);
    if (!('bytes' in read)) {
      if (read.ok) throw new Error('unreachable');
      if (read.io) ioFailed = true;
      await refuse(target.path, read.issue.code, read.issue.message);
      continue;
    }
    const doc = parseInput(read.bytes, limits);
    if (!doc.ok) {
      await refuse(target.path, doc.issue.code, doc.issue.message);
      continue;
    }
    const value = doc.value as Record<string, unknown> | null;
    if (value === null || typeof value !== 'object' || value.schemaVersion !== 'LocalTaskTraceV1') {
      await refuse(
        target.path,
        'OTEL_EXPORT_INVALID',
        'not a LocalTaskTraceV1 document (schemaVersion); only traces are exported',
      );
      continue;
    }
    const verdict = validate(value);
    const errors = verdict.ok ? [] : verdict.issues.filter((i) => i.severity === 'error');
    if (errors.length) {
      const first = errors[0]!;
      await refuse(
        target.path,
        'OTEL_EXPORT_INVALID',
        `not a valid LocalTaskTraceV1: ${first.code} at ${first.path || '/'}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}; \`agent-contracts validate\` lists every issue`,
      );
      continue;
    }
    traces.push(value);
    names.push(target.path);
  }
  if (refused > 20) await io.err(`... and ${refused - 20} more\n`);
  if (refused) {
    await io.err('Nothing was written.\n');
    return ioFailed ? 2 : 1;
  }
  if (traces.length === 0)
    throw new CliError('INPUT_NO_FILES', 'the arguments named no *.json file to export.');

  const { spans, traces: exported } = spansOf(traces, {
    serviceName,
    scope: { name: '@agent-contracts/cli', version: kitVersion() },
  });
  const body = `${otlpJson(spans)}\n`;
  const say = values.out === undefined ? io.err : io.out;
  if (values.out === undefined) await io.out(body);
  else {
    const target = values.out;
    const tmp = `${target}.${process.pid}.tmp`;
    try {
      await writeFile(tmp, body);
      await rename(tmp, target);
    } catch (err) {
      await rm(tmp, { force: true });
      throw new CliError(
        'INPUT_READ_FAILED',
        `cannot write ${shown(target)} (${(err as NodeJS.ErrnoException).code ?? 'error'}); check the directory.`,
      );
    }
  }
  for (const [i, t] of exported.entries()) {
    const notes = [
      ...(t.open
        ? [
            `open: its invoke_agent span${t.openToolSpans ? ` and ${t.openToolSpans} tool span(s)` : ''} written without an end, marked agent_contracts.span.open`,
          ]
        : []),
      ...(t.unwritten
        ? [`${t.unwritten} tool completion(s) whose start the bounds dropped not written`]
        : []),
    ];
    await say(
      `${shown(names[i]!)} -> otel/${t.traceId}/${t.agentSpanId}  ${t.toolSpans} tool span(s), ${t.spanEvents} span event(s)${notes.length ? `; ${notes.join('; ')}` : ''}\n`,
    );
  }
  await say(
    `${exported.length} trace(s), ${spans.length} span(s) written${values.out === undefined ? '' : ` to ${shown(values.out)}`}\n`,
  );
  return 0;
}
