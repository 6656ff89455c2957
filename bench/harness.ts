// pnpm bench harness: the per-step overhead of a conformance run against examples/reference-node,
// as a ratio to a raw NDJSON ping-pong of the same requests with the same child process, in the
// same run; and the wall time of the whole suite.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  FAULT_KIND_NAMES,
  loadCases,
  loadFaultScenarios,
  PROTOCOL_VERSION,
  resolveRefs,
  runFaultMatrix,
  runSuite,
  startSubprocess,
} from '@agent-contracts/harness';
import { fmt, median } from './_stats.ts';

const repo = fileURLToPath(new URL('../', import.meta.url));
const conformanceDir = `${repo}conformance/`;
// The reference as the main job starts it (its bundle, scripts/bundle-reference.mjs), or from its
// sources through tsx with --from-source.
const command = process.argv.includes('--from-source')
  ? `node --conditions=@agent-contracts/source --import tsx ${repo}examples/reference-node/src/main.ts`
  : `node ${execFileSync(process.execPath, [`${repo}scripts/bundle-reference.mjs`, '--quiet'], { encoding: 'utf8' }).trim()}`;
const cases = loadCases(conformanceDir);
const requests = cases.flatMap((c) =>
  c.steps.map((s) => ({ method: s.method, params: resolveRefs(s.params, conformanceDir) })),
);

/** Raw ping-pong: write a line, wait for the line back; nothing else. */
async function raw(rounds: number): Promise<number[]> {
  const child = spawn(command, { shell: true, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const waiting: Array<(l: string) => void> = [];
  lines.on('line', (l) => waiting.shift()?.(l));
  let id = 0;
  const call = (method: string, params: unknown) =>
    new Promise<string>((resolve) => {
      waiting.push(resolve);
      child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params })}\n`);
    });
  await call('hello', { protocolVersion: PROTOCOL_VERSION, stateLocation: null });
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t = performance.now();
    for (const q of requests) await call(q.method, q.params);
    times.push((performance.now() - t) / requests.length);
  }
  child.kill('SIGKILL');
  return times;
}

/** The harness: runSuite over the same cases (ref resolution, ids, deadlines, judging). */
async function harness(rounds: number): Promise<number[]> {
  const impl = await startSubprocess({ command, stateLocation: null });
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t = performance.now();
    const results = await runSuite(impl, cases, { conformanceDir, timeoutMs: 10_000, restartBudget: 0 });
    times.push((performance.now() - t) / requests.length);
    if (results.some((x) => x.outcome !== 'pass'))
      throw new Error('the reference implementation failed a case');
  }
  await impl.close();
  return times;
}

const rounds = 5;
// Interleave to spread machine noise over both sides.
const rawTimes: number[] = [];
const harnessTimes: number[] = [];
for (let i = 0; i < rounds; i++) {
  rawTimes.push(...(await raw(1)));
  harnessTimes.push(...(await harness(1)));
}
const wallStart = performance.now();
const impl = await startSubprocess({ command, stateLocation: null });
await runSuite(impl, cases, { conformanceDir, timeoutMs: 10_000, restartBudget: 0 });
await impl.close();
const wall = performance.now() - wallStart;

// The fault matrix, as `conform` runs it after the golden cases (one scenario at a time, then two,
// as `pnpm conformance` runs it).
const scenarios = loadFaultScenarios(conformanceDir, FAULT_KIND_NAMES);
async function faultMatrix(jobs: number): Promise<number> {
  const state = mkdtempSync(join(tmpdir(), 'bench-faults-'));
  const t = performance.now();
  const results = await runFaultMatrix(scenarios, {
    command,
    stateLocation: state,
    timeoutMs: 20_000,
    conformanceDir,
    jobs,
  });
  const ms = performance.now() - t;
  rmSync(state, { recursive: true, force: true });
  const bad = results.filter((x) => x.outcome !== 'pass' && x.outcome !== 'not-applicable');
  if (bad.length) throw new Error(`the reference implementation failed ${bad.map((x) => x.id).join(', ')}`);
  return ms;
}
const faults1 = await faultMatrix(1);
const faults2 = await faultMatrix(2);

const r = median(rawTimes);
const h = median(harnessTimes);
console.log(`harness benchmark: ${cases.length} cases, ${requests.length} steps, ${rounds} rounds (medians)`);
console.log(`  raw NDJSON ping-pong, same requests, same process   ${fmt(r * 1000, 1)} µs/step`);
console.log(`  conformance run (runSuite)                            ${fmt(h * 1000, 1)} µs/step`);
console.log(`  ratio harness / raw                                   ${fmt(h / r)}x   (target <= 1.5x)`);
console.log(`  whole suite wall time without faults (--no-faults)    ${fmt(wall / 1000)} s`);
console.log(
  `  ${`fault matrix (${scenarios.length} scenarios), --jobs 1`.padEnd(54)}${fmt(faults1 / 1000)} s`,
);
console.log(`  fault matrix, --jobs 2                                ${fmt(faults2 / 1000)} s`);
console.log(
  `  whole suite wall time with faults (--jobs 1)          ${fmt((wall + faults1) / 1000)} s (${fmt((wall + faults1) / wall)}x the golden cases alone)`,
);
