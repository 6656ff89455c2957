import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseReport, printable, truncated } from '@agent-contracts/harness';
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

// This CLI's own entry point, run the way this process runs (from source under tsx, or built).
const BIN = fileURLToPath(new URL(`../../bin${extname(fileURLToPath(import.meta.url))}`, import.meta.url));

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

function conform(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [...process.execArgv, BIN, 'conform', ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < 64 * 1024) stderr += d.toString('utf8');
    });
    child.on('close', (code) => done({ code, stderr }));
  });
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
