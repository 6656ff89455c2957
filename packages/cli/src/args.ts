// A command's arguments: one parser for every command (node:util parseArgs with `-h, --help`),
// one usage error for arguments a command does not take, so every command answers a typo the
// same way, with the closest option it does know, and prints its help the same way.
import { parseArgs } from 'node:util';
import { closest, distance } from 'fastest-levenshtein';
import { docRefs } from './doc-path.js';
import { CliError } from './errors.js';
import type { Io } from './io.js';

/** The options of a command, in node:util parseArgs form. */
export type OptionSpec = Readonly<
  Record<string, { type: 'boolean' | 'string'; multiple?: boolean; short?: string }>
>;

/**
 * The known option closest to `given` (`--implementation` -> `--impl`), or null when nothing is
 * close: within a third of the longer name's length, or a prefix either way.
 */
export function suggestOption(given: string, known: readonly string[]): string | null {
  const name = given.replace(/^-+/, '').split('=')[0]!;
  if (!name || known.length === 0) return null;
  const prefix = known.find((k) => k.startsWith(name) || name.startsWith(k));
  if (prefix) return prefix;
  const best = closest(name, [...known]);
  return distance(name, best) <= Math.max(1, Math.floor(Math.max(name.length, best.length) / 3))
    ? best
    : null;
}

/** The usage error for a node:util parseArgs failure, naming the closest known option. */
export function usageError(command: string, err: unknown, options: OptionSpec): CliError {
  const code = (err as { code?: string }).code;
  const first = (err instanceof Error ? err.message : String(err)).split('\n')[0]!;
  const message = /[.!?]$/.test(first) ? first : `${first}.`;
  const help = `Run \`agent-contracts ${command} --help\`.`;
  if (code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return new CliError('USAGE_BAD_VALUE', `${message} ${help}`);
  const given = /'([^']+)'/.exec(message)?.[1] ?? '';
  const suggestion = suggestOption(given, Object.keys(options));
  return new CliError(
    'USAGE_UNKNOWN_OPTION',
    `${message}${suggestion ? ` Did you mean --${suggestion}?` : ''} ${help}`,
  );
}

/** An integer option from `min` to `max`, `fallback` when absent, else USAGE_BAD_VALUE. */
export function intOption(
  name: string,
  text: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (text === undefined) return fallback;
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new CliError(
      'USAGE_BAD_VALUE',
      `--${name} ${JSON.stringify(text)} must be an integer from ${min} to ${max}.`,
    );
  }
  return n;
}

/** `-h, --help`, which every command takes. */
const HELP_OPTION = { help: { type: 'boolean', short: 'h' } } as const;

/** What parseArgs gives for `options` plus `--help`. */
export type ParsedArgs<O extends OptionSpec, P extends boolean = true> = ReturnType<
  typeof parseArgs<{
    args: string[];
    allowPositionals: P;
    strict: true;
    options: O & typeof HELP_OPTION;
  }>
>;

/**
 * Parse a command's arguments: `options` plus `-h, --help`, positionals unless `positionals` is
 * false; malformed arguments become the usage codes (USAGE_UNKNOWN_OPTION, USAGE_BAD_VALUE).
 */
export function parseCommandArgs<const O extends OptionSpec, P extends boolean = true>(
  command: string,
  args: readonly string[],
  options: O,
  positionals: P = true as P,
): ParsedArgs<O, P> {
  const all = { ...options, ...HELP_OPTION };
  try {
    return parseArgs({
      args: [...args],
      allowPositionals: positionals,
      strict: true,
      options: all,
    }) as ParsedArgs<O, P>;
  } catch (err) {
    throw usageError(command, err, all);
  }
}

/**
 * `parseCommandArgs`, and the command's help on standard output when `--help` is given: null
 * then, and the command returns 0.
 */
export async function commandArgs<const O extends OptionSpec, P extends boolean = true>(
  io: Io,
  command: string,
  help: string,
  args: readonly string[],
  options: O,
  positionals: P = true as P,
): Promise<ParsedArgs<O, P> | null> {
  const parsed = parseCommandArgs(command, args, options, positionals);
  if ((parsed.values as { help?: boolean }).help) {
    await io.out(docRefs(help));
    return null;
  }
  return parsed;
}
