// @module-tag unit
// One parser for every command's arguments (src/args.ts): every command, and each subcommand of
// otel, prints its help for -h and --help, and answers an unknown option with
// USAGE_UNKNOWN_OPTION, the closest option and the command's --help; no command parses its
// arguments itself.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/commands/index.ts';
import { main } from '../src/main.ts';
import { memoryIo } from './helpers.ts';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );

const commands = [
  ...COMMANDS.filter((c) => c.name !== 'otel').map((c) => [c.name]),
  ['otel', 'check'],
  ['otel', 'export'],
].map((words) => [words.join(' '), words] as const);

describe('command arguments', () => {
  it('are parsed by src/args.ts alone', () => {
    const parsing = sources(SRC)
      .filter((f) => /\bparseArgs\b/.test(readFileSync(f, 'utf8')))
      .map((f) => f.slice(SRC.length));
    expect(parsing).toEqual(['args.ts']);
  });

  it.each(commands)('%s prints its help for -h and --help', async (_, words) => {
    for (const flag of ['-h', '--help']) {
      const io = memoryIo();
      expect(await main([...words, flag], io), io.stderr).toBe(0);
      expect(io.stdout).toMatch(new RegExp(`^Usage: agent-contracts ${words.join(' ')}\\b`));
      expect(io.stderr).toBe('');
    }
  });

  it.each(commands)('%s refuses an unknown option by the closest one', async (_, words) => {
    const io = memoryIo();
    expect(await main([...words, '--helpp'], io)).toBe(2);
    expect(io.stderr).toContain('USAGE_UNKNOWN_OPTION');
    expect(io.stderr).toContain('Did you mean --help?');
    expect(io.stderr).toContain(`Run \`agent-contracts ${words.join(' ')} --help\`.`);
  });
});
