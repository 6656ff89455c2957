// @module-tag integration
// @module-tag slow
import { mkdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoCrash, json, repoRoot, runCli, tempDir } from './helpers.ts';

const VALID = { schemaVersion: 'TaskRecoveryCommitFenceV1', stateSequence: 3, writerGeneration: 1 };
let dir: string;
let cleanup: () => void;
const file = (name: string, content: string | Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

beforeAll(() => {
  ({ dir, cleanup } = tempDir());
});
afterAll(() => cleanup());

/** Run on one input with --json and return the single result, checking exit code and stderr. */
function single(args: string[], exit: number, input?: string) {
  const run = runCli(['validate', '--json', ...args], input === undefined ? {} : { input });
  expectNoCrash(run);
  expect(run.status, run.stderr).toBe(exit);
  const out = json(run);
  expect(out.results).toHaveLength(1);
  return out.results[0]!;
}

describe('agent-contracts validate: verdicts and exit codes', () => {
  it('exits 0 and prints ok with the contract for valid documents', () => {
    const run = runCli(['validate', file('ok.json', JSON.stringify(VALID))]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^ok\s+\S+ok\.json {2}TaskRecoveryCommitFenceV1$/m);
    expect(run.stdout).toContain('1 file: 1 valid, 0 invalid, 0 unreadable');
  });

  it('exits 1 and prints each issue with its path and code for invalid documents', () => {
    const run = runCli(['validate', file('bad.json', JSON.stringify({ ...VALID, stateSequence: -1 }))]);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^invalid \S+bad\.json {2}TaskRecoveryCommitFenceV1$/m);
    expect(run.stdout).toMatch(/error SCHEMA_MINIMUM at \/stateSequence: .*>= 0/);
  });

  it('validates the golden corpus: valid fixtures pass, invalid ones fail', () => {
    const fixtures = join(repoRoot, 'conformance/fixtures/TaskRecoveryCommitFenceV1');
    expect(runCli(['validate', join(fixtures, 'valid')]).status).toBe(0);
    const out = json(runCli(['validate', '--json', join(fixtures, 'invalid')]));
    const docs = out.results.filter((r) => !r.file.endsWith('.expected.json'));
    expect(docs.length).toBeGreaterThanOrEqual(5);
    for (const r of docs) expect(r.status, r.file).toBe('invalid');
  });

  it('reads standard input as -', () => {
    const r = single(['-'], 0, JSON.stringify(VALID));
    expect(r).toMatchObject({ file: '-', status: 'valid', contract: 'TaskRecoveryCommitFenceV1' });
  });

  it('exits 2 with INPUT_NOT_FOUND for a missing file, and still judges the others', () => {
    const run = runCli([
      'validate',
      '--json',
      file('fine.json', JSON.stringify(VALID)),
      join(dir, 'missing.json'),
    ]);
    expectNoCrash(run);
    expect(run.status).toBe(2);
    expect(json(run).results.map((r) => [r.status, r.issues[0]?.code])).toEqual([
      ['valid', undefined],
      ['error', 'INPUT_NOT_FOUND'],
    ]);
  });
});

describe('agent-contracts validate: bad input gets a coded message, never a crash', () => {
  it('not JSON: INPUT_NOT_JSON', () => {
    const r = single([file('not.json', '{"schemaVersion": ')], 1);
    expect(r.issues.map((i) => i.code)).toEqual(['INPUT_NOT_JSON']);
  });

  it('empty file and whitespace-only file: INPUT_EMPTY', () => {
    expect(single([file('empty.json', '')], 1).issues[0]!.code).toBe('INPUT_EMPTY');
    expect(single([file('blank.json', ' \n\t ')], 1).issues[0]!.code).toBe('INPUT_EMPTY');
  });

  it('UTF-8 BOM: accepted with an INPUT_BOM warning (exit 0)', () => {
    const path = file(
      'bom.json',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(VALID))]),
    );
    const r = single([path], 0);
    expect(r.status).toBe('valid');
    expect(r.issues).toMatchObject([{ code: 'INPUT_BOM', severity: 'warning' }]);
    const human = runCli(['validate', path]);
    expect(human.stdout).toMatch(/warning INPUT_BOM/);
  });

  it('unknown schemaVersion: SCHEMA_VERSION_UNKNOWN naming the known contracts', () => {
    const r = single([file('unknown.json', JSON.stringify({ ...VALID, schemaVersion: 'NoSuchV9' }))], 1);
    expect(r.issues).toMatchObject([{ code: 'SCHEMA_VERSION_UNKNOWN', path: '/schemaVersion' }]);
    const human = runCli(['validate', join(dir, 'unknown.json')]);
    expect(human.stdout).toContain('TaskRecoveryCommitFenceV1');
  });

  it('missing schemaVersion: SCHEMA_VERSION_MISSING', () => {
    const r = single([file('noversion.json', JSON.stringify({ stateSequence: 1 }))], 1);
    expect(r.issues.map((i) => i.code)).toEqual(['SCHEMA_VERSION_MISSING']);
  });

  it('a JSON value that is not an object: DOCUMENT_NOT_OBJECT', () => {
    expect(single([file('array.json', '[1,2]')], 1).issues[0]!.code).toBe('DOCUMENT_NOT_OBJECT');
  });

  it('nesting 100,000 levels deep: INPUT_TOO_DEEP, not a stack overflow', () => {
    const deep = `{"schemaVersion":"TaskRecoveryCommitFenceV1","x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const r = single([file('deep.json', deep)], 1);
    expect(r.issues.map((i) => i.code)).toEqual(['INPUT_TOO_DEEP']);
    // Brackets inside strings do not count; a raised --max-depth lets a moderately deep file through.
    const strings = JSON.stringify({ ...VALID, note: '['.repeat(5000) });
    expect(single([file('brackets-in-string.json', strings)], 1).issues[0]!.code).toBe(
      'SCHEMA_ADDITIONAL_PROPERTY',
    );
    const mid = JSON.stringify(VALID).replace(/}$/, `,"x":${'['.repeat(600)}${']'.repeat(600)}}`);
    expect(single([file('mid.json', mid)], 1).issues[0]!.code).toBe('INPUT_TOO_DEEP');
    expect(single(['--max-depth', '1000', join(dir, 'mid.json')], 1).issues[0]!.code).toBe(
      'SCHEMA_ADDITIONAL_PROPERTY',
    );
  });

  it('a 100 MB file: INPUT_TOO_LARGE without reading it; --max-bytes changes the cap', () => {
    const big = join(dir, 'big.json');
    writeFileSync(big, '');
    truncateSync(big, 100 * 1024 * 1024); // sparse: no 100 MB written to disk
    const r = single([big], 1);
    expect(r.issues.map((i) => i.code)).toEqual(['INPUT_TOO_LARGE']);
    expect(runCli(['validate', big]).stdout).toMatch(/100 MiB, more than the 16 MiB limit.*--max-bytes/);
    const small = file('padded.json', JSON.stringify(VALID) + ' '.repeat(2000));
    expect(single(['--max-bytes', '1K', small], 1).issues[0]!.code).toBe('INPUT_TOO_LARGE');
    expect(single(['--max-bytes', '4KiB', small], 0).status).toBe('valid');
    expect(
      single(['--max-bytes', '1K', '-'], 1, JSON.stringify(VALID) + ' '.repeat(2000)).issues[0]!.code,
    ).toBe('INPUT_TOO_LARGE');
  });

  it('__proto__ and constructor keys: reported as additional properties, nothing polluted', () => {
    const text =
      '{"schemaVersion":"TaskRecoveryCommitFenceV1","stateSequence":1,"writerGeneration":1,' +
      '"__proto__":{"schemaVersion":"X","polluted":true},"constructor":{"prototype":{"polluted":true}}}';
    const r = single([file('proto.json', text)], 1);
    expect(r.contract).toBe('TaskRecoveryCommitFenceV1');
    expect(r.issues.map((i) => i.code)).toEqual(['SCHEMA_ADDITIONAL_PROPERTY', 'SCHEMA_ADDITIONAL_PROPERTY']);
    // A __proto__ that carries schemaVersion does not supply a missing one.
    const r2 = single(
      [file('proto2.json', '{"__proto__":{"schemaVersion":"TaskRecoveryCommitFenceV1"}}')],
      1,
    );
    expect(r2.issues.map((i) => i.code)).toEqual(['SCHEMA_VERSION_MISSING']);
  });

  it('control characters in property names and values are escaped in the human output, kept in --json', () => {
    const evil = '\u001b[2K\r\u001b[32mok\u001b[0m\u202e';
    const path = file('evil\u001b[31m.json', JSON.stringify({ ...VALID, [evil]: 1 }));
    const human = runCli(['validate', '--no-color', path]);
    expectNoCrash(human);
    expect(human.status).toBe(1);
    const raw = [...human.stdout].filter((c) => {
      const n = c.codePointAt(0)!;
      return (n < 0x20 && c !== '\n') || (n >= 0x7f && n <= 0x9f) || n === 0x202e;
    });
    expect(raw).toEqual([]);
    expect(human.stdout).toContain('evil\\u001b[31m.json');
    expect(human.stdout).toContain(
      'the document has property "\\u001b[2K\\u000d\\u001b[32mok\\u001b[0m\\u202e"',
    );
    // Machine output keeps the exact text (JSON escapes it by itself).
    const r = single([path], 1);
    expect(r.file).toBe(path);
  });

  it('invalid UTF-8 and UTF-16: INPUT_INVALID_UTF8', () => {
    const bad = Buffer.concat([
      Buffer.from('{"schemaVersion":"'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}'),
    ]);
    expect(single([file('latin.json', bad)], 1).issues[0]!.code).toBe('INPUT_INVALID_UTF8');
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(JSON.stringify(VALID), 'utf16le')]);
    const r = single([file('utf16.json', utf16)], 1);
    expect(r.issues[0]!.code).toBe('INPUT_INVALID_UTF8');
  });

  it('a directory: recurses into *.json files only, in a stable order', () => {
    const root = join(dir, 'tree');
    mkdirSync(join(root, 'a/b'), { recursive: true });
    writeFileSync(join(root, 'z.json'), JSON.stringify(VALID));
    writeFileSync(join(root, 'a/b/deep.json'), JSON.stringify(VALID));
    writeFileSync(join(root, 'a/notes.txt'), 'not json');
    writeFileSync(join(root, 'a/data.json5'), '{');
    const out = json(runCli(['validate', '--json', root]));
    expect(out.results.map((r) => r.file.slice(root.length))).toEqual(['/a/b/deep.json', '/z.json']);
    expect(out.summary).toEqual({ files: 2, valid: 2, invalid: 0, errors: 0, exitCode: 0 });
  });

  it('a directory without *.json files: INPUT_NO_FILES, exit 2', () => {
    const empty = join(dir, 'empty-dir');
    mkdirSync(empty);
    const run = runCli(['validate', empty]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('INPUT_NO_FILES');
  });

  it('a directory with thousands of files streams through in bounded memory', () => {
    // Its own directory, removed by this test: removing thousands of files can take seconds on a
    // loaded disk, and that is this test's time (its timeout below), not the afterAll hook's.
    const own = tempDir();
    try {
      const many = join(own.dir, 'many');
      mkdirSync(many);
      const n = 4000;
      for (let i = 0; i < n; i++) {
        const doc = i % 1000 === 7 ? { ...VALID, stateSequence: -1 } : { ...VALID, stateSequence: i + 10 };
        writeFileSync(join(many, `doc-${String(i).padStart(5, '0')}.json`), JSON.stringify(doc));
      }
      // A 64 MB old-space cap: enough to run, far too little to keep thousands of documents around.
      const run = runCli(['validate', '--json', many], { nodeOptions: ['--max-old-space-size=64'] });
      expectNoCrash(run);
      expect(run.status, run.stderr).toBe(1);
      const out = json(run);
      expect(out.summary).toEqual({ files: n, valid: n - 4, invalid: 4, errors: 0, exitCode: 1 });
      const human = runCli(['validate', '--quiet', many], { nodeOptions: ['--max-old-space-size=64'] });
      expect(human.stdout.trim().split('\n')).toHaveLength(4 * 2 + 1);
    } finally {
      own.cleanup();
    }
  }, 120_000);
});

describe('agent-contracts: usage, help and colour', () => {
  it('--help on every command, and at the top level', () => {
    for (const args of [['--help'], ['validate', '--help'], ['validate', '-h']]) {
      const run = runCli(args);
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(/^Usage: agent-contracts/);
    }
    expect(runCli(['validate', '--help']).stdout).toContain('--max-bytes');
  });

  it.each([
    [['validate', '--bogus', 'x.json'], 'USAGE_UNKNOWN_OPTION'],
    [['validate'], 'USAGE_MISSING_ARGUMENT'],
    [['validate', '--max-bytes', 'ten', 'x.json'], 'USAGE_BAD_VALUE'],
    [['validate', '--max-depth', '0', 'x.json'], 'USAGE_BAD_VALUE'],
    [['validate', '-', '-'], 'USAGE_STDIN_TWICE'],
    [['frobnicate'], 'USAGE_UNKNOWN_COMMAND'],
  ])('%j exits 2 with %s on stderr', (args, code) => {
    const run = runCli(args);
    expectNoCrash(run);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`agent-contracts: ${code}: `);
    expect(run.stdout).toBe('');
  });

  it('honours NO_COLOR over FORCE_COLOR, and --no-color / --color', () => {
    const path = file('color.json', JSON.stringify({ ...VALID, stateSequence: -1 }));
    const ansi = new RegExp(String.fromCharCode(27) + '\\[');
    expect(runCli(['validate', path]).stdout).not.toMatch(ansi); // not a terminal
    expect(runCli(['validate', path], { env: { FORCE_COLOR: '1' } }).stdout).toMatch(ansi);
    expect(runCli(['validate', path], { env: { FORCE_COLOR: '1', NO_COLOR: '1' } }).stdout).not.toMatch(ansi);
    expect(runCli(['validate', '--no-color', path], { env: { FORCE_COLOR: '1' } }).stdout).not.toMatch(ansi);
    expect(runCli(['validate', '--color', path]).stdout).toMatch(ansi);
  });
});

describe('--json output', () => {
  it('conforms to the published schema schemas/cli/validate-output.schema.json', () => {
    const schema = JSON.parse(
      readFileSync(join(repoRoot, 'schemas/cli/validate-output.schema.json'), 'utf8'),
    );
    const check = new Ajv({ strict: true, allErrors: true }).compile(schema);
    const inputs = [
      file('j-ok.json', JSON.stringify(VALID)),
      file('j-bad.json', JSON.stringify({ ...VALID, force: 1, stateSequence: 'x' })),
      file(
        'j-bom.json',
        Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(VALID))]),
      ),
      file('j-notjson.json', 'nope'),
      join(dir, 'j-missing.json'),
    ];
    for (const args of [inputs, [join(dir, 'no-such-dir')], [join(dir, 'empty-dir-json')]]) {
      if (args[0]!.endsWith('empty-dir-json')) mkdirSync(args[0]!, { recursive: true });
      const run = runCli(['validate', '--json', ...args]);
      const out = JSON.parse(run.stdout);
      expect(check(out), JSON.stringify(check.errors)).toBe(true);
      expect(out.summary.exitCode).toBe(run.status);
    }
    const out = json(runCli(['validate', '--json', ...inputs]));
    expect(out.results.map((r) => r.status)).toEqual(['valid', 'invalid', 'valid', 'invalid', 'error']);
  });
});
