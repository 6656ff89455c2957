// `pnpm bench <name>`: runs bench/<name>.ts. Benchmarks print ratios measured side by side in one
// run; they are not tests and assert nothing about timings.
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const name = process.argv[2];
const dir = fileURLToPath(new URL('.', import.meta.url));
const available = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts')
  .map((f) => f.slice(0, -3));
if (!name || !available.includes(name) || !existsSync(`${dir}${name}.ts`)) {
  process.stderr.write(`usage: pnpm bench <name>\navailable: ${available.join(', ') || '(none)'}\n`);
  process.exit(2);
}
await import(pathToFileURL(`${dir}${name}.ts`).href);
