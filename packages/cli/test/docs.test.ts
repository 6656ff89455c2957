// @module-tag unit
// Every code the CLI or the validators can produce, and every option, is documented in docs/cli.md.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ISSUE_CODES } from '@agent-contracts/validators';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/commands/index.ts';
import { CLI_CODES } from '../src/errors.ts';
import { repoRoot } from './helpers.ts';

const doc = readFileSync(join(repoRoot, 'docs/cli.md'), 'utf8');

describe('docs/cli.md', () => {
  it.each(Object.keys({ ...CLI_CODES, ...ISSUE_CODES }))('documents %s', (code) => {
    expect(doc).toContain(`\`${code}\``);
  });

  it.each(COMMANDS.map((c) => c.name))(
    'documents the %s command and every option of its --help',
    async (name) => {
      const entry = COMMANDS.find((c) => c.name === name)!;
      const command = await entry.load();
      // The top-level help shows the entry's summary without loading the command: the same words.
      expect(command.name).toBe(name);
      expect(entry.summary).toBe(command.summary);
      expect(doc).toContain(`## \`agent-contracts ${name}`);
      const options = [...command.help.matchAll(/(?<=\s)--[a-z-]+/g)].map((m) => m[0]);
      expect(options.length).toBeGreaterThan(0);
      for (const option of new Set(options)) expect(doc, option).toContain(`\`${option}`);
    },
  );
});
