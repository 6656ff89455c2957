import type { Io } from './io.js';

/** One subcommand of `agent-contracts`: its own folder under src/commands/. */
export interface Command {
  readonly name: string;
  /** One line for the top-level help. */
  readonly summary: string;
  /** Full `--help` text. */
  readonly help: string;
  /** Run with the arguments after the command name; resolves to the exit code. */
  run(args: readonly string[], io: Io): Promise<number>;
}
