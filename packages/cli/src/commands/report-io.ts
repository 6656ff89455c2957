import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type Baseline, parseBaseline, parseReport, type Report } from '@agent-contracts/harness';
import { CliError } from '../errors.js';

/** Read and parse a JSONL report, or throw REPORT_INVALID saying why. */
export function readReport(path: string): Report {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new CliError('REPORT_INVALID', `cannot read report ${path}: ${(e as Error).message}`);
  }
  try {
    return parseReport(text, path);
  } catch (e) {
    throw new CliError('REPORT_INVALID', (e as Error).message);
  }
}

/** Read and parse a baseline file, or throw BASELINE_INVALID saying why. */
export function readBaseline(path: string): Baseline {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new CliError('BASELINE_INVALID', `cannot read baseline ${path}: ${(e as Error).message}`);
  }
  try {
    return parseBaseline(text);
  } catch (e) {
    throw new CliError('BASELINE_INVALID', `${path}: ${(e as Error).message}`);
  }
}

/** Shared parseArgs error mapping. */
export function usage(command: string, err: unknown): CliError {
  const code = (err as { code?: string }).code;
  return new CliError(
    code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? 'USAGE_UNKNOWN_OPTION' : 'USAGE_BAD_VALUE',
    `${(err as Error).message.split('\n')[0]} Run \`agent-contracts ${command} --help\`.`,
  );
}

/**
 * Parse a command's arguments: positionals plus the given boolean/string options and `--help`;
 * malformed arguments become the usage codes.
 */
export function parseCommandArgs(
  command: string,
  args: readonly string[],
  options: Readonly<Record<string, { type: 'boolean' | 'string' }>>,
): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  try {
    const r = parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
    });
    return { values: r.values as Record<string, string | boolean | undefined>, positionals: r.positionals };
  } catch (e) {
    throw usage(command, e);
  }
}
