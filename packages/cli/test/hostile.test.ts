// Hostile implementations, end to end through `agent-contracts conform`: each is the reference
// implementation behind a proxy that tampers with the wire (test/fakes/hostile-proxy.mjs of the
// harness). Whatever the real implementation answered, none of them may conform, hang the run,
// crash the harness, write into its terminal, outlive it or read its secrets.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseReport } from '@agent-contracts/harness';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { repoRoot, runCli, tempDir } from './helpers.js';

const PROXY = join(repoRoot, 'packages/harness/test/fakes/hostile-proxy.mjs');
const REFERENCE = `node --conditions=@agent-contracts/source --import tsx ${join(repoRoot, 'examples/reference-node/src/main.ts')}`;
const proxied = (mode: string, file = '') => `node ${PROXY} ${mode} ${file} -- ${REFERENCE}`;
const CASES = 'validate/TaskRecoveryCommitFenceV1/*';
const tmp = tempDir();
afterAll(() => tmp.cleanup());

/** Run conform and parse its report. */
function conform(impl: string, ...args: string[]) {
  const report = join(tmp.dir, `r-${Math.random().toString(36).slice(2)}.jsonl`);
  const run = runCli(['conform', '--impl', impl, '--report', report, ...args]);
  return { ...run, report: parseReport(readFileSync(report, 'utf8')) };
}

/** Whether a process is running (a zombie, dead but not yet reaped by its new parent, is not). */
const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

describe('a hostile implementation never conforms', () => {
  it('the reference implementation through a proxy that tampers with nothing conforms (the control)', () => {
    const r = conform(proxied('none'), '--no-faults', '--filter', CASES);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.report.cases.every((c) => c.outcome === 'pass')).toBe(true);
  });

  it.each([
    ['double', 'IMPL_UNKNOWN_ID'],
    ['forged', 'IMPL_GARBAGE_OUTPUT'],
    ['late-double', 'IMPL_UNKNOWN_ID'],
    ['trailing-garbage', 'IMPL_GARBAGE_OUTPUT'],
  ])('%s replies: protocol violations fail the run, whenever they happen (%s)', (mode, code) => {
    const r = conform(proxied(mode), '--no-faults', '--filter', CASES);
    expect(r.status, r.stdout).toBe(1);
    expect(r.stdout).toContain('DOES NOT CONFORM');
    expect(r.report.summary?.conforms).toBe(false);
    const bad = r.report.cases.filter((c) => c.outcome === 'error');
    expect(bad.length).toBeGreaterThan(0);
    expect(bad.every((c) => c.detail.includes(code))).toBe(true);
    if (mode === 'trailing-garbage') {
      // The garbage comes after the last case, in reply to shutdown: charged to the last case.
      expect(r.report.cases.at(-1)!.outcome).toBe('error');
    } else if (mode === 'late-double') {
      // Each duplicate arrives while the next case runs: charged to that case, never lost.
      expect(r.report.cases.slice(1).every((c) => c.outcome === 'error')).toBe(true);
    } else expect(r.report.cases.some((c) => c.outcome === 'pass')).toBe(false);
  });

  it('double replies in the fault matrix: a scenario whose processes violate the protocol does not pass', () => {
    const r = conform(proxied('double'), '--filter', 'faults/store/stale-fence');
    expect(r.status, r.stdout).toBe(1);
    const [scenario] = r.report.cases;
    expect(scenario!.outcome).toBe('error');
    expect(scenario!.detail).toContain('IMPL_UNKNOWN_ID');
  });

  it('a reply nested 5000 deep ends its case as error; the run goes on and writes its report', () => {
    const r = conform(proxied('deep'), '--no-faults', '--filter', CASES);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).not.toContain('CLI_INTERNAL_ERROR');
    expect(r.report.cases).toHaveLength(13);
    expect(r.report.cases.every((c) => c.outcome === 'error')).toBe(true);
    expect(r.report.cases[0]!.detail).toContain('IMPL_OVERSIZED_OUTPUT');
  });

  it('a reply nested 5000 deep in a fault scenario ends it as error', () => {
    const r = conform(proxied('deep'), '--filter', 'faults/store/stale-fence');
    expect(r.status, r.stderr).toBe(1);
    expect(r.report.cases[0]!.outcome).toBe('error');
  });

  it('terminal escapes in hello and messages are shown, never interpreted', () => {
    const r = conform(proxied('evil-hello'), '--no-faults', '--filter', CASES);
    expect(r.status).toBe(0);
    const controls = [...r.stdout].filter((c) => {
      const n = c.codePointAt(0)!;
      return (n < 0x20 && c !== '\n') || (n >= 0x7f && n <= 0x9f) || n === 0x202e;
    });
    expect(controls).toEqual([]);
    expect(r.stdout).toContain('Conformance of ref\\u001b[2K\\u000d\\u000a1110 pass');
    expect(r.stdout.split('\n').filter((l) => l === 'CONFORMS')).toHaveLength(1);
  });

  it('a flood of garbage on stdout and stderr is bounded: the harness stays small and the run fails', () => {
    const r = runCli(['conform', '--impl', proxied('flood'), '--no-faults', '--filter', CASES], {
      nodeOptions: ['--max-old-space-size=128'],
    });
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toContain('IMPL_GARBAGE_OUTPUT');
    expect(r.stdout).toContain('DOES NOT CONFORM');
  });
});

describe('the implementation does not outlive the run or read its secrets', () => {
  it('a child left in its process group is killed at the end of the session', () => {
    const pidFile = join(tmp.dir, 'grandchild.pid');
    const r = conform(proxied('grandchild', pidFile), '--no-faults', '--filter', CASES);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(alive(pid)).toBe(false);
  });

  it('a grandchild that left the process group and holds stdout open does not keep the harness alive', () => {
    const pidFile = join(tmp.dir, 'escaped.pid');
    try {
      // Before the fix this run never ended: runCli's 120 s timeout would kill it (status null).
      const r = conform(proxied('escaped', pidFile), '--no-faults', '--filter', CASES);
      expect(r.status, r.stdout + r.stderr).toBe(0);
    } finally {
      const pid = Number(readFileSync(pidFile, 'utf8'));
      if (pid && alive(pid)) process.kill(pid, 'SIGKILL');
    }
  });

  it('inherits a minimal environment; --env passes more', () => {
    const envFile = join(tmp.dir, 'env.json');
    const secret = { AGENT_CONTRACTS_TEST_SECRET: 'hunter2' };
    const base = runCli(['conform', '--impl', proxied('env', envFile), '--no-faults', '--filter', CASES], {
      env: secret,
    });
    expect(base.status, base.stderr).toBe(0);
    const seen = JSON.parse(readFileSync(envFile, 'utf8')) as Record<string, string>;
    expect(seen.AGENT_CONTRACTS_TEST_SECRET).toBeUndefined();
    expect(seen.PATH).toBe(process.env.PATH);
    writeFileSync(envFile, '{}');
    const passed = runCli(
      [
        'conform',
        '--impl',
        proxied('env', envFile),
        '--no-faults',
        '--filter',
        CASES,
        '--env',
        'AGENT_CONTRACTS_TEST_SECRET',
        '--env',
        'EXTRA=a=b',
      ],
      { env: secret },
    );
    expect(passed.status, passed.stderr).toBe(0);
    const more = JSON.parse(readFileSync(envFile, 'utf8')) as Record<string, string>;
    expect(more.AGENT_CONTRACTS_TEST_SECRET).toBe('hunter2');
    expect(more.EXTRA).toBe('a=b');
  });

  it('--env with a malformed name is a usage error', () => {
    const r = runCli(['conform', '--impl', 'true', '--env', '1X=y']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('USAGE_BAD_VALUE');
  });
});

describe('an interrupted run', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    '%s: the implementation is killed, temporary state removed, what finished kept (exit %i)',
    async (signal, exitCode) => {
      const dir = join(tmp.dir, signal);
      mkdirSync(join(dir, 'tmp'), { recursive: true });
      const pidFile = join(dir, 'impl.pid');
      // Answers hello and two validate requests, then hangs: the run waits on the third case.
      const fake = join(dir, 'hang-third.mjs');
      writeFileSync(
        fake,
        `import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));
let n = 0;
const caps = { contracts: ['TaskRecoveryCommitFenceV1'], bundles: [], digest: false, store: false, liveness: false, checkpoint: false, trace: false, clock: false, crashPoints: [] };
createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, method } = JSON.parse(line);
  const reply = (result) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result }) + '\\n');
  if (method === 'hello') return reply({ name: 'hang-third', version: '1', language: 'js', protocolVersion: 1, capabilities: caps });
  if (++n <= 2) return reply({ ok: false, issues: [] });
});
`,
      );
      const report = join(dir, 'run.jsonl');
      const child = spawn(
        process.execPath,
        [
          '--conditions=@agent-contracts/source',
          '--import',
          'tsx',
          join(repoRoot, 'packages/cli/src/bin.ts'),
          'conform',
          '--impl',
          `node ${fake}`,
          '--timeout',
          '600000',
          '--no-faults',
          '--filter',
          CASES,
          '--report',
          report,
        ],
        { cwd: repoRoot, env: { ...process.env, TMPDIR: join(dir, 'tmp'), NO_COLOR: '1' } },
      );
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      // Two cases finished (their progress marks are out), the third waits on the hanging reply.
      await vi.waitFor(() => expect(stderr).toMatch(/^Golden cases: 13\n[.F]{2}/), { timeout: 60_000 });
      child.kill(signal);
      expect(await exited).toBe(exitCode);
      expect(stderr).toContain(`interrupted by ${signal} after 2 of 13 items`);
      expect(alive(Number(readFileSync(pidFile, 'utf8')))).toBe(false);
      expect(readdirSync(join(dir, 'tmp')).filter((n) => n.startsWith('agent-contracts-state-'))).toEqual([]);
      const lines = readFileSync(report, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines.map((l) => l.type)).toEqual(['run', 'case', 'case', 'interrupted']);
      expect(lines[3]).toMatchObject({ type: 'interrupted', signal, finished: 2, total: 13 });
      expect(stderr).toContain('marked interrupted');
    },
  );
});
