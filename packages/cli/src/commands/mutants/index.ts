import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { printable, truncated } from '@agent-contracts/harness';
import { commandArgs, intOption } from '../../args.js';
import type { Command } from '../../command.js';
import { CliError } from '../../errors.js';
import type { Io } from '../../io.js';
import { invocationDirectory } from '../../io.js';
import { readManifests } from './manifest.js';
import { runOtelMutant } from './otel.js';
import { type MutantResult, runMutant } from './run.js';

const DEFAULT_DIR = fileURLToPath(new URL('../../../../../examples/broken/', import.meta.url));

const HELP = `Usage: agent-contracts mutants [options] <dir>

Prove the kit with broken implementations: every folder of <dir> with a mutant.json is an
implementation with one rule broken (docs/conformance-quality.md#the-manifest; in a checkout of
the kit, <dir> defaults to its examples/broken; an installed package has no default). The kit
runs against each, only on the golden cases and fault scenarios its mutant.json lists, and a
mutant is caught only when one of those ends as fail (not error, timeout or crash, and not
another case). A folder whose capability is otel holds a broken OpenTelemetry checker, an ES
module judged on the otel/... cases it lists. Prints a table and the mutation score, caught /
total (docs/conformance-quality.md).

Options:
  --jobs <n>        run n broken implementations in parallel (default 2)
  --timeout <ms>    deadline of one request, passed to conform (default 10000)
  -h, --help        show this help

Exit codes: 0 every broken implementation was caught (score 100%); 1 one survived or could not
be judged; 2 usage error (USAGE_MISSING_ARGUMENT: no <dir> where there is no default), or a
malformed mutant.json (MUTANTS_INVALID).
`;

const OPTIONS = {
  jobs: { type: 'string' },
  timeout: { type: 'string' },
} as const;

/** `items` through `work`, at most `jobs` at a time, results in input order. */
async function pool<T, R>(items: readonly T[], jobs: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, items.length) }, worker));
  return out;
}

const cell = (s: string, max: number) => printable(truncated(s, max));

/** The table row of one result, and the lines under it. */
function describe(r: MutantResult): string {
  const head = `${r.status.toUpperCase().padEnd(8)} ${cell(r.mutant.id, 48).padEnd(40)} ${r.mutant.capability.padEnd(12)} ${cell(r.mutant.rule, 200)}`;
  const lines = [head];
  if (r.caughtBy.length)
    lines.push(`         caught by: ${r.caughtBy.map((id) => cell(id, 160)).join(', ')}`);
  if (r.passed.length)
    lines.push(`         listed but passed: ${r.passed.map((id) => cell(id, 160)).join(', ')}`);
  if (r.other.length)
    lines.push(`         listed, neither pass nor fail: ${r.other.map((id) => cell(id, 160)).join(', ')}`);
  if (r.detail) lines.push(`         ${r.detail}`);
  return `${lines.join('\n')}\n`;
}

export const mutantsCommand: Command = {
  name: 'mutants',
  summary: 'run the kit against broken implementations and print the mutation score',
  help: HELP,
  async run(args: readonly string[], io: Io): Promise<number> {
    const parsed = await commandArgs(io, 'mutants', HELP, args, OPTIONS);
    if (!parsed) return 0;
    const { values, positionals } = parsed;
    if (positionals.length > 1)
      throw new CliError(
        'USAGE_BAD_VALUE',
        'mutants takes one directory. Run `agent-contracts mutants --help`.',
      );
    const jobs = intOption('jobs', values.jobs, 2, 1, 64);
    const timeout = intOption('timeout', values.timeout, 10_000, 100, 600_000);
    if (positionals[0] === undefined && !existsSync(DEFAULT_DIR))
      throw new CliError(
        'USAGE_MISSING_ARGUMENT',
        'name the directory of your broken implementations: `agent-contracts mutants <dir>`, a folder per implementation with a mutant.json (docs/conformance-quality.md#the-manifest). Only a checkout of the kit has a default (its examples/broken); the installed package holds none.',
      );
    const dir = positionals[0] === undefined ? DEFAULT_DIR : resolve(invocationDirectory(io), positionals[0]);
    const mutants = readManifests(dir);
    await io.err(`running the kit against ${mutants.length} broken implementations, ${jobs} at a time\n`);
    let done = 0;
    const results = await pool(mutants, jobs, async (m) => {
      const r = m.capability === 'otel' ? await runOtelMutant(m) : await runMutant(m, timeout);
      await io.err(`[${++done}/${mutants.length}] ${r.status} ${cell(m.id, 48)}\n`);
      return r;
    });
    for (const r of results) await io.out(describe(r));
    const caught = results.filter((r) => r.status === 'caught').length;
    const percent = Math.floor((caught / results.length) * 1000) / 10;
    const byCapability = new Map<string, number>();
    for (const r of results)
      byCapability.set(r.mutant.capability, (byCapability.get(r.mutant.capability) ?? 0) + 1);
    await io.out(
      `\nper capability: ${[...byCapability].map(([c, n]) => `${c} ${n}`).join(', ')}\n` +
        `mutation score: ${caught}/${results.length} caught (${percent}%)\n`,
    );
    return caught === results.length ? 0 : 1;
  },
};
