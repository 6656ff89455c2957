// @module-tag integration
// @module-tag slow
// `agent-contracts schema-diff` as a CI pipeline runs it: two copies of the published schemas, one
// edited, classified by $id with the exit code the --fail-on level asks for; bad inputs are coded.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli, tempDir } from './helpers.ts';

const { dir, cleanup } = tempDir();
afterAll(cleanup);
const before = join(dir, 'before');
const after = join(dir, 'after');
cpSync(join(repoRoot, 'schemas'), before, { recursive: true });
cpSync(join(repoRoot, 'schemas'), after, { recursive: true });
// biome-ignore lint/suspicious/noExplicitAny: free-form edits of schema JSON in a test
const edit = (rel: string, f: (s: Record<string, any>) => void) => {
  const p = join(after, rel);
  const s = JSON.parse(readFileSync(p, 'utf8'));
  f(s);
  writeFileSync(p, JSON.stringify(s, null, 2));
};
edit('contracts/LocalTaskTraceV1.schema.json', (s) => {
  const ev = s.properties.events.items.properties;
  ev.type.enum = ev.type.enum.filter((t: string) => t !== 'Stop');
});
edit('contracts/IntentSeedV1.schema.json', (s) => {
  s.description = `${s.description} Edited.`;
});
edit('contracts/TaskRecoveryCommitFenceV1.schema.json', (s) => {
  s.properties.stateSequence.description = 'edited';
  s.properties.stateSequence.maximum = undefined;
  delete s.required[s.required.indexOf('writerGeneration')];
  s.required = s.required.filter(Boolean);
});
rmSync(join(after, 'cli/validate-output.schema.json'));
mkdirSync(join(after, 'extra'));
writeFileSync(
  join(after, 'extra/new.schema.json'),
  JSON.stringify({ $id: 'https://example.test/new.schema.json', type: 'object' }),
);

describe('agent-contracts schema-diff', () => {
  it('finds nothing between the published schemas and themselves (exit 0)', () => {
    const r = runCli(['schema-diff', join(repoRoot, 'schemas'), before]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^\d+ schemas: 0 breaking, 0 compatible, 0 editorial, \d+ identical, 0 added, 0 removed\n$/,
    );
  });

  it('classifies each edited schema by $id, and fails on the breaking and removed ones (exit 1)', () => {
    const r = runCli(['schema-diff', '--json', before, after]);
    expect(r.status, r.stderr).toBe(1);
    const out = JSON.parse(r.stdout);
    const status = Object.fromEntries(
      out.results.map((x: { id: string; status: string }) => [x.id.replace(/^.*\//, ''), x.status]),
    );
    expect(status['LocalTaskTraceV1.schema.json']).toBe('breaking');
    expect(status['IntentSeedV1.schema.json']).toBe('editorial');
    expect(status['TaskRecoveryCommitFenceV1.schema.json']).toBe('compatible');
    expect(status['validate-output.schema.json']).toBe('removed');
    expect(status['new.schema.json']).toBe('added');
    const trace = out.results.find((x: { id: string }) => x.id.endsWith('LocalTaskTraceV1.schema.json'));
    expect(trace.changes).toEqual([
      {
        path: '/properties/events/items/properties/type/enum',
        kind: 'narrowing',
        message: 'enum no longer allows "Stop"',
      },
    ]);
    expect(out.summary).toMatchObject({
      breaking: 1,
      compatible: 1,
      editorial: 1,
      added: 1,
      removed: 1,
      exitCode: 1,
    });
    const schema = JSON.parse(
      readFileSync(join(repoRoot, 'schemas/cli/schema-diff-output.schema.json'), 'utf8'),
    );
    const check = new Ajv({ strict: true, allErrors: true }).compile(schema);
    expect(check(out), JSON.stringify(check.errors)).toBe(true);
  });

  it('--fail-on sets the least change that fails: compatible catches a widened frozen schema', () => {
    const fence = 'contracts/TaskRecoveryCommitFenceV1.schema.json';
    const intent = 'contracts/IntentSeedV1.schema.json';
    const run = (level: string, rel: string) =>
      runCli(['schema-diff', '--fail-on', level, join(before, rel), join(after, rel)]);
    expect(run('breaking', fence).status).toBe(0);
    const strict = run('compatible', fence);
    expect(strict.status).toBe(1);
    expect(strict.stdout).toMatch(/compatible\s+TaskRecoveryCommitFenceV1 .* \(fails the run\)/);
    expect(strict.stdout).toMatch(/widening\s+\/required\s+no longer required: writerGeneration/);
    expect(run('compatible', intent).status).toBe(0);
    expect(run('editorial', intent).status).toBe(1);
  });

  it('refuses bad input with a code and exit 2', () => {
    const bad = join(dir, 'bad');
    mkdirSync(bad);
    writeFileSync(join(bad, 'a.schema.json'), '{');
    const noId = join(dir, 'noid');
    mkdirSync(noId);
    writeFileSync(join(noId, 'a.schema.json'), '{"type":"object"}');
    const twice = join(dir, 'twice');
    mkdirSync(twice);
    writeFileSync(join(twice, 'a.schema.json'), '{"$id":"x"}');
    writeFileSync(join(twice, 'b.schema.json'), '{"$id":"x"}');
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    for (const [args, code] of [
      [[before], 'USAGE_MISSING_ARGUMENT'],
      [['--fail-on', 'sometimes', before, after], 'USAGE_BAD_VALUE'],
      [['--frobnicate', before, after], 'USAGE_UNKNOWN_OPTION'],
      [[join(dir, 'missing'), after], 'INPUT_NOT_FOUND'],
      [[empty, after], 'INPUT_NO_FILES'],
      [[bad, after], 'SCHEMA_INPUT_INVALID'],
      [[noId, after], 'SCHEMA_INPUT_INVALID'],
      [[twice, after], 'SCHEMA_INPUT_INVALID'],
    ] as const) {
      const r = runCli(['schema-diff', ...args]);
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^agent-contracts: ${code}: `));
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
