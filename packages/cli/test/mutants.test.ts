// `agent-contracts mutants`: every broken implementation in examples/broken is caught by the cases
// its manifest lists (the mutation score CI holds at 100%), and the runner can report survival:
// an unmodified reference survives, and so does an implementation that only crashes.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from './helpers.ts';

const fixtures = join(repoRoot, 'packages/cli/test/fixtures/mutants');
// Safety nets only: the machine may be shared and slow; nothing asserts a duration. A generous
// request deadline keeps a slow start from ending a listed case as timeout instead of fail, and
// one job at a time leaves the other test files of the suite their share of the machine.
const WHOLE_RUN = 20 * 60_000;
const temp = mkdtempSync(join(tmpdir(), 'ac-mutants-test-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const broken = join(repoRoot, 'examples/broken');
const manifests = readdirSync(broken)
  .filter((n) => existsSync(join(broken, n, 'mutant.json')))
  .map((n) => ({ id: n, ...JSON.parse(readFileSync(join(broken, n, 'mutant.json'), 'utf8')) }));

describe('the figures of docs/conformance-quality.md and the README', () => {
  const quality = readFileSync(join(repoRoot, 'docs/conformance-quality.md'), 'utf8');
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const total = manifests.length;

  it('count the broken implementations of examples/broken, per capability and in all', () => {
    expect(total).toBeGreaterThanOrEqual(24);
    expect(quality).toContain(`**${total} of ${total} broken implementations caught: mutation score 100%.**`);
    expect(quality).toContain(`| total | ${total} |`);
    const per = new Map<string, number>();
    for (const m of manifests) per.set(m.capability, (per.get(m.capability) ?? 0) + 1);
    for (const [capability, n] of per) expect(quality).toContain(`| ${capability} | ${n} |`);
    for (const m of manifests) expect(quality).toContain(`[${m.id}](../examples/broken/${m.id})`);
    expect(readme).toContain(`Mutation score: **100%** (${total} of ${total} broken implementations`);
  });
});

describe('agent-contracts mutants', () => {
  it(
    'catches every broken implementation of examples/broken by its listed cases: score 100%',
    () => {
      const run = runCli(['mutants', '--jobs', '1', '--timeout', '60000'], { timeoutMs: WHOLE_RUN });
      const rows = run.stdout.split('\n').filter((l) => /^(CAUGHT|SURVIVED|ERROR) /.test(l));
      expect(rows.length, run.stdout + run.stderr).toBeGreaterThanOrEqual(24);
      expect(
        rows.filter((l) => !l.startsWith('CAUGHT ')),
        run.stdout,
      ).toEqual([]);
      expect(run.stdout).toMatch(
        new RegExp(`mutation score: ${rows.length}/${rows.length} caught \\(100%\\)`),
      );
      for (const capability of [
        'digest',
        'validate',
        'bundles',
        'store',
        'liveness',
        'checkpoint',
        'trace',
        'crash-points',
        'policy',
        'delegation',
        'context',
      ])
        expect(run.stdout).toMatch(new RegExp(`per capability: .*\\b${capability} [1-9]`));
      expect(run.status, run.stderr).toBe(0);
    },
    WHOLE_RUN,
  );

  it(
    'reports the unmodified reference as survived, with its listed cases that passed, and exits 1',
    () => {
      const run = runCli(['mutants', '--timeout', '60000', fixtures], { timeoutMs: 5 * 60_000 });
      expect(run.stdout).toMatch(/^SURVIVED +unmodified +digest +nothing is broken$/m);
      const passed = /^ +listed but passed: (.*)$/m.exec(run.stdout)?.[1]?.split(', ');
      expect(passed?.sort()).toEqual(['digest/jcs/jcs-negative-zero', 'digest/jcs/jcs-rfc-3.2.3-sorting']);
      // A crash is not a catch: the implementation that never answers survives too.
      expect(run.stdout).toMatch(/^SURVIVED +dies-at-start /m);
      expect(run.stdout).toMatch(
        /listed, neither pass nor fail: digest\/jcs\/jcs-negative-zero \((crash|error)\)$/m,
      );
      expect(run.stdout).toContain('mutation score: 0/2 caught (0%)');
      expect(run.status).toBe(1);
    },
    5 * 60_000,
  );

  it('refuses a malformed mutant.json with MUTANTS_INVALID naming the field (exit 2)', () => {
    const dir = join(temp, 'malformed', 'm');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'impl.mjs'), '');
    writeFileSync(
      join(dir, 'mutant.json'),
      JSON.stringify({
        capability: 'digest',
        rule: 'r',
        spec: 'docs/spec/index.md#x',
        cases: ['faults/store/stale-fence'],
        impl: 'impl.mjs',
      }),
    );
    const run = runCli(['mutants', join(temp, 'malformed')]);
    expect(run.stderr).toContain('MUTANTS_INVALID');
    expect(run.stderr).toContain('belongs in "faults"');
    expect(run.status).toBe(2);
  });

  it('refuses a directory without manifests with MUTANTS_INVALID (exit 2)', () => {
    const dir = join(temp, 'empty');
    mkdirSync(dir);
    const run = runCli(['mutants', dir]);
    expect(run.stderr).toContain('MUTANTS_INVALID');
    expect(run.status).toBe(2);
  });
});
