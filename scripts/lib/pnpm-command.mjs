// How to run pnpm from a script: the pnpm that runs this script (npm_execpath, set by pnpm for
// its scripts) or, started outside pnpm, `corepack pnpm`. Never a global `pnpm`, which corepack
// alone does not install.
export function pnpmCommand() {
  const execpath = process.env.npm_execpath;
  return execpath && /pnpm(\.c?js)?$/.test(execpath)
    ? { command: process.execPath, args: [execpath] }
    : { command: 'corepack', args: ['pnpm'] };
}
