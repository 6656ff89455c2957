// @module-tag integration
// @module-tag slow
// `agent-contracts conform` as a new user meets it: typos, filters that match nothing, a hello that
// fails, capabilities half declared, relative paths through `pnpm agent-contracts`, and progress
// a person can follow on a terminal and in a CI log. (Progress of a run of the reference
// implementation: test/integration/conform-ux.test.ts.)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { CaseResult } from '@agent-contracts/harness';
import { afterAll, describe, expect, it } from 'vitest';
import { suggestOption } from '../src/args.ts';
import { progressFor } from '../src/commands/conform/progress.ts';
import type { Io } from '../src/io.ts';
import { memoryIo, repoRoot, runCli, tempDir } from './helpers.ts';

const FAKE = join(repoRoot, 'packages/harness/test/fakes/fake-conform-impl.mjs');
const tmp = tempDir();
afterAll(() => tmp.cleanup());

describe('conform for a new user', () => {
  it('an unknown option names the closest known one', () => {
    const r = runCli(['conform', '--implementation', 'x']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      "USAGE_UNKNOWN_OPTION: Unknown option '--implementation'. Did you mean --impl?",
    );
    const v = runCli(['validate', '--max-byte', '10', 'x.json']);
    expect(v.stderr).toContain('Did you mean --max-bytes?');
    const far = runCli(['conform', '--zzzzqqq']);
    expect(far.stderr).not.toContain('Did you mean');
  });

  it('suggestOption: prefixes either way, small edits, nothing far off', () => {
    const known = ['impl', 'filter', 'no-faults', 'restart-budget', 'state-url'];
    expect(suggestOption('--implementation', known)).toBe('impl');
    expect(suggestOption('--filtr', known)).toBe('filter');
    expect(suggestOption('--no-fault', known)).toBe('no-faults');
    expect(suggestOption('--restart-budgt=3', known)).toBe('restart-budget');
    expect(suggestOption('--colour', known)).toBeNull();
  });

  it('a filter that matches nothing is echoed, with what ids look like', () => {
    const r = runCli(['conform', '--impl', 'true', '--filter', 'digest']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('no case or fault scenario matches --filter "digest"');
    expect(r.stderr).toContain('"digest/*"');
  });

  it('a conformance directory with no cases is CASES_INVALID saying so, not a filter problem', () => {
    const r = runCli(['conform', '--impl', 'true', '--conformance', join(tmp.dir, 'nothing-here')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('CASES_INVALID');
    expect(r.stderr).toContain('holds no cases');
  });

  it('a failed hello is reported once, with the field at fault, under the command it ran', () => {
    const impl = `node ${FAKE} bad-hello`;
    const r = runCli([
      'conform',
      '--impl',
      impl,
      '--filter',
      'validate/*',
      '--filter',
      'faults/store/stale-fence',
    ]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`Conformance of ${impl} (it never answered hello)`);
    const mentions = r.stdout.split('\n').filter((l) => l.includes('"version" is missing'));
    // Once in the explanation at the top, once as the one entry of "Not passing".
    expect(mentions).toHaveLength(2);
    expect(r.stdout).toMatch(/error {4}\d+ items alike, /);
    expect(r.stdout).not.toContain('Conformance of unknown');
  });

  it('a start that fails stops the run at once: no mark per case, its stderr on every report line', () => {
    const report = join(tmp.dir, 'no-start.jsonl');
    const r = runCli(['conform', '--impl', 'node no-such-impl.js', '--report', report]);
    expect(r.status).toBe(1);
    expect(r.stderr).not.toMatch(/EEEE|Golden cases|Fault matrix/);
    expect(r.stderr).toMatch(
      /The implementation could not be started: IMPL_EXITED: .*\nNo case was run: the \d+ items are errors in the report, each with the implementation's stderr\./,
    );
    expect(r.stdout).toContain('Cannot find module');
    const lines = readFileSync(report, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const items = lines.filter((l) => l.type === 'case');
    expect(items.length).toBeGreaterThan(1000);
    expect(items.some((l) => l.id.startsWith('faults/'))).toBe(true);
    for (const l of items) {
      expect(l.outcome).toBe('error');
      expect(l.stderrTail).toContain('Cannot find module');
    }
    expect(lines.at(-1).type).toBe('summary');
    expect(lines.at(-1).conforms).toBe(false);
  });

  it('starting up is held to --start-timeout, not to the deadline of one request', () => {
    const impl = `node ${FAKE} slow-hello`;
    // The fake answers hello after 1.5 s: within the default start deadline, although --timeout is 300 ms.
    const slow = runCli([
      'conform',
      '--impl',
      impl,
      '--no-faults',
      '--filter',
      'validate/IntentSeedV1/valid/*',
      '--timeout',
      '300',
    ]);
    expect(slow.status, slow.stdout + slow.stderr).toBe(0);
    const impatient = runCli([
      'conform',
      '--impl',
      impl,
      '--no-faults',
      '--filter',
      'validate/IntentSeedV1/valid/*',
      '--timeout',
      '300',
      '--start-timeout',
      '300',
    ]);
    expect(impatient.status).toBe(1);
    expect(impatient.stdout).toContain('IMPL_TIMEOUT: no reply to hello within 300 ms');
  });

  it('cases that need one more capability are named in the summary', () => {
    const r = runCli([
      'conform',
      '--impl',
      `node ${FAKE} checkpoint-no-clock`,
      '--no-faults',
      '--filter',
      'checkpoint/*',
    ]);
    expect(r.stdout).toContain('Not applicable only for want of one more capability:');
    expect(r.stdout).toMatch(
      /\d+ cases need checkpoint, which the implementation declares, and also clock, which it does not/,
    );
  });

  it('through `pnpm agent-contracts`, relative paths and the implementation resolve from where the user typed', () => {
    const here = join(tmp.dir, 'user-dir');
    mkdirSync(here, { recursive: true });
    writeFileSync(join(here, 'impl.mjs'), readFileSync(FAKE));
    const r = runCli(
      [
        'conform',
        '--impl',
        'node ./impl.mjs liar',
        '--no-faults',
        '--filter',
        'validate/IntentSeedV1/valid/*',
        '--report',
        'out.jsonl',
      ],
      { env: { npm_lifecycle_event: 'agent-contracts', INIT_CWD: here } },
    );
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(existsSync(join(here, 'out.jsonl'))).toBe(true);
    expect(existsSync(join(repoRoot, 'out.jsonl'))).toBe(false);
  });
});

describe('progress on a terminal', () => {
  it('draws a bar per phase with the running scenario, the elapsed time and an estimate', async () => {
    const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 160 });
    let text = '';
    stream.on('data', (d: Buffer) => {
      text += d.toString();
    });
    const io = { progressStream: stream, err: async () => {}, out: async () => {} } as unknown as Io;
    const p = progressFor(io);
    await p.phase('Fault matrix: 2 scenarios', 2);
    p.started('faults/store/stale-fence');
    await p.result({
      id: 'faults/store/stale-fence',
      gate: 'G',
      subject: 'S',
      level: 'MUST',
      outcome: 'fail',
      detail: 'x',
      durationMs: 1,
    });
    await p.endPhase();
    expect(text).toContain('Fault matrix: 2 scenarios');
    expect(text).toContain('running faults/store/stale-fence');
    expect(text).toMatch(/1\/2 {2}1 not passing {2}\S+ elapsed, ~\S+ left/);
  });
});

describe('progress in a log', () => {
  const item = (id: string, outcome: CaseResult['outcome']): CaseResult => ({
    id,
    gate: 'G',
    subject: 'fault-matrix',
    level: 'MUST',
    outcome,
    detail: 'x',
    durationMs: 100,
  });

  it('a fault scenario that does not apply is no line of its own: one line per undeclared capability at the end', async () => {
    const io = memoryIo();
    const lacks: Record<string, string[]> = {
      'faults/a': ['store'],
      'faults/c': ['store', 'clock'],
      'faults/d': [],
    };
    const p = progressFor(io, (r) => lacks[r.id] ?? []);
    await p.phase('Fault matrix: 4 scenarios', 4);
    await p.result(item('faults/a', 'not-applicable'));
    await p.result(item('faults/b', 'pass'));
    await p.result(item('faults/c', 'not-applicable'));
    await p.result(item('faults/d', 'not-applicable'));
    await p.endPhase();
    expect(io.stderr).toBe(
      [
        'Fault matrix: 4 scenarios',
        '  pass           faults/b (0.1 s) [2/4]',
        '  not-applicable 2 scenarios: capability "store" not declared',
        '  not-applicable 1 scenario: capability "clock" not declared',
        '  not-applicable 1 scenario: another reason (what each needs: "Not applicable" in the summary)',
        '',
      ].join('\n'),
    );
  });

  it('a golden case that does not apply is no mark: the marks count what applied, n/a is a line per capability', async () => {
    const io = memoryIo();
    const ids = Array.from({ length: 170 }, (_, i) => `digest/c${i}`);
    // Every other case needs the store; five of the last ten also a contract the implementation lacks.
    const lacks = (id: string) => {
      const i = Number(id.slice('digest/c'.length));
      return i % 2 ? [] : i >= 160 ? ['contracts', 'store'] : ['store'];
    };
    const p = progressFor(io, (r) => lacks(r.id));
    await p.phase('Golden cases: 170', 170);
    for (const id of ids) await p.result(item(id, lacks(id).length ? 'not-applicable' : 'pass'));
    await p.endPhase();
    expect(io.stderr).toBe(
      [
        'Golden cases: 170',
        `${'.'.repeat(80)} 160/170`,
        `${'.'.repeat(5)} 170/170`,
        '  not-applicable 5 cases: capability "contracts" does not list what they need',
        '  not-applicable 85 cases: capability "store" not declared (what each needs: "Not applicable" in the summary)',
        '',
      ].join('\n'),
    );
  });
});
