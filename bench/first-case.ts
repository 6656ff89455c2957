// pnpm bench first-case: how long the built `agent-contracts conform` takes from its start to
// the first case's request reaching the implementation (start-up, loading the cases and the kit,
// starting the implementation and its `hello`), against bare `node -e 0` and the implementation's
// own start, in interleaved rounds on this machine. The implementation is the smallest one
// (bench/fixtures/first-case-impl.mjs); the run has one case and no fault matrix.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_BIN, ensureBuilt, repo } from './_build.ts';
import { fmt, median } from './_stats.ts';

ensureBuilt();
const rounds = Number(process.env.BENCH_ROUNDS ?? 15);
const dir = mkdtempSync(join(tmpdir(), 'bench-first-case-'));
const impl = join(repo, 'bench/fixtures/first-case-impl.mjs');
const now = () => performance.timeOrigin + performance.now();

/** ms from spawning `conform` to the first case request at the implementation. */
async function firstCase(i: number): Promise<number> {
  const stamp = join(dir, `stamp-${i}`);
  const started = now();
  const child = spawn(
    process.execPath,
    [
      CLI_BIN,
      'conform',
      '--impl',
      `node ${impl} ${stamp}`,
      '--filter',
      'digest/jcs/jcs-rfc-3.2.2-primitives',
      '--no-faults',
      '--restart-budget',
      '0',
      '--no-color',
    ],
    { stdio: 'ignore' },
  );
  await new Promise((resolve) => child.on('exit', resolve));
  return Number(readFileSync(stamp, 'utf8').trim().split('\n')[0]) - started;
}

/** ms from spawning the implementation to its first case request (hello, then one request). */
async function implAlone(i: number): Promise<number> {
  const stamp = join(dir, `alone-${i}`);
  const started = now();
  const child = spawn(process.execPath, [impl, stamp], { stdio: ['pipe', 'ignore', 'ignore'] });
  child.stdin.write(
    `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'hello', params: { protocolVersion: 1, stateLocation: null, localDirectory: null } })}\n${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'digest', params: { json: '1' } })}\n`,
  );
  child.stdin.end();
  await new Promise((resolve) => child.on('exit', resolve));
  return Number(readFileSync(stamp, 'utf8').trim()) - started;
}

const node = () => {
  const t = now();
  spawnSync(process.execPath, ['-e', '0']);
  return now() - t;
};

const cli: number[] = [];
const alone: number[] = [];
const bare: number[] = [];
for (let i = 0; i < rounds; i++) {
  bare.push(node());
  alone.push(await implAlone(i));
  cli.push(await firstCase(i));
}
rmSync(dir, { recursive: true, force: true });
const c = median(cli);
console.log(`first-case benchmark (medians of ${rounds} interleaved rounds, wall ms)`);
console.log(`  agent-contracts conform, start to first case request   ${fmt(c, 0)} ms   (target < 500 ms)`);
console.log(`  the implementation alone, start to its first request   ${fmt(median(alone), 0)} ms`);
console.log(`  bare node -e 0                                          ${fmt(median(bare), 0)} ms`);
console.log(`  conform's own part (first case - implementation alone)  ${fmt(c - median(alone), 0)} ms`);
