/** The built CLI (packages/*\/dist) that the cold-start benchmarks run, built when missing. */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repo = fileURLToPath(new URL('../', import.meta.url));
/** `node <this>` is the CLI as a user's npm install runs it. */
export const CLI_BIN = join(repo, 'packages/cli/bin/agent-contracts.js');

/**
 * Build every package (turbo: unchanged packages come from its cache) unless `--no-build` was
 * given; a missing build is always made. The measurement is of the sources as they are now.
 */
export function ensureBuilt(): void {
  const missing = !existsSync(join(repo, 'packages/cli/dist/bin.mjs'));
  if (!missing && process.argv.includes('--no-build')) return;
  console.log('building the packages (pnpm build; --no-build skips it when a build exists) ...');
  execFileSync('corepack', ['pnpm', 'build'], { cwd: repo, stdio: ['ignore', 'ignore', 'inherit'] });
}
