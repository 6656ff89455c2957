import type { Command } from '../command.js';
import { validateCommand } from './validate/index.js';

/** Every command, by name. */
export const COMMANDS: readonly Command[] = [validateCommand];
