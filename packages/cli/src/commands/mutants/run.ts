import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { parseReport, printable, truncated } from '@agent-contracts/harness';
import type { Io } from '../../io.js';
import { conformCommand } from '../conform/index.js';
import type { MutantManifest } from './manifest.js';

/** What became of one broken implementation. */
export interface MutantResult {
  readonly mutant: MutantManifest;
  /** caught: a listed case failed; survived: none did; error: the kit could not judge it. */
  readonly status: 'caught' | 'survived' | 'error';
  /** Listed cases and scenarios whose outcome is `fail`. */
  readonly caughtBy: readonly string[];
  /** Listed cases and scenarios that passed: they do not see the break. */
  readonly passed: readonly string[];
  /** Listed cases that ended otherwise, with the outcome (error, timeout, crash, not-applicable): they count for nothing. */
  readonly other: readonly string[];
  /** Why the status is `error`. */
  readonly detail: string | null;
}

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/** Nothing to read: conform never reads standard input. */
const noInput = () => Readable.from([]);

/**
 * `agent-contracts conform` with these arguments, in this process: its report is the result, its
 * stdout is dropped and the tail of its stderr kept for an error. In process rather than as a
 * child, so that the modules and the compiled message schemas are loaded once for every broken
 * implementation (a child per implementation spent about 2 s of CPU starting the kit each time).
 */
async function conform(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  const io: Io = {
    out: async () => {},
    err: async (text) => {
      if (stderr.length < 64 * 1024) stderr += text;
    },
    stdin: noInput(),
    env: { ...process.env, NO_COLOR: '1' },
    stdoutIsTty: false,
  };
  try {
    return { code: await conformCommand.run(args, io), stderr };
  } catch (e) {
    return { code: null, stderr: `${stderr}${(e as Error).message}` };
  }
}

/**
 * Run the kit against one broken implementation: only the cases and fault scenarios it lists
 * (`conform --filter`), and judge it from the report's case lines, never from the exit code alone.
 */
export async function runMutant(mutant: MutantManifest, timeoutMs: number): Promise<MutantResult> {
  const work = mkdtempSync(join(tmpdir(), 'ac-mutant-'));
  const result = (status: MutantResult['status'], rest: Partial<MutantResult> = {}): MutantResult => ({
    mutant,
    status,
    caughtBy: [],
    passed: [],
    other: [],
    detail: null,
    ...rest,
  });
  try {
    const report = join(work, 'report.jsonl');
    const impl = `${quote(process.execPath)} ${quote(resolve(mutant.folder, mutant.impl))}`;
    const filters = [...mutant.cases, ...mutant.faults].flatMap((g) => ['--filter', g]);
    const run = await conform([
      '--impl',
      impl,
      ...filters,
      '--report',
      report,
      '--state',
      join(work, 'state'),
      '--timeout',
      String(timeoutMs),
      '--no-color',
    ]);
    if (run.code !== 0 && run.code !== 1) {
      const why = run.stderr.trim().split('\n').slice(-3).join(' ');
      return result('error', { detail: `conform exited ${run.code}: ${printable(truncated(why, 400))}` });
    }
    let text: string;
    try {
      text = readFileSync(report, 'utf8');
    } catch {
      return result('error', { detail: 'conform wrote no report' });
    }
    const parsed = parseReport(text, report);
    if (parsed.summary === null) return result('error', { detail: 'the report has no summary line' });
    const ids = (outcome: (o: string) => boolean) =>
      parsed.cases.filter((c) => outcome(c.outcome)).map((c) => c.id);
    const caughtBy = ids((o) => o === 'fail');
    const passed = ids((o) => o === 'pass');
    const other = parsed.cases
      .filter((c) => c.outcome !== 'fail' && c.outcome !== 'pass')
      .map((c) => `${c.id} (${c.outcome})`);
    return result(caughtBy.length > 0 ? 'caught' : 'survived', { caughtBy, passed, other });
  } catch (e) {
    return result('error', { detail: printable(truncated((e as Error).message, 400)) });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
