// @module-tag integration
// @module-tag slow
// The independent Python implementation through a real `agent-contracts conform` run, faults
// included: every case and fault scenario of what it declares (digest, clock, store, liveness,
// checkpoint, trace, both crash points, and `validate` / `validateBundle` for the contracts and
// bundle kinds it lists) passes, and nothing else is counted. It is written from docs/ alone, so
// this is the check that the spec, not the reference code, defines the behaviour
// (examples/python-reference/SPEC-GAPS.md lists where docs/ was not enough).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCases, parseReport } from '@agent-contracts/harness';
import { CREDENTIAL_VALUE_SHAPES } from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../tooling/test-helpers/run-cli.ts';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const DIR = join(repo, 'examples/python-reference');
const IMPL = join(DIR, 'impl.py');

// What it declares for `validate` and `validateBundle` (agent_ref/validate.py RULE_MODULES): every
// contract of the catalogue (schemas/index.json) and every bundle kind of conformance/bundles,
// each because its module implements every rule code of docs/rules.md for it.
const CONTRACTS = (
  JSON.parse(readFileSync(join(repo, 'schemas/index.json'), 'utf8')).schemas as { name: string }[]
)
  .map((s) => s.name)
  .sort();
const BUNDLES = readdirSync(join(repo, 'conformance/bundles'), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();
const declaredCase = (id: string) =>
  CONTRACTS.some((c) => id.startsWith(`validate/${c}/`)) ||
  BUNDLES.some((k) => id.startsWith(`bundle/${k}/`));

// The capability tokens each golden case requires (docs/protocol.md, golden cases).
const REQUIRES = new Map(loadCases(join(repo, 'conformance')).map((c) => [c.id, c.requires]));

// What needs a capability this implementation does not declare: `validate` / `validateBundle` of
// the other contracts and bundle kinds (contract:<Name>, bundle:<kind>), the PostgreSQL-only
// fault scenario, and the cases of a capability added to the protocol after this implementation
// was written, until it declares it (a boolean token its `hello` does not set: the tests above
// it hold every capability it does declare).
const undeclared = (id: string, capabilities: Record<string, unknown>) =>
  ((id.startsWith('validate/') || id.startsWith('bundle/')) && !declaredCase(id)) ||
  id === 'faults/field/pg-connections-dropped' ||
  (REQUIRES.get(id) ?? []).some((t) => !t.includes(':') && capabilities[t] !== true);

describe('examples/python-reference (Python, standard library and the pinned jsonschema, written from docs/)', () => {
  it('passes every golden case and fault scenario of what it declares; nothing fails', () => {
    // `pnpm test` runs this implementation once, for docs/compatibility.md (scripts/test.mjs), and
    // hands its report and output here; run alone, the test runs conform itself.
    const shared = process.env.AGENT_CONTRACTS_COMPAT_REPORTS;
    const reused = shared && existsSync(join(shared, 'python-reference.jsonl')) ? shared : null;
    let report = join(mkdtempSync(join(tmpdir(), 'py-reference-')), 'report.jsonl');
    let output: string;
    if (reused) {
      report = join(reused, 'python-reference.jsonl');
      output = readFileSync(join(reused, 'python-reference.out'), 'utf8');
    } else {
      const r = runCli(['conform', '--impl', `python3 ${IMPL}`, '--report', report], { timeoutMs: 600_000 });
      output = `${r.stdout}\n${r.stderr}`;
      expect(r.status, output).toBe(0);
    }
    expect(output).toContain('CONFORMS');
    const { run, cases, summary } = parseReport(readFileSync(report, 'utf8'));
    expect(run.implementation.language).toBe('python');
    expect(run.implementation.capabilities).toMatchObject({
      contracts: CONTRACTS,
      bundles: BUNDLES,
      digest: true,
      store: true,
      liveness: true,
      checkpoint: true,
      trace: true,
      clock: true,
      crashPoints: ['commit-before-write', 'commit-after-write'],
    });
    // The optional capabilities (PROTO-600), written from their pages: declared, and every case passes.
    expect(run.implementation.capabilities).toMatchObject({
      run: true,
      policy: true,
      delegation: true,
      context: true,
    });
    for (const area of ['run/', 'policy/', 'delegation/', 'context/']) {
      const ofArea = cases.filter((c) => c.id.startsWith(area));
      expect(ofArea.length, area).toBeGreaterThan(10);
      expect(ofArea.filter((c) => c.outcome !== 'pass').map((c) => c.id)).toEqual([]);
    }
    const notPassing = cases.filter((c) => c.outcome !== 'pass' && c.outcome !== 'not-applicable');
    expect(notPassing.map((c) => `${c.id}: ${c.outcome}: ${c.detail}`)).toEqual([]);
    // Not applicable is only what needs an undeclared capability: every declared area ran.
    const declared = run.implementation.capabilities as Record<string, unknown>;
    expect(
      cases.filter((c) => c.outcome === 'not-applicable' && !undeclared(c.id, declared)).map((c) => c.id),
    ).toEqual([]);
    // Every validate and bundle case of what it declares ran and passed.
    const judged = cases.filter((c) => declaredCase(c.id));
    expect(judged.length).toBe(
      cases.filter((c) => c.id.startsWith('validate/') || c.id.startsWith('bundle/')).length,
    );
    expect(judged.length).toBeGreaterThan(900);
    expect(judged.filter((c) => c.outcome !== 'pass').map((c) => c.id)).toEqual([]);
    for (const area of [
      'digest/',
      'store/',
      'liveness/',
      'checkpoint/',
      'trace/',
      'faults/store/',
      'faults/liveness/',
    ]) {
      expect(cases.filter((c) => c.id.startsWith(area) && c.outcome === 'pass').length, area).toBeGreaterThan(
        3,
      );
    }
    for (const id of [
      'faults/store/concurrent-writers',
      'faults/field/zombie-writer-sigstop',
      'faults/store/crash-points',
    ]) {
      expect(cases.find((c) => c.id === id)?.outcome, id).toBe('pass');
    }
    expect(summary?.conforms).toBe(true);
    const figure = output.match(
      /(\d+) cases: (\d+) pass, 0 fail, 0 error, 0 timeout, 0 crash, (\d+) not applicable/,
    );
    expect(figure, output).not.toBeNull();
    const [, , pass, na] = figure ?? [];
    expect(Number(pass)).toBe(cases.filter((c) => c.outcome === 'pass').length);
    console.log(`examples/python-reference: ${pass} pass, 0 fail, ${na} not applicable`);
  }, 600_000);

  it('with the fence and owner compares switched off, fails the stale-fence cases and does not conform', () => {
    // A script of its own, started like impl.py (through the launcher that finds the pinned
    // jsonschema), with the store's compare replaced.
    const script = join(mkdtempSync(join(tmpdir(), 'py-reference-buggy-')), 'buggy.py');
    writeFileSync(
      script,
      [
        'import sys',
        'sys.dont_write_bytecode = True',
        `sys.path.insert(0, ${JSON.stringify(DIR)})`,
        'from agent_ref import pin',
        'pin.launch(__file__)',
        'import agent_ref.store as s',
        's._same = lambda a, b: True',
        'from agent_ref.main import main',
        'main()',
      ].join('\n'),
    );
    const buggy = `python3 ${script}`;
    const report = join(mkdtempSync(join(tmpdir(), 'py-reference-')), 'report.jsonl');
    const r = runCli([
      'conform',
      '--impl',
      buggy,
      '--no-faults',
      '--filter',
      'store/fence/*',
      '--report',
      report,
    ]);
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(1);
    const failed = parseReport(readFileSync(report, 'utf8'))
      .cases.filter((c) => c.outcome === 'fail')
      .map((c) => c.id);
    expect(failed).toContain('store/fence/stale/sequence-minus-one');
    expect(failed).toContain('store/fence/stale/generation-plus-one-with-force');
    expect(failed.every((id) => id.startsWith('store/fence/'))).toBe(true);
  }, 120_000);

  it('with the blind-retry, credential and containment checks switched off, fails those cases', () => {
    const script = join(mkdtempSync(join(tmpdir(), 'py-reference-buggy-')), 'buggy.py');
    writeFileSync(
      script,
      [
        'import sys',
        'sys.dont_write_bytecode = True',
        `sys.path.insert(0, ${JSON.stringify(DIR)})`,
        'from agent_ref import pin',
        'pin.launch(__file__)',
        'import agent_ref.run_control as r, agent_ref.policy as p, agent_ref.delegation as d',
        'r.retry_refusal = lambda original, at=None: None',
        'p.first_credential_shape = lambda value: None',
        'd.containment = lambda parent, child: []',
        'from agent_ref.main import main',
        'main()',
      ].join('\n'),
    );
    const buggy = `python3 ${script}`;
    const report = join(mkdtempSync(join(tmpdir(), 'py-reference-')), 'report.jsonl');
    const r = runCli(
      [
        'conform',
        '--impl',
        buggy,
        '--no-faults',
        '--filter',
        'run/*',
        '--filter',
        'policy/*',
        '--filter',
        'delegation/*',
        '--report',
        report,
      ],
      { timeoutMs: 120_000 },
    );
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(1);
    const failed = parseReport(readFileSync(report, 'utf8'))
      .cases.filter((c) => c.outcome === 'fail')
      .map((c) => c.id);
    expect(failed).toEqual(
      expect.arrayContaining([
        'run/RunStateV1/retry/unknown-outcome-query-before-retry',
        'run/RunStateV1/retry/permanent-not-retried',
        'policy/PermissionDecisionV1/credential/value-in-resource',
        'policy/PermissionDecisionV1/credential/value-as-grant-credential',
        'delegation/DelegationContractV1/refused/permission-parent-lacks',
        'delegation/DelegationContractV1/refused/budget-exceeds-parent',
      ]),
    );
  }, 120_000);

  it('keeps the trace in a directory stateLocation when no localDirectory is given (PROTO-004), so a restart sees it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'py-reference-local-'));
    const run = () => {
      const lines = [
        { id: 1, method: 'hello', params: { protocolVersion: 1, stateLocation: dir, localDirectory: null } },
        {
          id: 2,
          method: 'trace.open',
          params: { turnKey: 'turn-1', openedAt: '2026-12-03T06:00:00.000Z' },
        },
        { id: 3, method: 'shutdown', params: {} },
      ].map((m) => JSON.stringify({ jsonrpc: '2.0', ...m }));
      const r = spawnSync('python3', [IMPL], { input: `${lines.join('\n')}\n`, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      return r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))[1].result;
    };
    expect(run()).toMatchObject({ unchanged: false });
    expect(existsSync(join(dir, 'trace.json'))).toBe(true);
    // A new process on the same location finds the turn's trace: the second open changes nothing.
    expect(run()).toMatchObject({ unchanged: true });
  });

  it('on a PostgreSQL state location it declares no store (no driver in the standard library) and answers store.* with -32601', () => {
    const lines = [
      {
        id: 1,
        method: 'hello',
        params: { protocolVersion: 1, stateLocation: 'postgres://db/x', localDirectory: null },
      },
      { id: 2, method: 'store.history', params: { task: { taskId: 'x', projectRootIdentity: 'y' } } },
      { id: 3, method: 'shutdown', params: {} },
    ].map((m) => JSON.stringify({ jsonrpc: '2.0', ...m }));
    const r = spawnSync('python3', [IMPL], { input: `${lines.join('\n')}\n`, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const [hello, history] = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(hello.result.capabilities).toMatchObject({
      store: false,
      crashPoints: [],
      liveness: true,
      trace: true,
    });
    expect(history.error.code).toBe(-32601);
  });

  it('matches the credential value shapes of the PermissionPolicyGate page (the reference list is that table)', () => {
    const script = join(mkdtempSync(join(tmpdir(), 'py-reference-shapes-')), 'shapes.py');
    writeFileSync(
      script,
      [
        'import sys, json, re',
        `sys.path.insert(0, ${JSON.stringify(DIR)})`,
        'from agent_ref import pin',
        'pin.launch(__file__)',
        'from agent_ref.rules_permission import _SHAPES',
        'print(json.dumps([[source, bool(flags & re.IGNORECASE)] for source, flags in _SHAPES]))',
      ].join('\n'),
    );
    const r = spawnSync('python3', [script], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(
      CREDENTIAL_VALUE_SHAPES.map((s) => [s.pattern.source, s.pattern.flags.includes('i')]),
    );
  });

  it('imports nothing outside the Python standard library but the pinned jsonschema, in the schema layer only', () => {
    const check = [
      'import ast, pathlib, sys',
      'root = pathlib.Path(sys.argv[1])',
      'bad, pinned = [], []',
      'files = sorted(root.rglob("*.py"))',
      'for f in files:',
      '    for node in ast.walk(ast.parse(f.read_text(), str(f))):',
      '        names = [a.name for a in node.names] if isinstance(node, ast.Import) else ([node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else [])',
      '        for n in names:',
      '            top = n.split(".")[0]',
      '            where = f"{f.relative_to(root)}: {n}"',
      '            if top == "jsonschema":',
      '                pinned.append(where)',
      '            elif top not in sys.stdlib_module_names and top != "agent_ref":',
      '                bad.append(where)',
      'print(len(files))',
      'print(";".join(sorted(set(p.split(":")[0] for p in pinned))))',
      'print("\\n".join(bad))',
    ].join('\n');
    const r = spawnSync('python3', ['-c', check, DIR], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const [count, pinned, ...bad] = r.stdout.trim().split('\n');
    expect(Number(count)).toBeGreaterThan(10);
    // agent_ref/validate_schema.py is the schema layer; agent_ref/pin.py reads only the metadata.
    expect(pinned).toBe('agent_ref/validate_schema.py');
    expect(bad.filter((l) => l !== '')).toEqual([]);
  });

  it('refuses to start under a jsonschema other than the pinned 4.10.3, saying what to install', () => {
    // A jsonschema 9.9.9 first on the path of every Python it could start.
    const site = mkdtempSync(join(tmpdir(), 'py-reference-jsonschema-'));
    mkdirSync(join(site, 'jsonschema'));
    writeFileSync(join(site, 'jsonschema', '__init__.py'), '');
    mkdirSync(join(site, 'jsonschema-9.9.9.dist-info'));
    writeFileSync(
      join(site, 'jsonschema-9.9.9.dist-info', 'METADATA'),
      'Metadata-Version: 2.1\nName: jsonschema\nVersion: 9.9.9\n',
    );
    const hello = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'hello',
      params: { protocolVersion: 1, stateLocation: null, localDirectory: null },
    });
    const r = spawnSync('python3', [IMPL], {
      input: `${hello}\n`,
      encoding: 'utf8',
      env: { ...process.env, PYTHONPATH: site },
    });
    expect(r.status, r.stderr).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('JSON_SCHEMA_LIBRARY_MISSING');
    expect(r.stderr).toContain('jsonschema 4.10.3');
    expect(r.stderr).toContain('found jsonschema 9.9.9');
    expect(r.stderr).toContain('pip install jsonschema==4.10.3');
    // Without the stand-in it starts, under whichever Python has the pinned version.
    const ok = spawnSync('python3', [IMPL], { input: `${hello}\n`, encoding: 'utf8' });
    expect(ok.status, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout.trim().split('\n')[0]).result.capabilities.contracts).toEqual(CONTRACTS);
  });

  it('the import check catches a third-party import', () => {
    const r = spawnSync(
      'python3',
      [
        '-c',
        'import sys; print("requests" in sys.stdlib_module_names, "sqlite3" in sys.stdlib_module_names)',
      ],
      {
        encoding: 'utf8',
      },
    );
    expect(r.stdout.trim()).toBe('False True');
  });
});
