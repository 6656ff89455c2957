// @module-tag integration
// @module-tag slow
// `agent-contracts mutants` (packages/cli) over examples/broken (each the reference implementation,
// examples/reference-node, behind one hook): every broken implementation is caught by the cases
// its manifest lists (the mutation score CI holds at 100%), and the runner can report survival:
// an unmodified reference survives, and so does an implementation that only crashes.
import {
  cpSync,
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
import { repoRoot, runCli } from '../../tooling/test-helpers/run-cli.ts';

const fixtures = join(repoRoot, 'test/integration/fixtures/mutants');
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
        'otel',
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

  it('judges the broken OpenTelemetry checkers on their otel cases, from a directory of the user', () => {
    // The otel folders of examples/broken and their lib, copied where a user would keep them.
    const dir = join(temp, 'otel-checkers');
    const otel = manifests.filter((m) => m.capability === 'otel').map((m) => m.id);
    expect(otel.length).toBeGreaterThanOrEqual(5);
    for (const name of [...otel, 'lib']) cpSync(join(broken, name), join(dir, name), { recursive: true });
    const run = runCli(['mutants', dir]);
    const rows = run.stdout.split('\n').filter((l) => /^(CAUGHT|SURVIVED|ERROR) /.test(l));
    expect(rows.map((l) => l.split(/ +/).slice(0, 3).join(' ')).sort(), run.stdout + run.stderr).toEqual(
      otel.map((id) => `CAUGHT ${id} otel`).sort(),
    );
    expect(run.stdout).toMatch(/caught by: otel\/broken\/end-before-start$/m);
    expect(run.stdout).toContain(`per capability: otel ${otel.length}`);
    expect(run.stdout).toContain(`mutation score: ${otel.length}/${otel.length} caught (100%)`);
    expect(run.status, run.stderr).toBe(0);
  });

  it('an otel checker that is the reference survives; one that throws is no catch; a glob of no case is an error', () => {
    const dir = join(temp, 'otel-own');
    const write = (name: string, module: string, cases: string[]) => {
      mkdirSync(join(dir, name), { recursive: true });
      writeFileSync(join(dir, name, 'checker.mjs'), module);
      writeFileSync(
        join(dir, name, 'mutant.json'),
        JSON.stringify({
          capability: 'otel',
          rule: 'nothing is broken',
          spec: 'docs/spec/opentelemetry-mapping.md#mapping-rules',
          cases,
          impl: 'checker.mjs',
        }),
      );
    };
    write('reference', 'export const check = (requests, ref) => ref.checkRequests(requests);\n', [
      'otel/broken/tool-without-*',
    ]);
    write('throws', "export function check() { throw new Error('no verdict'); }\n", [
      'otel/broken/second-terminal',
    ]);
    write('no-such-case', 'export const check = (r, ref) => ref.checkRequests(r);\n', [
      'otel/broken/nothing-*',
    ]);
    const run = runCli(['mutants', dir]);
    expect(run.stdout).toMatch(/^SURVIVED +reference +otel +nothing is broken$/m);
    expect(run.stdout).toContain('listed but passed: otel/broken/tool-without-end');
    expect(run.stdout).toMatch(/^SURVIVED +throws /m);
    expect(run.stdout).toContain(
      'listed, neither pass nor fail: otel/broken/second-terminal (error: no verdict)',
    );
    expect(run.stdout).toMatch(/^ERROR +no-such-case /m);
    expect(run.stdout).toContain('no case of conformance/otel matches "otel/broken/nothing-*"');
    expect(run.stdout).toContain('mutation score: 0/3 caught (0%)');
    expect(run.status).toBe(1);
  });

  it('refuses an otel case listed for a protocol implementation, and a fault for an otel checker', () => {
    const dir = join(temp, 'otel-mixed', 'm');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'impl.mjs'), '');
    const manifest = (m: Record<string, unknown>) =>
      writeFileSync(
        join(dir, 'mutant.json'),
        JSON.stringify({ rule: 'r', spec: 'docs/spec/index.md#x', impl: 'impl.mjs', ...m }),
      );
    manifest({ capability: 'trace', cases: ['otel/broken/second-terminal'] });
    const protocol = runCli(['mutants', join(temp, 'otel-mixed')]);
    expect(protocol.stderr).toContain('MUTANTS_INVALID');
    expect(protocol.stderr).toContain('only an otel checker (capability "otel") runs');
    expect(protocol.status).toBe(2);
    manifest({ capability: 'otel', cases: ['otel/broken/*'], faults: ['faults/store/stale-fence'] });
    const checker = runCli(['mutants', join(temp, 'otel-mixed')]);
    expect(checker.stderr).toContain('an otel checker runs no fault scenario');
    expect(checker.status).toBe(2);
  });

  it('refuses a directory without manifests with MUTANTS_INVALID (exit 2)', () => {
    const dir = join(temp, 'empty');
    mkdirSync(dir);
    const run = runCli(['mutants', dir]);
    expect(run.stderr).toContain('MUTANTS_INVALID');
    expect(run.status).toBe(2);
  });
});
