// Colour decision, in order: --no-color, --color, NO_COLOR (non-empty, https://no-color.org),
// FORCE_COLOR (non-empty and not "0"), then whether stdout is a terminal.
import type { Io } from './io.js';

/** ANSI painter; the identity when colour is off. */
export interface Paint {
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

/** Whether to colour output, given the `--color` / `--no-color` flag (if any). */
export function useColor(io: Io, flag: boolean | undefined): boolean {
  if (flag !== undefined) return flag;
  if (io.env.NO_COLOR) return false;
  const force = io.env.FORCE_COLOR;
  if (force !== undefined && force !== '' && force !== '0') return true;
  return io.stdoutIsTty;
}

/** A painter that colours only when `on`. */
export function painter(on: boolean): Paint {
  const wrap = (open: number, close: number) => (s: string) => (on ? `\x1b[${open}m${s}\x1b[${close}m` : s);
  return {
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    dim: wrap(2, 22),
    bold: wrap(1, 22),
  };
}
