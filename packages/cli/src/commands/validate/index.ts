import { printable } from '@agent-contracts/harness/text';
import { validate } from '@agent-contracts/validators';
import { commandArgs } from '../../args.js';
import { painter, useColor } from '../../color.js';
import type { Command } from '../../command.js';
import { CliError } from '../../errors.js';
import type { Io } from '../../io.js';
import { type InputLimits, inputIssue, parseInput, readInput } from './input.js';
import { type FileResult, humanReporter, jsonReporter, type Summary } from './report.js';
import { expandArguments } from './walk.js';

/** Default `--max-bytes`: 16 MiB. */
export const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;
/** Default `--max-depth`. */
export const DEFAULT_MAX_DEPTH = 512;

const HELP = `Usage: agent-contracts validate [options] <file|dir|->...

Validate contract documents against the agent-contracts spec: the contract is chosen by each
document's "schemaVersion"; the JSON Schema, digest rules and semantic rules are checked.

Arguments:
  <file>              a JSON document (any file name)
  <dir>               every *.json file below it, recursively
  -                   standard input (once)

Options:
  --json              write one JSON document (schemas/cli/validate-output.schema.json)
  --quiet             human output: omit files that are valid without warnings
  --max-bytes <size>  refuse larger inputs without reading them (default 16MiB;
                      a number of bytes, or with a suffix K, KiB, M, MiB, G, GiB)
  --max-depth <n>     refuse inputs nested deeper than n arrays/objects (default ${DEFAULT_MAX_DEPTH})
  --color, --no-color force colour on or off (default: on for a terminal, off if NO_COLOR is set)
  -h, --help          show this help

Exit codes: 0 every document is valid; 1 some document is invalid (including input that is not
UTF-8 JSON, empty, too large or too deep); 2 usage error, or a file that could not be read.
Every code is documented in docs/cli.md.
`;

const SIZE = /^(\d+)\s*(k|kib|m|mib|g|gib)?$/i;
const UNITS: Record<string, number> = {
  k: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gib: 1024 ** 3,
};

/** Parse `--max-bytes` (`16777216`, `16MiB`, `64M`). */
export function parseSize(text: string): number {
  const m = SIZE.exec(text.trim());
  const n = m ? Number(m[1]) * (m[2] ? UNITS[m[2].toLowerCase()]! : 1) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new CliError(
      'USAGE_BAD_VALUE',
      `--max-bytes ${JSON.stringify(text)} is not a size; use e.g. 16777216 or 64MiB.`,
    );
  }
  return n;
}

function parseDepth(text: string): number {
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > 100_000) {
    throw new CliError(
      'USAGE_BAD_VALUE',
      `--max-depth ${JSON.stringify(text)} must be an integer from 1 to 100000.`,
    );
  }
  return n;
}

const OPTIONS = {
  json: { type: 'boolean' },
  quiet: { type: 'boolean' },
  'max-bytes': { type: 'string' },
  'max-depth': { type: 'string' },
  color: { type: 'boolean' },
  'no-color': { type: 'boolean' },
} as const;

async function judge(path: string, io: Io, limits: InputLimits): Promise<FileResult> {
  const read = await readInput(path, io.stdin, limits);
  if (!('bytes' in read)) {
    if (read.ok) throw new Error('unreachable');
    return { file: path, status: read.io ? 'error' : 'invalid', contract: null, issues: [read.issue] };
  }
  const parsed = parseInput(read.bytes, limits);
  if (!parsed.ok)
    return { file: path, status: parsed.io ? 'error' : 'invalid', contract: null, issues: [parsed.issue] };
  const result = validate(parsed.value);
  return result.ok
    ? {
        file: path,
        status: 'valid',
        contract: result.contract,
        issues: [...parsed.warnings, ...result.warnings],
      }
    : {
        file: path,
        status: 'invalid',
        contract: result.contract,
        issues: [...parsed.warnings, ...result.issues],
      };
}

/** `agent-contracts validate`. */
export const validateCommand: Command = {
  name: 'validate',
  summary: 'validate contract documents (files, directories of *.json, or stdin)',
  help: HELP,
  async run(args, io) {
    const parsed = await commandArgs(io, 'validate', HELP, args, OPTIONS);
    if (!parsed) return 0;
    const { values, positionals } = parsed;
    if (positionals.length === 0) {
      throw new CliError(
        'USAGE_MISSING_ARGUMENT',
        'name at least one file, directory or - (stdin). Run `agent-contracts validate --help`.',
      );
    }
    if (positionals.filter((p) => p === '-').length > 1) {
      throw new CliError('USAGE_STDIN_TWICE', '- (standard input) can be given only once.');
    }
    const limits: InputLimits = {
      maxBytes: values['max-bytes'] === undefined ? DEFAULT_MAX_BYTES : parseSize(values['max-bytes']),
      maxDepth: values['max-depth'] === undefined ? DEFAULT_MAX_DEPTH : parseDepth(values['max-depth']),
    };
    const colorFlag = values['no-color'] ? false : values.color ? true : undefined;
    const reporter = values.json
      ? jsonReporter(io)
      : humanReporter(io, painter(useColor(io, colorFlag)), values.quiet === true);

    const summary: Summary = { files: 0, valid: 0, invalid: 0, errors: 0 };
    await reporter.start();
    for await (const target of expandArguments(positionals)) {
      const result: FileResult =
        target.kind === 'error'
          ? { file: target.path, status: 'error', contract: null, issues: [target.issue] }
          : await judge(target.path, io, limits);
      summary.files++;
      if (result.status === 'valid') summary.valid++;
      else if (result.status === 'invalid') summary.invalid++;
      else summary.errors++;
      await reporter.result(result);
    }
    if (summary.files === 0) {
      const issue = inputIssue(
        'INPUT_NO_FILES',
        `no *.json file found in ${positionals.join(', ')}; name a file or a directory that holds some.`,
      );
      summary.errors++;
      const exitCode = 2;
      if (values.json)
        await reporter.result({
          file: positionals.join(' '),
          status: 'error',
          contract: null,
          issues: [issue],
        });
      else await io.err(`agent-contracts: ${issue.code}: ${printable(issue.message)}\n`);
      await reporter.end(summary, exitCode);
      return exitCode;
    }
    const exitCode = summary.errors > 0 ? 2 : summary.invalid > 0 ? 1 : 0;
    await reporter.end(summary, exitCode);
    return exitCode;
  },
};
