import { readFileSync } from 'node:fs';
import { printableLines } from '@agent-contracts/harness/text';
import { COMMANDS } from './commands/index.js';
import { docPath, docRefs } from './doc-path.js';
import { CliError } from './errors.js';
import type { Io } from './io.js';

function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

function topHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const lines = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return `Usage: agent-contracts <command> [options]

Commands:
${lines.join('\n')}

Options:
  -h, --help     show this help (every command has its own: agent-contracts <command> --help)
  --version      print the version

Docs: ${docPath('docs/cli.md')} (installed with the kit; \`agent-contracts docs\` lists every page)
`;
}

/**
 * Run the CLI with `argv` (without `node` and the script) and resolve to the exit code. Never
 * rejects: usage errors print `agent-contracts: <CODE>: <message>` on stderr and give 2.
 *
 * @example
 * const code = await main(['validate', 'doc.json'], processIo());
 */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  try {
    const [first, ...rest] = argv;
    if (first === undefined || first === '-h' || first === '--help' || first === 'help') {
      await io.out(topHelp());
      return first === undefined ? 2 : 0;
    }
    if (first === '--version') {
      await io.out(`${version()}\n`);
      return 0;
    }
    const command = COMMANDS.find((c) => c.name === first);
    if (!command) {
      throw new CliError(
        first.startsWith('-') ? 'USAGE_UNKNOWN_OPTION' : 'USAGE_UNKNOWN_COMMAND',
        `unknown ${first.startsWith('-') ? 'option' : 'command'} ${JSON.stringify(first)}; commands: ${COMMANDS.map((c) => c.name).join(', ')}. Run \`agent-contracts --help\`.`,
      );
    }
    return await (await command.load()).run(rest, io);
  } catch (err) {
    if (err instanceof CliError) {
      await io.err(`agent-contracts: ${err.code}: ${docRefs(printableLines(err.message))}\n`);
      return 2;
    }
    const message = err instanceof Error ? err.message : String(err);
    await io.err(
      `agent-contracts: CLI_INTERNAL_ERROR: ${printableLines(message)} (this is a bug; please report it)\n`,
    );
    return 2;
  }
}
