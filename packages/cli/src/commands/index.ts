import type { Command } from '../command.js';
import { baselineCommand } from './baseline/index.js';
import { conformCommand } from './conform/index.js';
import { diffCommand } from './diff/index.js';
import { matrixCommand } from './matrix/index.js';
import { mutantsCommand } from './mutants/index.js';
import { reportCommand } from './report/index.js';
import { schemaDiffCommand } from './schema-diff/index.js';
import { validateCommand } from './validate/index.js';

/** Every command, by name. */
export const COMMANDS: readonly Command[] = [
  validateCommand,
  conformCommand,
  baselineCommand,
  reportCommand,
  matrixCommand,
  diffCommand,
  schemaDiffCommand,
  mutantsCommand,
];
